/// A detected (or recorded) step: when it happened and how long it was.
public struct StepEvent: Sendable, Equatable {
    /// UNIX time of the step in seconds (UTC).
    public var timeSeconds: Double
    /// Step length in metres.
    public var lengthMetres: Double

    /// Creates a step event; seconds (UTC) and metres.
    public init(timeSeconds: Double, lengthMetres: Double) {
        self.timeSeconds = timeSeconds
        self.lengthMetres = lengthMetres
    }
}

/// Steps and distance aggregated over fixed UTC periods (NAV-F22: step count and
/// distance walked, with statistics over time).
///
/// Periods are half-open intervals [k·P, (k+1)·P) of UNIX time for a period length
/// P in seconds (86,400 for UTC days, 3,600 for hours); empty periods between the
/// first and last step are included with zero counts. O(n + periods).
public struct StepStatistics: Sendable, Equatable {
    /// One period's totals.
    public struct Period: Sendable, Equatable {
        /// Start of the period, UNIX seconds (UTC).
        public var startSeconds: Double
        /// Steps in the period.
        public var steps: Int
        /// Distance walked in the period, metres.
        public var distanceMetres: Double
    }

    /// Periods in time order.
    public var periods: [Period]
    /// Total steps.
    public var totalSteps: Int { periods.reduce(0) { $0 + $1.steps } }
    /// Total distance, metres.
    public var totalDistanceMetres: Double { periods.reduce(0) { $0 + $1.distanceMetres } }
    /// Mean steps per period (0 with no periods).
    public var meanStepsPerPeriod: Double { periods.isEmpty ? 0 : Double(totalSteps) / Double(periods.count) }
    /// The period with the most steps (earliest on ties); nil with no steps.
    public var bestPeriod: Period? {
        periods.reduce(nil) { best, p in (best.map { p.steps > $0.steps } ?? true) ? p : best }
    }

    /// Aggregates `events` into periods of `periodSeconds` (> 0; default one UTC day).
    public init(events: [StepEvent], periodSeconds: Double = 86_400) {
        guard periodSeconds > 0, !events.isEmpty else {
            periods = []
            return
        }
        let keys = events.map { ($0.timeSeconds / periodSeconds).rounded(.down) }
        guard let lo = keys.min(), let hi = keys.max(), hi - lo < 1_000_000 else {
            periods = []
            return
        }
        var out = (0...Int(hi - lo)).map {
            Period(startSeconds: (lo + Double($0)) * periodSeconds, steps: 0, distanceMetres: 0)
        }
        for (e, k) in zip(events, keys) {
            let i = Int(k - lo)
            out[i].steps += 1
            out[i].distanceMetres += e.lengthMetres
        }
        periods = out
    }
}
