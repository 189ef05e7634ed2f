/// Distance between fingerprint feature vectors (see `RSSIRepresentation`).
///
/// Source: Torres-Sospedra et al., "Comprehensive analysis of distance and
/// similarity measures for Wi-Fi fingerprinting indoor positioning systems",
/// ESWA 42 (2015): Sørensen with the powed representation gave the lowest
/// errors on UJIIndoorLoc among 51 measures × 4 representations.
public enum FingerprintDistance: String, Sendable, Equatable, CaseIterable {
    /// Euclidean: √Σ(qⱼ − tⱼ)² (scikit-learn `metric="euclidean"`).
    case euclidean
    /// Sørensen / Bray–Curtis: Σ|qⱼ − tⱼ| / Σ(qⱼ + tⱼ), in 0…1 for non-negative features
    /// (scikit-learn / SciPy `metric="braycurtis"`).
    case sorensen
}
