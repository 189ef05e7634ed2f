import FieldtestData
import Foundation

/// NREL TMY3 or TMY2 hours (total/opaque cloud in tenths), re-dated onto `year`: a typical
/// year stitches months of different years, so each hour keeps its month, day and hour and
/// takes the scenario's year (29 February is dropped in a non-leap target year).
public struct TMYWeatherProvider: WeatherProvider {
    /// `tmy3` or `tmy2`.
    public let name: String
    /// Observations sorted by time.
    public let observations: [WeatherObservation]
    /// Station position.
    public let station: (latitude: Double, longitude: Double)?
    /// Rows used and skipped (with the first reasons) when the file was read.
    public let loadReport: LoadReport

    /// Years a typical year can be replayed in: the span of the solar ephemeris table and the
    /// time-zone offset tables (1900–2100).
    public static let supportedYears = 1900...2100

    /// Why a typical year cannot be replayed.
    public enum ReplayError: Error, Equatable, CustomStringConvertible {
        /// The target year is outside `supportedYears`.
        case unsupportedYear(Int)

        public var description: String {
            switch self {
            case .unsupportedYear(let year):
                "error: a typical year cannot be replayed in \(year); choose a year in "
                    + "\(TMYWeatherProvider.supportedYears.lowerBound)…\(TMYWeatherProvider.supportedYears.upperBound)"
            }
        }
    }

    /// Re-dates `file` onto `year` (one of `supportedYears`, else `ReplayError.unsupportedYear`);
    /// `format` names the source in reports.
    public init(file: TMYFile, format: String, year: Int) throws(ReplayError) {
        guard Self.supportedYears.contains(year) else { throw .unsupportedYear(year) }
        name = format
        station = (file.station.latitude, file.station.longitude)
        loadReport = file.report
        let rain = Self.rainPct(file.hours, fromPresentWeather: format == "tmy2")
        var out: [WeatherObservation] = []
        for (index, h) in file.hours.enumerated() {
            let wallDays = Int((Double(h.startUTC) / 86_400).rounded(.down))
            let secondOfDay = h.startUTC - wallDays * 86_400
            let original = CivilDate(daysSinceEpoch: wallDays)
            guard let redated = CivilDate(year: year, month: original.month, day: original.day) else { continue }
            var sky = SkyConditions.fromTMY(totalTenths: h.totalCloudTenths, opaqueTenths: h.opaqueCloudTenths)
            sky.humidityPct = h.relativeHumidityPct
            sky.visibilityKm = h.visibilityUnlimited ? 50 : h.visibilityKm
            sky.precipProbabilityPct = rain[index]
            out.append(
                WeatherObservation(
                    timeUTC: Double(redated.daysSinceEpoch * 86_400 + secondOfDay), sky: sky,
                    temperatureC: h.temperatureC, windSpeedMps: h.windSpeedMps,
                    aerosolOpticalDepth: h.aerosolOpticalDepth))
        }
        observations = out.sorted { $0.timeUTC < $1.timeUTC }
    }

    /// Rain (100 %) or none (0 %) per hour, nil where nothing was recorded. TMY2 gives present
    /// weather for each observed hour (`fromPresentWeather`): rain, drizzle, snow, thunder… or none. TMY3 gives
    /// a liquid depth over a period ending at the row (`Lprecip quantity`, 1–24 h): a positive
    /// depth means rain in each hour of the period, a zero depth none, and a shorter period
    /// overrides a longer one over its hours; a period not stated counts as the row's own hour.
    static func rainPct(_ hours: [TMYHour], fromPresentWeather: Bool) -> [Double?] {
        if fromPresentWeather {
            return hours.map { $0.presentWeatherObserved ? ($0.precipitationReported ? 100 : 0) : nil }
        }
        var rain = [Double?](repeating: nil, count: hours.count)
        // Longer periods first: a shorter one inside it says more precisely which hours were wet.
        let reports = hours.indices.compactMap { i -> (end: Int, period: Int, wet: Bool)? in
            guard let depth = hours[i].precipitationMm else { return nil }
            let period = hours[i].precipitationPeriodHours.flatMap { (1...24).contains($0) ? $0 : nil } ?? 1
            return (i, period, depth > 0)
        }
        for period in Set(reports.map(\.period)).sorted(by: >) {
            var layer: [Int: Double] = [:]
            for r in reports where r.period == period {
                for k in max(0, r.end - period + 1)...r.end { layer[k] = max(layer[k] ?? 0, r.wet ? 100 : 0) }
            }
            for (k, v) in layer { rain[k] = v }
        }
        return rain
    }
}
