/// What a weather view shows for a place and time (MIC-30, WXC-W1): an OpenWeatherMap-style
/// icon code, a description and the temperature.
///
/// Vocabulary from openweathermap.org/weather-conditions. Present weather (METAR codes) decides
/// thunderstorm, snow, drizzle, showers, rain, fog, mist and haze; otherwise total cloud picks
/// clear (< 1/16), few (< 3/8), scattered (< 5/8), broken (< 15/16) or overcast clouds; a source
/// with rain but no codes (TMY) reads as rain. The `d`/`n` suffix is day when the Sun's centre
/// is above −0.833° at the station.
public struct WeatherReport: Sendable, Equatable, Codable {
    /// Icon code, e.g. `01d` (clear, day) or `10n` (rain, night); nil when the sky is unknown.
    public var symbol: String?
    /// Description, e.g. `broken clouds`, `light rain`; nil when the sky is unknown.
    public var description: String?
    /// Air temperature, °C.
    public var temperatureC: Double?
    /// Time the report describes, seconds since 1970-01-01T00:00:00Z.
    public var time: Double

    /// Whether symbol, description and temperature are all there.
    public var isComplete: Bool { symbol != nil && description != nil && temperatureC != nil }

    /// The report of `observation` seen at `latitude`/`longitude` (degrees).
    public init(_ observation: WeatherObservation, latitude: Double, longitude: Double) {
        let day =
            SolarPosition(utcSeconds: observation.timeUTC, latitude: latitude, longitude: longitude).altitudeDeg
            > SolarCalculator.sunriseAltitudeDeg
        let (code, text) = Self.condition(observation)
        symbol = code.map { $0 + (day ? "d" : "n") }
        description = text
        temperatureC = observation.temperatureC
        time = observation.timeUTC
    }

    /// Icon code (without the d/n suffix) and description.
    static func condition(_ o: WeatherObservation) -> (String?, String?) {
        if let w = o.presentWeather {
            let intensity = w.hasPrefix("-") ? "light " : w.hasPrefix("+") ? "heavy " : ""
            if w.contains("TS") { return ("11", "thunderstorm") }
            if w.contains("SN") || w.contains("SG") || w.contains("PL") { return ("13", intensity + "snow") }
            if w.contains("DZ") { return ("09", intensity + "intensity drizzle") }
            if w.contains("SH") { return ("09", intensity + "shower rain") }
            if w.contains("RA") { return ("10", intensity + "rain") }
            if w.contains("FG") { return ("50", "fog") }
            if w.contains("BR") { return ("50", "mist") }
            if w.contains("HZ") { return ("50", "haze") }
        } else if (o.sky.precipProbabilityPct ?? 0) >= 50 {
            return ("10", "rain")
        }
        guard let total = o.sky.cloudTotalPct ?? o.sky.cloudLowPct else { return (nil, nil) }
        switch total {
        case ..<6.25: return ("01", "clear sky")
        case ..<37.5: return ("02", "few clouds")
        case ..<62.5: return ("03", "scattered clouds")
        case ..<93.75: return ("04", "broken clouds")
        default: return ("04", "overcast clouds")
        }
    }
}

extension WeatherProvider {
    /// The report at `time` for a request at `latitude`/`longitude` (MIC-30): the replayed
    /// observation (interpolated, see `observation(at:)`) with day/night judged at the station
    /// when its position is known, else at the requested point. Nil outside the recording.
    public func report(latitude: Double, longitude: Double, at time: Double) -> WeatherReport? {
        guard let o = observation(at: time) else { return nil }
        let at = station ?? (latitude, longitude)
        return WeatherReport(o, latitude: at.latitude, longitude: at.longitude)
    }
}
