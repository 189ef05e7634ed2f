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
        var out: [WeatherObservation] = []
        for h in file.hours {
            let wallDays = Int((Double(h.startUTC) / 86_400).rounded(.down))
            let secondOfDay = h.startUTC - wallDays * 86_400
            let original = CivilDate(daysSinceEpoch: wallDays)
            guard let redated = CivilDate(year: year, month: original.month, day: original.day) else { continue }
            var sky = SkyConditions.fromTMY(totalTenths: h.totalCloudTenths, opaqueTenths: h.opaqueCloudTenths)
            sky.humidityPct = h.relativeHumidityPct
            sky.visibilityKm = h.visibilityUnlimited ? 50 : h.visibilityKm
            sky.precipProbabilityPct = h.precipitationReported ? ((h.precipitationMm ?? 0) > 0 ? 100 : 0) : nil
            out.append(
                WeatherObservation(
                    timeUTC: Double(redated.daysSinceEpoch * 86_400 + secondOfDay), sky: sky,
                    temperatureC: h.temperatureC, windSpeedMps: h.windSpeedMps,
                    aerosolOpticalDepth: h.aerosolOpticalDepth))
        }
        observations = out.sorted { $0.timeUTC < $1.timeUTC }
    }
}
