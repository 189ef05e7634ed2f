import FieldtestGSL

/// Small statistics helpers for the model tests, over GSL's `Quantiles`; NaN where undefined.
enum Stats {
    static func mean(_ values: [Double]) -> Double {
        Quantiles.mean(values) ?? .nan
    }

    static func standardDeviation(_ values: [Double]) -> Double {
        Quantiles.standardDeviation(values) ?? .nan
    }

    /// Empirical quantile by linear interpolation between order statistics (type 7).
    static func quantile(_ values: [Double], _ p: Double) -> Double {
        Quantiles.quantile(sorted: values.sorted(), probability: p) ?? .nan
    }
}
