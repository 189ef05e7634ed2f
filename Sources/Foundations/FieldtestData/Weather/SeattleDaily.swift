import Foundation

/// Sky/weather label of a Seattle daily record.
public enum SeattleWeatherLabel: String, Sendable, CaseIterable {
    /// Sunny day.
    case sun
    /// Fog.
    case fog
    /// Rain.
    case rain
    /// Drizzle.
    case drizzle
    /// Snow.
    case snow
}

/// One day of the Seattle 2012–2015 daily weather (vega-datasets).
public struct SeattleDay: Sendable, Equatable {
    /// Local date.
    public var date: CivilDate
    /// Precipitation, mm.
    public var precipitationMm: Double
    /// Maximum temperature, °C.
    public var maxTemperatureC: Double
    /// Minimum temperature, °C.
    public var minTemperatureC: Double
    /// Mean wind speed, m/s.
    public var windMps: Double
    /// Weather label.
    public var label: SeattleWeatherLabel
}

/// Loader of `seattle-weather.csv` (`date,precipitation,temp_max,temp_min,wind,weather`).
public enum SeattleDailyLoader {
    /// Loads and validates every row (date `YYYY/MM/DD`, min ≤ max, known label).
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<SeattleDay>
    {
        let table = try CSVTable(url: url, displayName: displayName)
        try table.require(["date", "precipitation", "temp_max", "temp_min", "wind", "weather"])
        return try table.load(policy: policy) { (row) throws(DataError) -> SeattleDay? in
            guard let date = CivilDate(iso: Substring(try row.string("date"))) else {
                throw row.invalid("date", "expected an existing date YYYY/MM/DD")
            }
            let tmax = try row.double("temp_max", in: -40...50)
            let tmin = try row.double("temp_min", in: -40...50)
            guard tmin <= tmax else { throw row.invalid("temp_min", "greater than temp_max") }
            guard let label = SeattleWeatherLabel(rawValue: try row.string("weather")) else {
                throw row.invalid("weather", "unknown label (expected sun, fog, rain, drizzle or snow)")
            }
            return SeattleDay(
                date: date, precipitationMm: try row.double("precipitation", in: 0...500),
                maxTemperatureC: tmax, minTemperatureC: tmin, windMps: try row.double("wind", in: 0...80),
                label: label)
        }
    }
}
