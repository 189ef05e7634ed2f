import FieldtestData
import FieldtestGSL
import Foundation
import ScenarioEngine
import SkyScoring

/// What a scenario may declare about a weather recording beyond its file, and how strictly
/// the file is read.
public struct WeatherLoadOptions: Sendable, Hashable {
    /// The station's standard-time offset, seconds east of UTC (a dataset's `utc_offset:`,
    /// in hours, × 3600); wins over `timeZone` and over the station's own zone.
    public var utcOffsetSeconds: Int?
    /// The station's IANA time zone (a dataset's `timezone:`); its standard offset is used.
    public var timeZone: String?
    /// The units of an LCD file's values, when not those of its layout.
    public var lcdUnits: LCDUnits?
    /// Whether a row that cannot be used stops the load with its file:line (else it is
    /// skipped and counted in the provider's `loadReport`).
    public var strict: Bool

    /// Options; by default everything comes from the data and bad rows are skipped.
    public init(utcOffsetSeconds: Int? = nil, timeZone: String? = nil, lcdUnits: LCDUnits? = nil, strict: Bool = false)
    {
        self.utcOffsetSeconds = utcOffsetSeconds
        self.timeZone = timeZone
        self.lcdUnits = lcdUnits
        self.strict = strict
    }

    var policy: LoadPolicy { strict ? .strict : .lenient }
    var cacheKey: String {
        "\(utcOffsetSeconds.map(String.init) ?? "-")|\(timeZone ?? "-")|\(lcdUnits?.rawValue ?? "-")|\(strict)"
    }
}

/// Loads the weather provider of a dataset by its format (NOAA LCD, TMY3, TMY2 or Beijing PM2.5),
/// whatever the dataset is called.
public enum WeatherProviders {
    /// Errors choosing a provider.
    public struct ProviderError: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The provider of `dataset`; `year` is the year a typical-year recording is replayed in.
    /// An LCD station's UTC offset is the declared one (`options`), else the standard offset of
    /// the zone of the place nearest the station (`lcdTimeBase`).
    public static func load(
        _ dataset: String, store: DatasetStore, year: Int, options: WeatherLoadOptions = WeatherLoadOptions()
    ) throws -> any WeatherProvider {
        let url = try store.url(dataset)
        let provider = try provider(dataset, url: url, store: store, year: year, options: options)
        // Rows the loader skipped are counted in run.json's `rows_skipped`, with the first reasons.
        try store.recordLoadReport(provider.loadReport, for: url)
        return provider
    }

    /// The provider of `dataset` at `url`, parsed once per store.
    static func provider(
        _ dataset: String, url: URL, store: DatasetStore, year: Int, options: WeatherLoadOptions
    ) throws -> any WeatherProvider {
        let entry = store.manifest.entry(named: dataset)
        let display = DatasetManifest.display(url)
        switch entry?.format {
        case .noaaLCD:
            return try store.cached("lcd:\(dataset):\(options.cacheKey)") {
                let file = try NOAALCDLoader.load(
                    url: url, displayName: display, timeBase: try lcdTimeBase(options, store: store),
                    units: options.lcdUnits, policy: options.policy)
                // A declared offset needs no station position; the apps still want one (day and night,
                // the station's place): the station history has it by id.
                let provider = LCDWeatherProvider(file: file)
                return provider.station == nil ? provider.located(in: try stations(store)) : provider
            }
        case .tmy3:
            return try store.cached("tmy3:\(dataset):\(year):\(options.strict)") {
                try TMYWeatherProvider(
                    file: try TMY3Loader.load(url: url, displayName: display, policy: options.policy), format: "tmy3",
                    year: year)
            }
        case .tmy2:
            return try store.cached("tmy2:\(dataset):\(year):\(options.strict)") {
                try TMYWeatherProvider(
                    file: try TMY2Loader.load(url: url, displayName: display, policy: options.policy), format: "tmy2",
                    year: year)
            }
        case .beijingPM25:
            return try store.cached("beijing:\(dataset):\(options.strict)") {
                BeijingAirQualityProvider(
                    hours: try BeijingPM25Loader.load(url: url, displayName: display, policy: options.policy).records)
            }
        default:
            throw ProviderError(
                description: "dataset '\(dataset)' is not a weather recording (NOAA LCD, TMY3, TMY2 or Beijing PM2.5)")
        }
    }

    /// How an LCD file's local standard times become UTC: the declared offset or zone, else the
    /// station's own zone, found from its coordinates (the file's, else the datasets' NOAA station
    /// history by station id) and the nearest place of the datasets' GeoNames tables.
    static func lcdTimeBase(_ options: WeatherLoadOptions, store: DatasetStore) throws -> LCDTimeBase {
        if let seconds = options.utcOffsetSeconds { return .offsetSeconds(seconds) }
        if let zone = options.timeZone { return .zone(zone) }
        return .station(stations: try stations(store), places: try zonePlaces(store))
    }

    /// NOAA's station history from the datasets (the entry of format `isd-history`); empty when
    /// there is none.
    static func stations(_ store: DatasetStore) throws -> [ISDStation] {
        try store.cached("isd-stations") { () throws -> [ISDStation] in
            guard let entry = store.manifest.entries.first(where: { $0.format == .isdHistory }) else { return [] }
            let url = try store.url(entry.name)
            return try ISDHistoryLoader.load(url: url, displayName: DatasetManifest.display(url)).records
        }
    }

    /// Every place with an IANA zone in the datasets' GeoNames tables (US places and world cities).
    static func zonePlaces(_ store: DatasetStore) throws -> [Place] {
        try store.cached("zone-places") { () throws -> [Place] in
            var places: [Place] = []
            for entry in store.manifest.entries where entry.format == .usCities || entry.format == .worldCities {
                let url = try store.url(entry.name)
                let display = DatasetManifest.display(url)
                places +=
                    entry.format == .usCities
                    ? try PlacesLoader.loadUSCities(url: url, displayName: display).records
                    : try PlacesLoader.loadWorldCities(url: url, displayName: display).records
            }
            return places
        }
    }
}
