import CGSL

/// Order statistics and moments of samples (GSL `gsl_stats_*`).
///
/// Quantiles use linear interpolation between order statistics, Hyndman–Fan type 7 (the default of R
/// and NumPy): for sorted data x₀ … xₙ₋₁ and probability p, with h = p·(n − 1),
/// Q(p) = x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋+1 − x⌊h⌋). Source: `gsl_stats_quantile_from_sorted_data`;
/// R. J. Hyndman and Y. Fan, "Sample quantiles in statistical packages", Am. Stat. 50 (1996).
public enum Quantiles {
    /// The `probability` quantile of `sorted`, which must be in ascending order (not checked: checking
    /// would turn this O(1) lookup into O(n); unsorted input gives a meaningless value).
    /// `probability` is clamped to [0, 1]. Returns `nil` for empty input or a NaN probability.
    /// Complexity: O(1).
    public static func quantile(sorted: [Double], probability: Double) -> Double? {
        guard !sorted.isEmpty, !probability.isNaN else { return nil }
        let p = min(max(probability, 0), 1)
        return sorted.withUnsafeBufferPointer { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            let q = gsl_stats_quantile_from_sorted_data(base, 1, buffer.count, p)
            // GSL interpolates as (1 − δ)·a + δ·b, which can land an ulp outside [a, b] (even for a = b);
            // kept inside, a lower quantile never exceeds a higher one (an interval's low its high).
            let lower = min(Int(p * Double(buffer.count - 1)), buffer.count - 1)
            return min(max(q, buffer[lower]), buffer[min(lower + 1, buffer.count - 1)])
        }
    }

    /// Quantiles of unsorted `values` at each of `probabilities` (each clamped to [0, 1]); sorts a copy.
    /// Returns `nil` when `values` is empty or contains NaN, or when a probability is NaN.
    /// Complexity: O(n log n + k) for n values and k probabilities.
    public static func quantiles(of values: [Double], probabilities: [Double]) -> [Double]? {
        guard !values.isEmpty, !values.contains(where: \.isNaN) else { return nil }
        let sorted = values.sorted()
        var result: [Double] = []
        result.reserveCapacity(probabilities.count)
        for probability in probabilities {
            guard let q = quantile(sorted: sorted, probability: probability) else { return nil }
            result.append(q)
        }
        return result
    }

    /// Arithmetic mean (`gsl_stats_mean`, a numerically stable running mean); `nil` for empty input.
    /// Complexity: O(n).
    public static func mean(_ v: [Double]) -> Double? {
        v.withUnsafeBufferPointer { buffer -> Double? in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            return gsl_stats_mean(base, 1, buffer.count)
        }
    }

    /// Sample standard deviation with the n − 1 (Bessel) denominator (`gsl_stats_sd`);
    /// `nil` for fewer than two values. Complexity: O(n).
    public static func standardDeviation(_ v: [Double]) -> Double? {
        v.withUnsafeBufferPointer { buffer -> Double? in
            guard let base = buffer.baseAddress, buffer.count >= 2 else { return nil }
            return gsl_stats_sd(base, 1, buffer.count)
        }
    }
}
