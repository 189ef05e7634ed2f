import ScenarioEngine

/// A driver that counts exact-behaviour checks per requirement (reported as
/// `behaviour_mismatches` rows).
protocol BehaviourChecking: AnyObject {
    /// Checks and failures so far, by requirement ID.
    var checks: [String: (failures: Int, checks: Int)] { get set }
    /// Where each check is traced (`events.csv`): the run's recorder and its virtual clock; set in `start`.
    var checkTracing: CheckTracing? { get set }
}

/// The run's trace recorder and virtual clock, for tracing behaviour checks as they happen.
struct CheckTracing {
    let recorder: TraceRecorder
    let simulation: Simulation

    init(_ run: RunContext) {
        recorder = run.trace
        simulation = run.simulation
    }
}

/// A driver whose events may throw: the first error is kept and reported when the run ends.
protocol EventErrorKeeping: AnyObject {
    /// The first error thrown inside an event.
    var failure: (any Error)? { get set }
}

extension BehaviourChecking {
    /// Counts one check of `requirement`, failed unless `ok`, and traces it (value 1 when it held,
    /// 0 when not, against an expected 1) at the virtual time it was made.
    func check(_ requirement: String, _ ok: Bool) {
        var c = checks[requirement] ?? (0, 0)
        c.checks += 1
        if !ok { c.failures += 1 }
        checks[requirement] = c
        if let tracing = checkTracing, tracing.recorder.isRecording {
            tracing.recorder.event(
                TraceEvent(
                    time: tracing.simulation.now, device: "", requirement: requirement, metric: "check",
                    value: ok ? 1 : 0, unit: "", expected: 1, comparator: .equal, status: ok ? .pass : .fail))
        }
    }
}

extension EventErrorKeeping {
    /// Runs `body` inside an event, keeping the first error; after an error, events do nothing.
    func guarded(_ body: () throws -> Void) {
        guard failure == nil else { return }
        do { try body() } catch { failure = error }
    }
}
