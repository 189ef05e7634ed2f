import CGSL

/// Percentile bootstrap intervals (B. Efron and R. Tibshirani, *An Introduction to the Bootstrap*, 1993,
/// ch. 13), drawn from a seeded `RandomStream` so an interval is bit-for-bit repeatable.
///
/// Each resample is a vector of counts — how often each value is drawn — rather than a copy of the
/// values: n uniform draws with replacement (`gsl_rng_uniform_int`) for raw items, a multinomial draw
/// (`gsl_ran_multinomial`) over the buckets for weighted values such as a latency histogram. The
/// statistic is then read off the counts in O(n) (values are sorted once), so 2,000 resamples of
/// n items cost O(2,000 · n). The interval is the type 7 quantiles (`Quantiles`) at α/2 and 1 − α/2 of the
/// resampled statistics.
public enum Bootstrap {
    /// The resamples an interval is drawn from.
    public static let resamples = 2000

    /// What is computed on each resample.
    public enum Statistic: Sendable, Equatable {
        /// The arithmetic mean.
        case mean
        /// The quantile at this probability (0 … 1), Hyndman–Fan type 7 as `Quantiles`.
        case quantile(Double)
    }

    /// The percentile bootstrap interval of `statistic` over `values`, in their unit. The result depends
    /// only on the multiset of values and on `stream` (their order does not matter).
    ///
    /// - Parameters:
    ///   - weights: integer multiplicities of the values (e.g. a histogram's bucket counts, each bucket
    ///     standing for its count of samples); `nil` counts each value once.
    /// - Returns: `nil` when there is no value (or no weight), a value is NaN, the weights do not match
    ///   the values, or they add up to 2³² or more.
    public static func interval(
        _ statistic: Statistic, of values: [Double], weights: [UInt64]? = nil, stream: RandomStream,
        resamples: Int = resamples, level: Double = ConfidenceInterval.level
    ) -> ConfidenceInterval? {
        guard !values.isEmpty, !values.contains(where: \.isNaN), resamples > 0 else { return nil }
        if let weights, weights.count != values.count { return nil }
        let order = values.indices.sorted { values[$0] < values[$1] }
        let sorted = order.map { values[$0] }
        let total = weights.map { w in order.reduce(UInt64(0)) { $0 + w[$1] } } ?? UInt64(values.count)
        guard total > 0, total < UInt64(UInt32.max) else { return nil }
        let draw = Resampler(categories: sorted.count, weights: weights.map { w in order.map { Double(w[$0]) } })
        var statistics: [Double] = []
        statistics.reserveCapacity(resamples)
        var counts = [UInt32](repeating: 0, count: sorted.count)
        for _ in 0..<resamples {
            draw.resample(into: &counts, total: UInt32(total), stream: stream)
            statistics.append(evaluate(statistic, sorted: sorted, order: nil, counts: counts, total: Int(total)))
        }
        return percentileInterval(statistics, level: level)
    }

    /// The paired percentile bootstrap interval of statistic(candidate) − statistic(reference), where
    /// `candidate[i]` and `reference[i]` were measured on the same item: each resample draws items, and
    /// both sides are computed on the same draw.
    ///
    /// - Returns: `nil` when there is no item, the two sides differ in length, or a value is NaN.
    public static func pairedDifference(
        _ statistic: Statistic, reference: [Double], candidate: [Double], stream: RandomStream,
        resamples: Int = resamples, level: Double = ConfidenceInterval.level
    ) -> ConfidenceInterval? {
        let n = reference.count
        guard n > 0, candidate.count == n, resamples > 0, n < Int(UInt32.max),
            !reference.contains(where: \.isNaN), !candidate.contains(where: \.isNaN)
        else { return nil }
        let referenceOrder = reference.indices.sorted { reference[$0] < reference[$1] }
        let candidateOrder = candidate.indices.sorted { candidate[$0] < candidate[$1] }
        let draw = Resampler(categories: n, weights: nil)
        var statistics: [Double] = []
        statistics.reserveCapacity(resamples)
        var counts = [UInt32](repeating: 0, count: n)
        for _ in 0..<resamples {
            draw.resample(into: &counts, total: UInt32(n), stream: stream)
            let c = evaluate(statistic, sorted: candidate, order: candidateOrder, counts: counts, total: n)
            let r = evaluate(statistic, sorted: reference, order: referenceOrder, counts: counts, total: n)
            statistics.append(c - r)
        }
        return percentileInterval(statistics, level: level)
    }

    /// The α/2 and 1 − α/2 type 7 quantiles of the resampled statistics.
    static func percentileInterval(_ statistics: [Double], level: Double) -> ConfidenceInterval? {
        let sorted = statistics.sorted()
        let alpha = 1 - level
        guard let low = Quantiles.quantile(sorted: sorted, probability: alpha / 2),
            let high = Quantiles.quantile(sorted: sorted, probability: 1 - alpha / 2)
        else { return nil }
        return ConfidenceInterval(low: low, high: high)
    }

    /// `statistic` of the resample that draws `values[order[k]]` `counts[order[k]]` times (or
    /// `values[k]` `counts[k]` times without `order`, the values then being sorted), `total` draws in all.
    static func evaluate(_ statistic: Statistic, sorted values: [Double], order: [Int]?, counts: [UInt32], total: Int)
        -> Double
    {
        values.withUnsafeBufferPointer { v in
            counts.withUnsafeBufferPointer { c in
                switch statistic {
                case .mean:
                    var sum = 0.0
                    for k in 0..<v.count where c[k] > 0 { sum += Double(c[k]) * v[k] }
                    return sum / Double(total)
                case .quantile(let p):
                    // Type 7: h = p(n − 1); Q = x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋ + 1] − x[⌊h⌋]) over the sorted resample.
                    let h = min(max(p, 0), 1) * Double(total - 1)
                    let lowRank = Int(h.rounded(.down))
                    let fraction = h - Double(lowRank)
                    var seen = 0
                    var low = Double.nan
                    for k in 0..<v.count {
                        let i = order?[k] ?? k
                        let count = Int(c[i])
                        guard count > 0 else { continue }
                        if low.isNaN, lowRank < seen + count {
                            low = v[i]
                            // The next order statistic is the same value while this one has draws left.
                            if lowRank + 1 < seen + count || fraction == 0 { return low }
                        } else if !low.isNaN {
                            return low + fraction * (v[i] - low)
                        }
                        seen += count
                    }
                    return low
                }
            }
        }
    }
}

/// Draws a resample's counts from one stream.
struct Resampler {
    let categories: Int
    /// The multinomial's probabilities (weights over their total), or `nil` for equally weighted items.
    let probabilities: [Double]?

    init(categories: Int, weights: [Double]?) {
        self.categories = categories
        if let weights {
            let total = weights.reduce(0, +)
            probabilities = weights.map { $0 / total }
        } else {
            probabilities = nil
        }
    }

    func resample(into counts: inout [UInt32], total: UInt32, stream: RandomStream) {
        counts.withUnsafeMutableBufferPointer { c in
            guard let base = c.baseAddress else { return }
            if let probabilities {
                probabilities.withUnsafeBufferPointer { p in
                    gsl_ran_multinomial(stream.generator, categories, total, p.baseAddress, base)
                }
            } else {
                fieldtest_resample_counts(stream.generator, categories, base)
            }
        }
    }
}
