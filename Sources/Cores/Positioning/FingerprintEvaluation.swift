import Foundation

/// Accuracy of fingerprint estimates against ground truth: building and floor
/// hit rates and the horizontal error distribution (the UJIIndoorLoc / EvAAL metrics).
public struct FingerprintEvaluation: Sendable, Equatable {
    /// Number of fingerprints evaluated.
    public var count: Int
    /// Fraction (0…1) with the right building.
    public var buildingHitRate: Double
    /// Fraction (0…1) with the right building and floor.
    public var floorHitRate: Double
    /// 2-D errors in metres (over all fingerprints, whatever the floor).
    public var errors: HorizontalErrorSummary

    /// Compares `estimates` with `truth` pairwise; nil when empty or of different lengths. O(n log n).
    public init?(estimates: [FingerprintEstimate], truth: [FingerprintSample]) {
        guard estimates.count == truth.count, !truth.isEmpty else { return nil }
        var b = 0
        var f = 0
        var errs: [Double] = []
        errs.reserveCapacity(truth.count)
        for (e, t) in zip(estimates, truth) {
            if e.building == t.building {
                b += 1
                if e.floor == t.floor { f += 1 }
            }
            errs.append(hypot(e.xMetres - t.xMetres, e.yMetres - t.yMetres))
        }
        guard let summary = HorizontalErrorSummary(errorsMetres: errs) else { return nil }
        count = truth.count
        buildingHitRate = Double(b) / Double(truth.count)
        floorHitRate = Double(f) / Double(truth.count)
        errors = summary
    }
}
