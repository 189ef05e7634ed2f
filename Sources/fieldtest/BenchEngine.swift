import ArgumentParser
import Foundation
import ScenarioEngine

/// `fieldtest bench engine`: event dispatch rate of the virtual-clock engine
/// with no-op cores, beside SimPy running the same workload.
///
/// Workload: `processes` processes, each waking at a period of 1 + (i mod 7)/1000
/// time units and rescheduling itself, until `events` events have been
/// dispatched. Goal: at least 1 million events per second on one core.
struct BenchEngine: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "engine", abstract: "Events per second of the scenario engine beside SimPy.")

    @Option(help: "Events to dispatch, 1…1000000000.") var events = 2_000_000
    @Option(help: "Concurrent processes, 1…1000000.") var processes = 1000

    func validate() throws {
        if !(1...1_000_000_000).contains(events) { throw ValidationError("--events must be in 1…1000000000 (got \(events))") }
        if !(1...1_000_000).contains(processes) { throw ValidationError("--processes must be in 1…1000000 (got \(processes))") }
    }

    static let simpy = """
    import sys, time, simpy
    events, processes = int(sys.argv[1]), int(sys.argv[2])
    count = 0
    def proc(env, i):
        global count
        period = 1 + (i % 7) / 1000
        while count < events:
            yield env.timeout(period)
            count += 1
    env = simpy.Environment()
    for i in range(processes):
        env.process(proc(env, i))
    t0 = time.perf_counter()
    while count < events:
        env.step()
    print(count / (time.perf_counter() - t0))
    """

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
        let baseline = PythonBaseline.run(Self.simpy, arguments: [String(events), String(processes)], needs: ["simpy"])
            .flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        PythonBaseline.report(name: "engine", unit: "events", fieldtest: rate, baseline: baseline, baselineName: "SimPy", goal: nil)
        print(rate >= 1_000_000 ? "engine: goal ≥ 1,000,000 events/s on one core: met" : "engine: goal ≥ 1,000,000 events/s on one core: NOT met")
    }
}
