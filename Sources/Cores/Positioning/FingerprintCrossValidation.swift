/// Leave-one-group-out validation of `FingerprintLocator`.
///
/// The official UJIIndoorLoc validation split was recorded months later with
/// mostly different phones, so holding out whole phones (or users) is the honest
/// proxy: each group is located by a model trained on all other groups, and the
/// per-group estimates are pooled into one `FingerprintEvaluation`.
/// Complexity: one training per group plus one query per sample.
public enum FingerprintCrossValidation {
    /// How samples are grouped for hold-out.
    public enum Grouping: String, Sendable, CaseIterable {
        /// By `PHONEID`.
        case phone
        /// By `USERID`.
        case user
    }

    /// Pools estimates of every sample located with its own group held out, each group's samples
    /// located on up to `jobs` threads (the same figures for any `jobs`).
    /// Throws `.emptyTrainingSet` when `samples` is empty and `.tooFewGroups` when they come
    /// from a single group.
    public static func leaveOneGroupOut(
        _ samples: [FingerprintSample], by grouping: Grouping,
        configuration: FingerprintLocator.Configuration = .tuned, jobs: Int = 1
    )
        throws(PositioningError) -> FingerprintEvaluation
    {
        let key: (FingerprintSample) -> Int = grouping == .phone ? { $0.phone } : { $0.user }
        let groups = Set(samples.map(key)).sorted()
        guard !samples.isEmpty else { throw .emptyTrainingSet }
        guard groups.count >= 2 else { throw .tooFewGroups(grouping: grouping.rawValue, found: groups.count) }
        var estimates: [FingerprintEstimate] = []
        var truth: [FingerprintSample] = []
        for g in groups {
            let held = samples.filter { key($0) == g }
            let model = try FingerprintLocator(training: samples.filter { key($0) != g }, configuration: configuration)
            estimates += try model.locateAll(held.map(\.rssi), jobs: jobs)
            truth += held
        }
        guard let evaluation = FingerprintEvaluation(estimates: estimates, truth: truth) else {
            throw .emptyTrainingSet
        }
        return evaluation
    }
}
