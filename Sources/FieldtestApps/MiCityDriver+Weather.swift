import FieldtestData
import Foundation
import SkyScoring

/// What miCity's main view shows for the weather (Func_30–32): an
/// OpenWeatherMap-style icon code, a description and the temperature.
struct MiCityWeather: Codable, Equatable, Sendable {
    /// OpenWeatherMap icon code, e.g. `01d` (clear, day) or `10n` (rain, night).
    var symbol: String?
    /// OpenWeatherMap-style description, e.g. `broken clouds`, `light rain`.
    var description: String?
    /// Dry-bulb temperature, °C.
    var temperatureC: Double?
    /// Observation time, seconds since 1970 UTC.
    var observedAt: Double

    /// Whether symbol, description and temperature are all there.
    var isComplete: Bool { symbol != nil && description != nil && temperatureC != nil }
}

/// Weather served from a recorded NOAA LCD station file: the latest hourly
/// observation at or before the request time from the station nearest the
/// requested point, turned into OpenWeatherMap's vocabulary (icon codes and
/// descriptions from openweathermap.org/weather-conditions; sky cover from the
/// METAR layers, CLR/FEW/SCT/BKN/OVC; day or night from the NOAA solar
/// altitude at −0.833°). O(log n) per request.
struct RecordedWeatherProvider {
    let observations: [LCDObservation]
    let latitude: Double
    let longitude: Double

    /// Loads an LCD file that carries its station coordinates (layout v2).
    static func load(url: URL, name: String, utcOffsetSeconds: Int) throws -> RecordedWeatherProvider {
        let file = try NOAALCDLoader.load(url: url, displayName: "Datasets/" + name, utcOffsetSeconds: utcOffsetSeconds)
        guard let c = file.coordinate else {
            throw EmulatedDevices.BuildError(description: "\(name): error: the weather dataset has no station coordinates; use an LCD file with LATITUDE/LONGITUDE columns")
        }
        let obs = file.observations.sorted { $0.timeUTC < $1.timeUTC }
        return RecordedWeatherProvider(observations: obs, latitude: c.latitude, longitude: c.longitude)
    }

    /// The weather shown at `time` (seconds since 1970 UTC); `nil` before the recording starts.
    func weather(at time: Double) -> MiCityWeather? {
        var lo = 0, hi = observations.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Double(observations[mid].timeUTC) <= time { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return nil }
        // The latest observation with a temperature, within three hours.
        var i = lo - 1
        while i > 0, observations[i].temperatureC == nil, time - Double(observations[i].timeUTC) < 3 * 3600 { i -= 1 }
        let o = observations[i]
        let day = SolarPosition(utcSeconds: Double(o.timeUTC), latitude: latitude, longitude: longitude).altitudeDeg
            > SolarCalculator.sunriseAltitudeDeg
        let (code, text) = Self.condition(o)
        return MiCityWeather(symbol: code.map { $0 + (day ? "d" : "n") }, description: text,
                             temperatureC: o.temperatureC, observedAt: Double(o.timeUTC))
    }

    /// Icon code (without the d/n suffix) and description of an observation.
    static func condition(_ o: LCDObservation) -> (String?, String?) {
        if let w = o.presentWeather, o.reportsPrecipitation || w.contains("BR") || w.contains("FG") || w.contains("HZ") {
            let light = w.hasPrefix("-"), heavy = w.hasPrefix("+")
            let intensity = light ? "light " : heavy ? "heavy " : ""
            if w.contains("TS") { return ("11", "thunderstorm") }
            if w.contains("SN") || w.contains("SG") || w.contains("PL") { return ("13", intensity + "snow") }
            if w.contains("DZ") { return ("09", intensity + "intensity drizzle") }
            if w.contains("SH") { return ("09", intensity + "shower rain") }
            if w.contains("RA") { return ("10", intensity + "rain") }
            if w.contains("FG") { return ("50", "fog") }
            if w.contains("BR") { return ("50", "mist") }
            if w.contains("HZ") { return ("50", "haze") }
        }
        guard let sky = o.sky else { return (nil, nil) }
        let total = sky.cover.totalPct
        switch total {
        case ..<6.25: return ("01", "clear sky")
        case ..<37.5: return ("02", "few clouds")
        case ..<62.5: return ("03", "scattered clouds")
        case ..<93.75: return ("04", "broken clouds")
        default: return ("04", "overcast clouds")
        }
    }
}
