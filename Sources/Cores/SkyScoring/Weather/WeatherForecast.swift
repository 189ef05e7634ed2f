import FieldtestGSL

/// Forecasts made from a recorded truth: the replayed observation at the target time plus a
/// seeded error whose spread grows linearly with lead time, so a scenario can measure how
/// forecast skill decays (SKY-C1's next 7 days, SKY-M1's low-quality warnings).
///
/// Error model: each cloud layer (low, mid, high, total, %) gets an independent Gaussian error
/// with standard deviation `growthPctPerDay × lead days`, clamped to 0…100; humidity the same
/// spread, clamped likewise. The error for a (target hour, issue hour) pair comes from its own
/// sub-stream of the seed, so it does not depend on the order or number of other requests:
/// same seed + same question = same forecast, bit for bit. Lead ≤ 0 returns the truth.
public struct WeatherForecast: Sendable {
    /// The recorded truth.
    public let truth: any WeatherProvider
    /// Error growth, percentage points of standard deviation per day of lead time.
    public let growthPctPerDay: Double
    /// Seed of the error.
    public let seed: UInt64

    /// Creates a forecaster over `truth`.
    public init(truth: any WeatherProvider, growthPctPerDay: Double = 8, seed: UInt64) {
        self.truth = truth
        self.growthPctPerDay = growthPctPerDay
        self.seed = seed
    }

    /// The forecast for `target`, issued at `issued` (UTC seconds).
    public func observation(at target: Double, issuedAt issued: Double) -> WeatherObservation? {
        guard let o = truth.observation(at: target) else { return nil }
        return perturbed(o, target: target, issued: issued)
    }

    /// Sky conditions `conditions` for `target` as forecast at `issued`.
    public func conditions(_ conditions: SkyConditions, at target: Double, issuedAt issued: Double) -> SkyConditions {
        perturbed(WeatherObservation(timeUTC: target, sky: conditions), target: target, issued: issued).sky
    }

    func perturbed(_ o: WeatherObservation, target: Double, issued: Double) -> WeatherObservation {
        let leadDays = (target - issued) / 86_400
        guard leadDays > 0, growthPctPerDay > 0 else { return o }
        let sd = growthPctPerDay * leadDays
        let name = "forecast:\(Int((target / 3600).rounded(.down))):\(Int((issued / 3600).rounded(.down)))"
        let rng = RandomStream(seed: RandomStream.derivedSeed(parent: seed, name: name))
        var out = o
        for field in [\SkyConditions.cloudLowPct, \.cloudMidPct, \.cloudHighPct, \.cloudTotalPct, \.humidityPct] {
            let error = rng.gaussian(standardDeviation: sd)
            if let v = out.sky[keyPath: field] { out.sky[keyPath: field] = min(100, max(0, v + error)) }
        }
        return out
    }
}
