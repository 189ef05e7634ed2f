import CGSL

/// Normal deviates from any `RandomNumberGenerator`, by inversion through GSL's standard normal
/// quantile function (`gsl_cdf_ugaussian_Pinv`: Wichura's algorithm AS 241, relative error about
/// 1e-16).
///
/// For models that are generic over their generator (device emulation, seeded tests). One 64-bit
/// word gives a uniform u = (k + ½) / 2⁵² from its top 52 bits k, exact in a double and strictly inside
/// (0, 1), so Φ⁻¹ stays finite (|z| ≤ 8.3), and z = Φ⁻¹(u). Each draw therefore consumes exactly
/// one word, so a model's draws stay aligned with its stream. When the generator is a GSL
/// `RandomStream`, `RandomStream.gaussian` (ziggurat) is the faster choice. O(1) per draw.
public enum Gaussian {
    /// A standard normal deviate N(0, 1). Consumes one word of `rng`.
    public static func standardNormal(using rng: inout some RandomNumberGenerator) -> Double {
        // 52 bits, not 53: k + ½ then still fits a double's significand, so u never rounds to 1.
        let u = (Double(rng.next() >> 12) + 0.5) / 4_503_599_627_370_496.0
        return gsl_cdf_ugaussian_Pinv(u)
    }

    /// A normal deviate with the given mean and standard deviation (same unit as the mean).
    /// Consumes one word of `rng`.
    public static func draw(
        mean: Double = 0, standardDeviation: Double,
        using rng: inout some RandomNumberGenerator
    ) -> Double {
        mean + standardDeviation * standardNormal(using: &rng)
    }
}
