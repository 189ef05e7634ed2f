import Foundation

/// Small statistics helpers for the model tests.
enum Stats {
    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
    }

    static func standardDeviation(_ values: [Double]) -> Double {
        let m = mean(values)
        let sum = values.reduce(0) { $0 + ($1 - m) * ($1 - m) }
        return (sum / Double(max(values.count - 1, 1))).squareRoot()
    }

    /// Empirical quantile by linear interpolation between order statistics (type 7).
    static func quantile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
