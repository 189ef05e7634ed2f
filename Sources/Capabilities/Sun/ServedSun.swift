import FieldtestData
import Foundation
import SkyScoring

/// The solar calculator, served.
public struct ServedSun: ServedCore {
    public let capability = SystemCapability.sun
    /// The calculator answering.
    public var calculator = SolarCalculator()
    /// Serves the built-in calculator.
    public init() {}

    public mutating func load(path: String, format: String) throws {
        throw ServedCoreError("sun needs no setup")
    }

    public func answer(_ rows: [JSONObject]) -> [Result<[(String, JSONField)], ServedCoreError>] {
        rows.map { row in
            guard let date = row["date"]?.stringValue, let zone = row["timezone"]?.stringValue else {
                return .failure(ServedCoreError("needs latitude, longitude (numbers), date and timezone"))
            }
            let lat: Double
            let lon: Double
            do throws(ServedCoreError) {
                lat = try ServedField.number(row, "latitude", in: ServedField.latitudes)
                lon = try ServedField.number(row, "longitude", in: ServedField.longitudes)
            } catch { return .failure(error) }
            let q = SunQuery(id: "", latitude: lat, longitude: lon, date: date, timezone: zone)
            guard let t = calculator.sunTimes([q])[0] else {
                return .failure(ServedCoreError("date must be an existing YYYY-MM-DD and timezone an IANA name"))
            }
            return .success(t.fields)
        }
    }
}
