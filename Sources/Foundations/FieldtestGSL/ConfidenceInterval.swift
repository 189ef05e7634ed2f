import CGSL

/// A two-sided confidence interval `[low, high]`, in the unit of the estimate it brackets.
public struct ConfidenceInterval: Sendable, Equatable, Codable {
    /// The lower bound.
    public var low: Double
    /// The upper bound.
    public var high: Double

    /// The confidence level Fieldtest reports every interval at.
    public static let level = 0.95

    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    /// Whether `x` lies in the closed interval.
    public func contains(_ x: Double) -> Bool { low <= x && x <= high }
}

/// Closed-form confidence intervals (GSL's normal and Student-t quantiles).
///
/// - Wilson score interval of a proportion p̂ = k/n at normal quantile z = Φ⁻¹(1 − α/2):
///   (p̂ + z²/2n ± z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n). E. B. Wilson, "Probable inference, the law of
///   succession, and statistical inference", JASA 22 (1927). Unlike the Wald interval it stays inside
///   [0, 1] and keeps its coverage near 0 and 1, where accuracy figures live.
/// - Student-t interval of a mean: x̄ ± t(1 − α/2, n − 1)·s/√n.
/// - MOVER difference of two independent estimates from their own intervals (Newcombe's method 10 for
///   proportions; G. Y. Zou and A. Donner, "Construction of confidence limits about effect measures",
///   Stat. Methods Med. Res. 17 (2008)).
public enum Intervals {
    /// The Wilson score interval of `successes` out of `trials`; `nil` when `trials` ≤ 0 or
    /// `successes` is outside 0 … `trials`.
    public static func wilson(successes: Int, trials: Int, level: Double = ConfidenceInterval.level)
        -> ConfidenceInterval?
    {
        guard trials > 0, (0...trials).contains(successes) else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z = gsl_cdf_ugaussian_Pinv(1 - (1 - level) / 2)
        let z2 = z * z
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        // The exact bounds at k = 0 and k = n are 0 and 1; rounding must not move them.
        return ConfidenceInterval(
            low: successes == 0 ? 0 : max(0, centre - half), high: successes == trials ? 1 : min(1, centre + half))
    }

    /// The Wilson interval of a proportion `value` (0 … 1) measured over `trials` items: the successes
    /// are `value · trials`, rounded. `nil` when `trials` ≤ 0 or `value` is not in 0 … 1.
    public static func wilson(proportion value: Double, trials: Int, level: Double = ConfidenceInterval.level)
        -> ConfidenceInterval?
    {
        guard trials > 0, value >= 0, value <= 1 else { return nil }
        return wilson(successes: Int((value * Double(trials)).rounded()), trials: trials, level: level)
    }

    /// The Student-t interval of the mean of `values`; `nil` for fewer than two values or a
    /// non-finite value. A constant sample gives the zero-width interval at its mean.
    public static func tMean(_ values: [Double], level: Double = ConfidenceInterval.level) -> ConfidenceInterval? {
        guard values.count >= 2, values.allSatisfy(\.isFinite),
            let mean = Quantiles.mean(values), let sd = Quantiles.standardDeviation(values)
        else { return nil }
        let t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, Double(values.count - 1))
        let half = t * sd / Double(values.count).squareRoot()
        return ConfidenceInterval(low: mean - half, high: mean + half)
    }

    /// The MOVER interval of `candidate − reference`, two independent estimates each with its own
    /// interval (at the same level): for d = c − r,
    /// low = d − √((c − c_low)² + (r_high − r)²), high = d + √((c_high − c)² + (r − r_low)²).
    public static func difference(
        reference: Double, _ referenceCI: ConfidenceInterval, candidate: Double, _ candidateCI: ConfidenceInterval
    ) -> ConfidenceInterval {
        let d = candidate - reference
        let below =
            ((candidate - candidateCI.low) * (candidate - candidateCI.low)
            + (referenceCI.high - reference) * (referenceCI.high - reference)).squareRoot()
        let above =
            ((candidateCI.high - candidate) * (candidateCI.high - candidate)
            + (reference - referenceCI.low) * (reference - referenceCI.low)).squareRoot()
        return ConfidenceInterval(low: d - below, high: d + above)
    }
}
