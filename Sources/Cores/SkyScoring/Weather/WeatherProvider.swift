import FieldtestData

/// A source of recorded weather replayed by time. Several providers with different source
/// formats sit behind this protocol (SKY-X1): `LCDWeatherProvider` (NOAA Local Climatological
/// Data, hourly METAR-based reports) and `TMYWeatherProvider` (NREL TMY3 and TMY2 typical years).
public protocol WeatherProvider: Sendable {
    /// Provider name for reports.
    var name: String { get }
    /// Observations sorted by time.
    var observations: [WeatherObservation] { get }
    /// Station position (degrees), when the source records it.
    var station: (latitude: Double, longitude: Double)? { get }
    /// What loading the recording did: rows used, rows skipped and the first reasons.
    var loadReport: LoadReport { get }
}

extension WeatherProvider {
    /// No report: the provider was built from records, not read from a file.
    public var loadReport: LoadReport { LoadReport() }

    /// How far from an observation its values are used, seconds (3 h: special reports often
    /// carry only some fields, and hourly files have gaps).
    public static var reach: Double { 3 * 3600 }

    /// Sky samples for the quality model's window.
    public var skySamples: [SkySample] { observations.map { SkySample(timeUTC: $0.timeUTC, conditions: $0.sky) } }

    /// The weather at `time` (UTC seconds). Continuous fields (cloud, humidity, visibility,
    /// PM2.5, temperature, wind) are interpolated linearly between the nearest observations
    /// before and after `time` that report them, each within `reach`; with only an earlier one,
    /// its value is held. Precipitation and present weather are held from the latest
    /// observation reporting them. Nil before the first observation or after a gap longer
    /// than `reach`. O(log n + k) for the k observations within `reach`.
    public func observation(at time: Double) -> WeatherObservation? {
        let obs = observations
        var lo = 0
        var hi = obs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if obs[mid].timeUTC <= time { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, time - obs[lo - 1].timeUTC <= Self.reach else { return nil }
        var merged = obs[lo - 1]
        merged.timeUTC = time
        for field in WeatherObservation.continuousFields {
            var before: (t: Double, v: Double)?
            var i = lo - 1
            while i >= 0, time - obs[i].timeUTC <= Self.reach {
                if let v = obs[i][keyPath: field] {
                    before = (obs[i].timeUTC, v)
                    break
                }
                i -= 1
            }
            guard let b = before else {
                merged[keyPath: field] = nil
                continue
            }
            var after: (t: Double, v: Double)?
            var j = lo
            while j < obs.count, obs[j].timeUTC - time <= Self.reach {
                if let v = obs[j][keyPath: field] {
                    after = (obs[j].timeUTC, v)
                    break
                }
                j += 1
            }
            if let a = after, a.t > b.t {
                merged[keyPath: field] = b.v + (a.v - b.v) * (time - b.t) / (a.t - b.t)
            } else {
                merged[keyPath: field] = b.v
            }
        }
        var i = lo - 1
        while i >= 0, time - obs[i].timeUTC <= Self.reach,
            merged.sky.precipProbabilityPct == nil || merged.presentWeather == nil
        {
            merged.sky.precipProbabilityPct = merged.sky.precipProbabilityPct ?? obs[i].sky.precipProbabilityPct
            merged.presentWeather = merged.presentWeather ?? obs[i].presentWeather
            i -= 1
        }
        return merged
    }
}
