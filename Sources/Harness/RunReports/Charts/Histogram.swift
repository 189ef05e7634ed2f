import Foundation

/// Equal-width bins of a sample, for a histogram: counts per bin over [`lower`, `upper`].
public struct Histogram: Sendable, Equatable {
    /// The low edge of the first bin.
    public var lower: Double
    /// The high edge of the last bin.
    public var upper: Double
    /// Values per bin; the last bin includes `upper`.
    public var counts: [Int]

    /// Bins `values` (non-finite ones are left out) into `bins` equal bins from their minimum to their
    /// maximum (a constant sample gets one bin of width 1 around it); each value counts `weights[i]`
    /// times when given (histogram buckets). O(n).
    public init(_ values: [Double], weights: [Int]? = nil, bins: Int) {
        let kept = values.indices.filter { values[$0].isFinite }
        let finite = kept.map { values[$0] }
        let n = max(1, bins)
        guard let lo = finite.min(), let hi = finite.max() else {
            lower = 0
            upper = 1
            counts = Array(repeating: 0, count: n)
            return
        }
        lower = hi > lo ? lo : lo - 0.5
        upper = hi > lo ? hi : hi + 0.5
        var c = Array(repeating: 0, count: n)
        let width = (upper - lower) / Double(n)
        for i in kept { c[min(n - 1, max(0, Int((values[i] - lower) / width)))] += weights?[i] ?? 1 }
        counts = c
    }

    /// The width of one bin.
    public var binWidth: Double { (upper - lower) / Double(counts.count) }

    /// The edges of bin `i`.
    public func edges(of i: Int) -> ClosedRange<Double> {
        (lower + Double(i) * binWidth)...(lower + Double(i + 1) * binWidth)
    }

    /// A bin count suited to `n` values: Sturges' rule, 5 to 40 bins.
    public static func binCount(for n: Int) -> Int {
        guard n > 1 else { return 5 }
        return min(40, max(5, Int((log2(Double(n))).rounded(.up)) + 1))
    }
}
