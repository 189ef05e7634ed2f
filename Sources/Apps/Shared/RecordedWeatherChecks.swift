import SkyScoring

/// Checks of the weather an app shows against the recording it was replayed from, made from the
/// recorded rows themselves rather than through the providers' interpolation (the app's code):
/// a value shown for time `t` must lie between the last recorded value at or before `t` and the
/// first one after it, each within the providers' reach (3 h); with only an earlier one, it must
/// equal it.
enum RecordedWeatherChecks {
    /// Relative tolerance of a bracket, for the rounding of an interpolation.
    static let tolerance = 1e-9

    /// Whether `shown` (nil: not shown) is what the recording allows for `field` at `time`
    /// (UTC seconds): within the bracket of the recorded values around it, or nil when the
    /// recording has none within reach before `time`.
    static func valueFollowsRecording(
        _ shown: Double?, _ field: KeyPath<WeatherObservation, Double?>, in rows: [WeatherObservation],
        at time: Double, reach: Double = 3 * 3600
    ) -> Bool {
        // The rows are in time order: find the first after `time`, then walk out within reach.
        let lo = firstAfter(time, in: rows)
        var before: Double?
        var i = lo - 1
        while i >= 0, time - rows[i].timeUTC <= reach, before == nil {
            before = rows[i][keyPath: field]
            i -= 1
        }
        var after: Double?
        var j = lo
        while j < rows.count, rows[j].timeUTC - time <= reach, after == nil {
            after = rows[j][keyPath: field]
            j += 1
        }
        guard let b = before else { return shown == nil }
        guard let shown else { return false }
        let (low, high) = (min(b, after ?? b), max(b, after ?? b))
        let slack = tolerance * max(1, abs(low), abs(high))
        return shown >= low - slack && shown <= high + slack
    }

    /// The last value of `field` recorded at or before `time` within `reach` (a value that holds until
    /// the next report, such as the probability of rain), or nil.
    static func heldValue(
        _ field: KeyPath<WeatherObservation, Double?>, in rows: [WeatherObservation], at time: Double,
        reach: Double = 3 * 3600
    ) -> Double? {
        var i = firstAfter(time, in: rows) - 1
        while i >= 0, time - rows[i].timeUTC <= reach {
            if let v = rows[i][keyPath: field] { return v }
            i -= 1
        }
        return nil
    }

    /// The index of the first row recorded after `time` (rows in time order).
    static func firstAfter(_ time: Double, in rows: [WeatherObservation]) -> Int {
        var lo = 0
        var hi = rows.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if rows[mid].timeUTC <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// OpenWeatherMap's published icon codes and the descriptions each stands for
    /// (openweathermap.org "Weather conditions"), without the day/night suffix.
    static let iconDescriptions: [String: [String]] = [
        "01": ["clear sky"], "02": ["few clouds"], "03": ["scattered clouds"],
        "04": ["broken clouds", "overcast clouds"], "09": ["shower rain", "drizzle"], "10": ["rain"],
        "11": ["thunderstorm"], "13": ["snow"], "50": ["mist", "fog", "haze"],
    ]

    /// Whether the icon shown is an OpenWeatherMap icon (code + `d` or `n`) whose meaning the
    /// description shown names (an intensity such as "light" may qualify it).
    static func symbolMatchesDescription(_ symbol: String, _ description: String) -> Bool {
        guard symbol.count == 3, let suffix = symbol.last, suffix == "d" || suffix == "n",
            let meanings = iconDescriptions[String(symbol.prefix(2))]
        else { return false }
        return meanings.contains { description == $0 || description.hasSuffix(" " + $0) }
    }

    /// MIC-30 and WXC-W1: the report shown for `time` is the recording's: its temperature follows
    /// the recorded temperatures, and its icon and description agree.
    static func reportFollowsRecording(_ shown: WeatherReport, rows: [WeatherObservation], at time: Double) -> Bool {
        let pairOK =
            switch (shown.symbol, shown.description) {
            case (nil, nil): true
            case (let s?, let d?): symbolMatchesDescription(s, d)
            default: false
            }
        return pairOK && valueFollowsRecording(shown.temperatureC, \.temperatureC, in: rows, at: time)
    }

    /// The fields of a weather report the specifications require shown (Func_32; WeatherCities
    /// R5): symbol, description and temperature, each present or not.
    static func requiredFields(_ shown: WeatherReport?) -> [Bool] {
        [shown?.symbol != nil, shown?.description != nil, shown?.temperatureC != nil]
    }
}
