import Foundation

/// Combined wind direction of the Beijing PM2.5 data.
public enum BeijingWind: String, Sendable {
    /// North-west.
    case northWest = "NW"
    /// North-east.
    case northEast = "NE"
    /// South-east.
    case southEast = "SE"
    /// Calm or variable.
    case calmVariable = "cv"
    /// South-west.
    case southWest = "SW"
}

/// One hour of the UCI Beijing PM2.5 data (US Embassy), times in UTC.
public struct BeijingHour: Sendable, Equatable {
    /// Start of the hour, seconds since 1970-01-01T00:00:00Z (file hours are China Standard Time, UTC+8).
    public var startUTC: Int
    /// PM2.5 concentration, µg/m³; nil when `NA`.
    public var pm25: Double?
    /// Dew point, °C.
    public var dewPointC: Double
    /// Temperature, °C.
    public var temperatureC: Double
    /// Pressure, hPa.
    public var pressureHPa: Double
    /// Combined wind direction.
    public var wind: BeijingWind
    /// Cumulated wind speed, m/s.
    public var cumulatedWindMps: Double
    /// Cumulated hours of snow.
    public var snowHours: Int
    /// Cumulated hours of rain.
    public var rainHours: Int

    /// Relative humidity, % (Magnus formula from temperature and dew point; Alduchov & Eskridge 1996).
    public var relativeHumidityPct: Double {
        func es(_ t: Double) -> Double { 6.1094 * exp(17.625 * t / (t + 243.04)) }
        return min(100, 100 * es(dewPointC) / es(temperatureC))
    }
}

/// Loader of `PRSA_data_2010.1.1-2014.12.31.csv`.
public enum BeijingPM25Loader {
    /// China Standard Time offset, seconds east of UTC.
    public static let utcOffsetSeconds = 8 * 3600

    /// Loads and validates every row.
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<BeijingHour>
    {
        let table = try CSVTable(url: url, displayName: displayName)
        try table.require([
            "No", "year", "month", "day", "hour", "pm2.5", "DEWP", "TEMP", "PRES", "cbwd", "Iws", "Is", "Ir",
        ])
        return try table.load(policy: policy) { (row) throws(DataError) -> BeijingHour? in
            _ = try row.int("No", in: 1...Int.max)
            guard
                let date = CivilDate(
                    year: try row.int("year", in: 1900...2100), month: try row.int("month", in: 1...12),
                    day: try row.int("day", in: 1...31))
            else {
                throw row.invalid("day", "no such date")
            }
            let hour = try row.int("hour", in: 0...23)
            guard let wind = BeijingWind(rawValue: try row.string("cbwd")) else {
                throw row.invalid("cbwd", "unknown wind direction (expected NW, NE, SE, SW or cv)")
            }
            let pm = try row.optionalDouble("pm2.5", in: 0...2000, missing: ["NA"])
            return BeijingHour(
                startUTC: CivilTime.epochSeconds(date, hour: hour, minute: 0) - utcOffsetSeconds,
                pm25: pm, dewPointC: try row.double("DEWP", in: -60...40),
                temperatureC: try row.double("TEMP", in: -50...50),
                pressureHPa: try row.double("PRES", in: 900...1100), wind: wind,
                cumulatedWindMps: try row.double("Iws", in: 0...2000),
                snowHours: try row.int("Is", in: 0...1000), rainHours: try row.int("Ir", in: 0...1000))
        }
    }
}
