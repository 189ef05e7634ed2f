import FieldtestGSL
import Foundation

/// Elementary random variates drawn from any `RandomNumberGenerator`.
///
/// Kept generic (rather than tied to one generator class) so every model in this module can be driven by
/// `FieldtestGSL.RandomStream` in the emulator and by any seeded generator in tests. Each function consumes
/// a fixed number of 64-bit words per call, so a stream's draws stay aligned and reproducible.
enum Sampling {
    /// A uniform variate in the open interval (0, 1). Consumes one 64-bit word.
    static func openUnit<R: RandomNumberGenerator>(_ rng: inout R) -> Double {
        // 53 random mantissa bits, shifted by half an ulp so 0 and 1 are never returned.
        let bits = rng.next() >> 11
        return (Double(bits) + 0.5) / 9_007_199_254_740_992.0
    }

    /// A standard normal variate by inversion through GSL's normal quantile (`FieldtestGSL.Gaussian`).
    /// Consumes one word.
    static func standardNormal<R: RandomNumberGenerator>(_ rng: inout R) -> Double {
        Gaussian.standardNormal(using: &rng)
    }

    /// A normal variate with the given mean and standard deviation (same unit as the mean).
    static func gaussian<R: RandomNumberGenerator>(mean: Double, standardDeviation: Double, _ rng: inout R) -> Double {
        mean + standardDeviation * standardNormal(&rng)
    }

    /// A log-normal variate: `exp(mu + sigma · N(0, 1))`.
    static func logNormal<R: RandomNumberGenerator>(mu: Double, sigma: Double, _ rng: inout R) -> Double {
        exp(mu + sigma * standardNormal(&rng))
    }

    /// `true` with the given probability (clamped to [0, 1]). Consumes one word.
    static func bernoulli<R: RandomNumberGenerator>(probability: Double, _ rng: inout R) -> Bool {
        openUnit(&rng) < probability
    }

    /// An exponential variate with the given mean (inverse-CDF method). Consumes one word.
    static func exponential<R: RandomNumberGenerator>(mean: Double, _ rng: inout R) -> Double {
        -mean * log(openUnit(&rng))
    }

    /// A uniform variate in `[lower, upper)`. Consumes one word.
    static func uniform<R: RandomNumberGenerator>(_ lower: Double, _ upper: Double, _ rng: inout R) -> Double {
        lower + (upper - lower) * openUnit(&rng)
    }
}
