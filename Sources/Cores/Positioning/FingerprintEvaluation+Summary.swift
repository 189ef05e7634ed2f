import Foundation

extension FingerprintEvaluation {
    /// One line: the count, building and floor hit rates (%) and the mean, median, p75 and p95 2-D
    /// errors (metres), each to two decimals.
    public var summary: String {
        func pct(_ v: Double) -> String { String(format: "%.2f %%", v * 100) }
        func m(_ v: Double) -> String { String(format: "%.2f m", v) }
        return "\(count) fingerprints: building hit rate \(pct(buildingHitRate)), floor hit rate \(pct(floorHitRate)), "
            + "2-D error mean \(m(errors.meanMetres)), median \(m(errors.medianMetres)), p75 \(m(errors.p75Metres)), "
            + "p95 \(m(errors.p95Metres))"
    }
}
