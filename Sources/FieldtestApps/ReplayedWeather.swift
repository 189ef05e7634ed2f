import FieldtestData
import FieldtestGSL
import Foundation
import ScenarioEngine
import SkyScoring

/// One replayed observation: sky conditions for the quality model plus the
/// fields a location's details show (SKY-D2, MIC-30).
public struct WeatherObservation: Sendable {
    /// Time of the observation, seconds since 1970 UTC.
    public var timeUTC: Double
    /// Cloud by layer, humidity, rain, visibility, aerosols.
    public var sky: SkyConditions
    /// Air temperature, °C.
    public var temperatureC: Double?
    /// Wind speed, m/s.
    public var windSpeedMps: Double?
    /// Aerosol optical depth (TMY) when recorded.
    public var aerosolOpticalDepth: Double?
}

/// A source of recorded weather replayed by time (SKY-X1: several providers
/// with different source formats behind one protocol).
public protocol WeatherProvider: Sendable {
    /// Provider name for reports.
    var name: String { get }
    /// Observations sorted by time.
    var observations: [WeatherObservation] { get }
}

extension WeatherProvider {
    /// Sky samples for the quality model's window.
    public var skySamples: [SkySample] { observations.map { SkySample(timeUTC: $0.timeUTC, conditions: $0.sky) } }

    /// The weather as known at `time`: each field from the latest observation
    /// at or before `time` that reports it, within 3 h (special reports often
    /// carry only some fields). O(log n + k) for k observations in the 3 h.
    public func observation(at time: Double) -> WeatherObservation? {
        var lo = 0, hi = observations.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if observations[mid].timeUTC <= time { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, time - observations[lo - 1].timeUTC <= 3 * 3600 else { return nil }
        var merged = observations[lo - 1]
        var i = lo - 2
        while i >= 0, time - observations[i].timeUTC <= 3 * 3600 {
            let o = observations[i]
            for f in SkyConditions.fields where merged.sky[keyPath: f] == nil { merged.sky[keyPath: f] = o.sky[keyPath: f] }
            merged.temperatureC = merged.temperatureC ?? o.temperatureC
            merged.windSpeedMps = merged.windSpeedMps ?? o.windSpeedMps
            merged.aerosolOpticalDepth = merged.aerosolOpticalDepth ?? o.aerosolOpticalDepth
            i -= 1
        }
        return merged
    }
}

/// NOAA LCD hourly observations (routine and special reports) replayed as recorded.
public struct LCDWeatherProvider: WeatherProvider {
    public let name = "noaa-lcd"
    public let observations: [WeatherObservation]

    /// Loads the file; `utcOffsetSeconds` is the station's standard-time offset.
    public init(url: URL, displayName: String, utcOffsetSeconds: Int) throws(DataError) {
        let file = try NOAALCDLoader.load(url: url, displayName: displayName, utcOffsetSeconds: utcOffsetSeconds)
        observations = file.observations.map { o in
            let cover = o.sky?.cover
            let raining = o.reportsPrecipitation
            return WeatherObservation(
                timeUTC: Double(o.timeUTC),
                sky: SkyConditions(cloudLowPct: cover?.lowPct, cloudMidPct: cover?.midPct, cloudHighPct: cover?.highPct,
                                   cloudTotalPct: cover?.totalPct, humidityPct: o.relativeHumidityPct,
                                   precipProbabilityPct: raining ? 100 : 0, visibilityKm: o.visibilityKm),
                temperatureC: o.temperatureC, windSpeedMps: o.windSpeedMps, aerosolOpticalDepth: nil)
        }.sorted { $0.timeUTC < $1.timeUTC }
    }
}

/// TMY3 or TMY2 hours (total/opaque cloud in tenths), re-dated onto `year`:
/// a typical year stitches months of different years, so each hour keeps its
/// month, day and hour and takes the scenario's year.
public struct TMYWeatherProvider: WeatherProvider {
    public let name: String
    public let observations: [WeatherObservation]

    public init(file: TMYFile, format: String, year: Int) {
        name = format
        var out: [WeatherObservation] = []
        for h in file.hours {
            let original = Date(timeIntervalSince1970: Double(h.startUTC))
            var cal = Calendar(identifier: .gregorian)
            cal.timeZone = TimeZone(identifier: "UTC")!
            var c = cal.dateComponents([.month, .day, .hour, .minute], from: original)
            c.year = year
            guard let redated = cal.date(from: c) else { continue }
            var sky = SkyConditions.fromTMY(totalTenths: h.totalCloudTenths, opaqueTenths: h.opaqueCloudTenths)
            sky.humidityPct = h.relativeHumidityPct
            sky.visibilityKm = h.visibilityUnlimited ? 50 : h.visibilityKm
            sky.precipProbabilityPct = h.precipitationReported ? ((h.precipitationMm ?? 0) > 0 ? 100 : 0) : nil
            out.append(WeatherObservation(timeUTC: redated.timeIntervalSince1970, sky: sky, temperatureC: h.temperatureC,
                                          windSpeedMps: h.windSpeedMps, aerosolOpticalDepth: h.aerosolOpticalDepth))
        }
        observations = out.sorted { $0.timeUTC < $1.timeUTC }
    }
}

/// Loads the provider for a manifest dataset (NOAA LCD, TMY3 or TMY2).
public enum WeatherProviders {
    /// Errors choosing a provider.
    public struct ProviderError: Error, CustomStringConvertible { public var description: String }

    /// Standard-time offsets of the bundled LCD stations, seconds east of UTC.
    static let lcdOffsets = ["noaa-lcd-rota-2018": 3600, "noaa-lcd-lincoln-2023": -21_600]

    public static func load(_ dataset: String, store: DatasetStore, year: Int) throws -> any WeatherProvider {
        let entry = store.manifest.entry(named: dataset)
        let url = try store.url(dataset)
        let display = "Datasets/" + (entry?.file ?? dataset)
        switch entry?.format {
        case .noaaLCD:
            guard let offset = lcdOffsets[dataset] else {
                throw ProviderError(description: "\(display): error: no UTC offset known for this LCD station")
            }
            return try store.cached("lcd:\(dataset)") { try LCDWeatherProvider(url: url, displayName: display, utcOffsetSeconds: offset) }
        case .tmy3:
            return try store.cached("tmy3:\(dataset):\(year)") {
                TMYWeatherProvider(file: try TMY3Loader.load(url: url, displayName: display), format: "tmy3", year: year)
            }
        case .tmy2:
            return try store.cached("tmy2:\(dataset):\(year)") {
                TMYWeatherProvider(file: try TMY2Loader.load(url: url, displayName: display), format: "tmy2", year: year)
            }
        default:
            throw ProviderError(description: "dataset '\(dataset)' is not a weather recording (NOAA LCD, TMY3 or TMY2)")
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
        let table = try CSVTable(url: url, displayName: "Datasets/reference/spa_sun_times.csv")
        rows = try table.load(policy: .strict) { (r: CSVRow) throws(DataError) -> Row? in
            guard let day = CivilDate(iso: Substring(try r.string("utc_date"))) else { throw r.invalid("utc_date", "expected YYYY-MM-DD") }
            return Row(place: try r.string("place"), latitude: try r.latitude(), longitude: try r.longitude(),
                       utcDay: day.daysSinceEpoch, sunrise: try r.optionalDouble("spa_sunrise_unix"),
                       sunset: try r.optionalDouble("spa_sunset_unix"))
        }.records
    }

    /// Reference events (sunrise or sunset, Unix seconds) within [start, end) for the place
    /// within 2 km of the coordinates; nil when the place or dates are not covered.
    public func events(latitude: Double, longitude: Double, sunrise: Bool, from start: Double, to end: Double) -> [Double]? {
        let near = rows.filter { PlacesLoader.greatCircleMetres(latitude, longitude, $0.latitude, $0.longitude) < 2000 }
        let firstDay = Int((start / 86_400).rounded(.down)) - 1, lastDay = Int((end / 86_400).rounded(.down)) + 1
        let days = Set(near.map(\.utcDay))
        guard (firstDay...lastDay).allSatisfy(days.contains) else { return nil }
        return near.compactMap { sunrise ? $0.sunrise : $0.sunset }.filter { $0 >= start && $0 < end }
    }
}
