import FieldtestData
import FieldtestGSL
import Foundation
import ScenarioEngine
import SkyScoring

/// Loads the provider for a manifest dataset (NOAA LCD, TMY3, TMY2 or Beijing PM2.5).
public enum WeatherProviders {
    /// Errors choosing a provider.
    public struct ProviderError: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Standard-time offsets of the bundled LCD stations, seconds east of UTC.
    static let lcdOffsets = ["noaa-lcd-rota-2018": 3600, "noaa-lcd-lincoln-2023": -21_600]

    public static func load(_ dataset: String, store: DatasetStore, year: Int) throws -> any WeatherProvider {
        let entry = store.manifest.entry(named: dataset)
        let url = try store.url(dataset)
        let display = DatasetManifest.display(url)
        switch entry?.format {
        case .noaaLCD:
            guard let offset = lcdOffsets[dataset] else {
                throw ProviderError(description: "\(display): error: no UTC offset known for this LCD station")
            }
            return try store.cached("lcd:\(dataset)") {
                try LCDWeatherProvider(url: url, displayName: display, utcOffsetSeconds: offset)
            }
        case .tmy3:
            return try store.cached("tmy3:\(dataset):\(year)") {
                try TMYWeatherProvider(
                    file: try TMY3Loader.load(url: url, displayName: display), format: "tmy3", year: year)
            }
        case .tmy2:
            return try store.cached("tmy2:\(dataset):\(year)") {
                try TMYWeatherProvider(
                    file: try TMY2Loader.load(url: url, displayName: display), format: "tmy2", year: year)
            }
        case .beijingPM25:
            return try store.cached("beijing:\(dataset)") {
                BeijingAirQualityProvider(hours: try BeijingPM25Loader.load(url: url, displayName: display).records)
            }
        default:
            throw ProviderError(
                description: "dataset '\(dataset)' is not a weather recording (NOAA LCD, TMY3, TMY2 or Beijing PM2.5)")
        }
    }
}

/// NREL SPA reference sunrise/sunset times for the bundled scenarios' places
/// (`Datasets/reference/spa_sun_times.csv`, made with pvlib by the script beside it).
public struct SunReference: Sendable {
    public struct Row: Sendable {
        public var place: String
        public var latitude: Double
        public var longitude: Double
        public var utcDay: Int
        public var sunrise: Double?
        public var sunset: Double?
    }

    public let rows: [Row]

    public init(url: URL) throws(DataError) {
        let table = try CSVTable(url: url, displayName: DatasetManifest.display(url))
        rows = try table.load(policy: .strict) { (r: CSVRow) throws(DataError) -> Row? in
            guard let day = CivilDate(iso: Substring(try r.string("utc_date"))) else {
                throw r.invalid("utc_date", "expected YYYY-MM-DD")
            }
            return Row(
                place: try r.string("place"), latitude: try r.latitude(), longitude: try r.longitude(),
                utcDay: day.daysSinceEpoch, sunrise: try r.optionalDouble("spa_sunrise_unix"),
                sunset: try r.optionalDouble("spa_sunset_unix"))
        }.records
    }

    /// Reference events (sunrise or sunset, Unix seconds) within [start, end) for the place
    /// within 2 km of the coordinates; nil when the place or dates are not covered.
    public func events(latitude: Double, longitude: Double, sunrise: Bool, from start: Double, to end: Double)
        -> [Double]?
    {
        let near = rows.filter { PlacesLoader.greatCircleMetres(latitude, longitude, $0.latitude, $0.longitude) < 2000 }
        let firstDay = Int((start / 86_400).rounded(.down)) - 1
        let lastDay = Int((end / 86_400).rounded(.down)) + 1
        let days = Set(near.map(\.utcDay))
        guard (firstDay...lastDay).allSatisfy(days.contains) else { return nil }
        return near.compactMap { sunrise ? $0.sunrise : $0.sunset }.filter { $0 >= start && $0 < end }
    }
}
