/// A driver that counts exact-behaviour checks per requirement (reported as
/// `behaviour_mismatches` rows).
protocol BehaviourChecking: AnyObject {
    /// Checks and failures so far, by requirement ID.
    var checks: [String: (failures: Int, checks: Int)] { get set }
}

/// A driver whose events may throw: the first error is kept and reported when the run ends.
protocol EventErrorKeeping: AnyObject {
    /// The first error thrown inside an event.
    var failure: (any Error)? { get set }
}

extension BehaviourChecking {
    /// Counts one check of `requirement`, failed unless `ok`.
    func check(_ requirement: String, _ ok: Bool) {
        var c = checks[requirement] ?? (0, 0)
        c.checks += 1
        if !ok { c.failures += 1 }
        checks[requirement] = c
    }
}

extension EventErrorKeeping {
    /// Runs `body` inside an event, keeping the first error; after an error, events do nothing.
    func guarded(_ body: () throws -> Void) {
        guard failure == nil else { return }
        do { try body() } catch { failure = error }
    }
}
