import FieldtestGSL

/// Summary statistics of horizontal (2-D) position errors, in metres.
///
/// Percentiles follow GSL's `gsl_stats_quantile_from_sorted_data` (linear
/// interpolation between order statistics), via `FieldtestGSL.Quantiles`.
/// Complexity O(n log n) for the sort.
public struct HorizontalErrorSummary: Sendable, Equatable {
    /// Number of errors summarised.
    public var count: Int
    /// Mean error in metres.
    public var meanMetres: Double
    /// Median (50th percentile) in metres.
    public var medianMetres: Double
    /// 75th percentile in metres.
    public var p75Metres: Double
    /// 95th percentile in metres.
    public var p95Metres: Double
    /// Largest error in metres.
    public var maxMetres: Double
    /// The errors summarised, in metres, ascending (for an interval of any of the figures above).
    public var sortedMetres: [Double]

    /// Summarises `errorsMetres`; nil when empty.
    public init?(errorsMetres: [Double]) {
        guard !errorsMetres.isEmpty else { return nil }
        let sorted = errorsMetres.sorted()
        count = sorted.count
        meanMetres = sorted.reduce(0, +) / Double(sorted.count)
        medianMetres = Quantiles.quantile(sorted: sorted, probability: 0.5) ?? 0
        p75Metres = Quantiles.quantile(sorted: sorted, probability: 0.75) ?? 0
        p95Metres = Quantiles.quantile(sorted: sorted, probability: 0.95) ?? 0
        maxMetres = sorted.last ?? 0
        sortedMetres = sorted
    }
}
