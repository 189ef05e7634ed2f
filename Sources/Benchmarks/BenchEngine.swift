import ArgumentParser
import Foundation
import ScenarioEngine

/// `fieldtest-bench engine`: event dispatch rate of the virtual-clock engine
/// with no-op cores, beside SimPy running the same workload.
///
/// Workload: `processes` processes, each waking at a period of 1 + (i mod 7)/1000
/// time units and rescheduling itself, until `events` events have been
/// dispatched. Goal: at least 1 million events per second on one core.
struct BenchEngine: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "engine", abstract: "Events per second of the scenario engine beside SimPy.")

    @OptionGroup var goals: GoalOptions

    @Option(help: "Events to dispatch, 1…1000000000.") var events = 2_000_000
    @Option(help: "Concurrent processes, 1…1000000.") var processes = 1000

    func validate() throws {
        if !(1...1_000_000_000).contains(events) {
            throw ValidationError("--events must be in 1…1000000000 (got \(events))")
        }
        if !(1...1_000_000).contains(processes) {
            throw ValidationError("--processes must be in 1…1000000 (got \(processes))")
        }
    }

    func run() throws {
        let sim = Simulation(start: 0, end: .infinity)
        let budget = events
        final class Counter { var n = 0 }
        let counter = Counter()
        func tick(_ period: Double) -> Simulation.Action {
            { s in
                counter.n += 1
                if counter.n + s.pending < budget { s.schedule(after: period, tick(period)) }
            }
        }
        for i in 0..<processes { sim.schedule(at: 0, tick(1 + Double(i % 7) / 1000)) }
        let (dispatched, seconds) = ComputeTimer.measure { sim.run() }
        let rate = Double(dispatched) / seconds
        let baseline = PythonBaseline.run(
            "engine_simpy", arguments: [String(events), String(processes)], needs: ["simpy"]
        )
        .flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        PythonBaseline.report(
            name: "engine", unit: "events", fieldtest: rate, baseline: baseline, baselineName: "SimPy", goal: nil)
        BenchOutput.measured(
            "engine: goal ≥ 1,000,000 events/s on one core: "
                + Goals.verdict(rate >= 1_000_000, "engine ≥ 1,000,000 events/s"),
            [BenchOutput.fact("goal", "engine", rate, "events/s", goal: ">= 1000000", met: rate >= 1_000_000)])
    }
}
