import FieldtestData
import Foundation
import MetricReports

/// One case of a scenario: the scenario with sweep values applied and its seed.
public struct ScenarioCase: Sendable {
    /// Position in the expanded sweep (0 for a plain scenario).
    public var index: Int
    /// Scenario name plus the case's parameters, e.g. `micity-day[rate_limit=10]`, and its
    /// seed when the sweep has several (`micity-day[rate_limit=10,seed=2]`); unique within a scenario.
    public var label: String
    /// The scenario to run.
    public var scenario: Scenario
}

/// The rows and counters of one executed case.
public struct CaseResult: Sendable {
    public var scenarioCase: ScenarioCase
    public var rows: [MetricRow]
    /// Events dispatched by the simulation.
    public var events: Int
    /// Wall-clock seconds the case took, from building its driver to its last row.
    public var seconds: Double = 0
    /// What the case traced (empty at `TraceLevel.none`).
    public var trace: CaseTrace
    /// The external systems the case used.
    public var systems: [SystemRunRecord] = []
    /// The scored items of the requirements the scenario lists (`items.csv`), in the order scored.
    public var items: [ItemRecord] = []
    /// Items not kept past `MetricCollector.itemLimit`, per `requirement|metric`.
    public var itemsOmitted: [String: Int] = [:]
    /// What the case said about how it measured (`MetricCollector.notes`).
    public var notes: [String] = []
    /// Each latency series' full histogram (`latency-histogram.csv`).
    public var latencyHistograms: [LatencyHistogramRecord] = []
}

/// Expands sweeps, runs cases (in parallel when asked) and gathers the rows.
public enum ScenarioRunner {
    /// The cases of `scenario`: the parameter matrix (in file order, last
    /// parameter varying fastest) times the seeds; a plain scenario is one case.
    public static func cases(of scenario: Scenario) -> [ScenarioCase] {
        guard let sweep = scenario.sweep else {
            return [ScenarioCase(index: 0, label: scenario.name, scenario: scenario)]
        }
        var combos: [[(name: String, value: LocatedValue, text: String)]] = [[]]
        for p in sweep.parameters {
            combos = combos.flatMap { c in zip(p.values, p.texts).map { c + [(p.name, $0.0, $0.1)] } }
        }
        let seeds = sweep.seeds.isEmpty ? [scenario.seed] : sweep.seeds
        var out: [ScenarioCase] = []
        for combo in combos {
            for seed in seeds {
                var s = scenario
                s.seed = seed
                s.sweep = nil
                for (name, value, _) in combo { apply(name, value, to: &s) }
                // One label function for running and for merging (`SweepRecord`), so they cannot drift.
                let label = SweepRecord.label(
                    scenario: scenario.name, parameters: combo.map { ($0.name, $0.text) }, seed: seed,
                    severalSeeds: seeds.count > 1)
                out.append(ScenarioCase(index: out.count, label: label, scenario: s))
            }
        }
        return out
    }

    /// How many cases `cases(of:)` yields, computed without building them
    /// (`Int.max` if the product overflows; the loader rejects sweeps above
    /// `ScenarioSchema.maximumCases`).
    public static func caseCount(of scenario: Scenario) -> Int {
        scenario.sweep?.caseCount ?? 1
    }

    static func apply(_ name: String, _ value: LocatedValue, to s: inout Scenario) {
        let parts = name.split(separator: ".").map(String.init)
        if parts.count == 2, parts[0] == "systems", let text = value.scalarText {
            // `builtin`, or a command line split at spaces.
            s.systems[parts[1]] =
                text == "builtin"
                ? nil
                : SystemSetting(
                    // The loader refused values that do not split; an empty command fails at start.
                    command: (try? SystemSetting.words(of: text)) ?? [],
                    timeoutSeconds: s.systems[parts[1]]?.timeoutSeconds, maxLineBytes: s.systems[parts[1]]?.maxLineBytes
                )
        } else if parts.count == 3, parts[0] == "devices", let i = s.devices.firstIndex(where: { $0.name == parts[1] }),
            let text = value.scalarText
        {
            switch parts[2] {
            case "gps": s.devices[i].gps = text
            case "network": s.devices[i].network = text
            case "placement": s.devices[i].placement = text
            default: break
            }
        } else {
            s.parameters[name] = value
        }
    }

    /// The cases of shard `index` of `count` (0-based): every case whose
    /// position modulo `count` equals `index`. Deterministic, so a batch
    /// system's array index picks a fixed slice.
    public static func shard(_ cases: [ScenarioCase], index: Int, count: Int) -> [ScenarioCase] {
        cases.filter { $0.index % count == index }
    }

    /// Runs one case to completion: builds its app's driver from `apps`, lets it
    /// start, schedules the scenario's timeline, runs the virtual clock, lets it
    /// finish, and returns the rows of the requirements the scenario lists, and its trace at level `trace`
    /// (which ends with each non-latency row as a check at the end of the run).
    public static func run(
        _ c: ScenarioCase, runID: String, datasets: DatasetStore, apps: AppRegistry, trace: TraceLevel = .summary
    ) throws -> CaseResult {
        let started = ContinuousClock.now
        guard let app = apps.app(c.scenario.app) else {
            throw UnknownAppError(app: c.scenario.app, file: c.scenario.file)
        }
        let context = RunContext(
            scenario: c.scenario, datasets: datasets, requirements: app.requirements, trace: trace)
        let driver = try apps.makeDriver(for: c.scenario)
        try driver.start(context)
        ScenarioTimeline.schedule(context, driver: driver, actionsBeforeFeeds: app.actionsBeforeFeeds)
        context.simulation.run()
        try driver.finish(context)
        let template = MetricRow.Template(scenario: c.label, runID: runID, seed: c.scenario.seed, requirement: "")
        let rows =
            context.metrics.rows(template: template, requirements: c.scenario.requirements)
            + context.systems.flatMap { $0.rows(template: template) }
        // Latency rows summarise wall-clock samples (latency.csv); the others are deterministic checks.
        for r in rows where r.kind != .latency {
            context.trace.summaryEvent(
                TraceEvent(
                    time: context.simulation.now, device: "", requirement: r.requirement, metric: r.metric,
                    value: r.value, unit: r.unit, expected: r.threshold, comparator: r.comparator, status: r.status))
        }
        let elapsed = (ContinuousClock.now - started).components
        return CaseResult(
            scenarioCase: c, rows: rows, events: context.simulation.dispatched,
            seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18, trace: context.trace.trace,
            systems: context.systems.map {
                var s = $0
                s.caseLabel = c.label
                return s
            }, items: context.metrics.items(for: c.scenario.requirements),
            itemsOmitted: context.metrics.itemsOmitted, notes: context.metrics.notes,
            latencyHistograms: context.metrics.latencyHistograms(for: c.scenario.requirements))
    }

    /// Runs `cases` on up to `jobs` threads; results come back in case order
    /// whatever the completion order. The first error is rethrown. `progress`, when given, is
    /// told of each case as it completes (one call at a time, in completion order).
    public static func run(
        _ cases: [ScenarioCase], jobs: Int, runID: String, datasets: DatasetStore,
        apps: AppRegistry, trace: TraceLevel = .summary, progress: (@Sendable (CaseResult) -> Void)? = nil
    ) throws -> [CaseResult] {
        let box = ResultBox(count: cases.count)
        try runEach(cases, jobs: jobs, runID: runID, datasets: datasets, apps: apps, trace: trace) { i, result in
            box.set(i, .success(result))
            progress?(result)
        }
        return try box.results.map { try $0!.get() }
    }

    /// Runs `cases` on up to `jobs` threads and hands each result to `each` as its case completes
    /// (one call at a time, in completion order), keeping none: memory stays flat however many
    /// cases there are. The first error (of a case or of `each`) is rethrown once the running
    /// cases have ended; no case starts after it.
    public static func run(
        _ cases: [ScenarioCase], jobs: Int, runID: String, datasets: DatasetStore,
        apps: AppRegistry, trace: TraceLevel = .summary, each: @Sendable (CaseResult) throws -> Void
    ) throws {
        try runEach(cases, jobs: jobs, runID: runID, datasets: datasets, apps: apps, trace: trace) { try each($1) }
    }

    /// `run(_:jobs:…each:)`, handing `each` the case's position in `cases` too.
    static func runEach(
        _ cases: [ScenarioCase], jobs: Int, runID: String, datasets: DatasetStore,
        apps: AppRegistry, trace: TraceLevel, each: @Sendable (Int, CaseResult) throws -> Void
    ) throws {
        let workers = max(1, min(jobs, cases.count))
        if workers == 1 {
            for (i, c) in cases.enumerated() {
                try each(i, try run(c, runID: runID, datasets: datasets, apps: apps, trace: trace))
            }
            return
        }
        let next = Counter()
        let reporting = NSLock()
        let failure = FirstError()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while !failure.isSet, let i = next.take(below: cases.count) {
                do {
                    let result = try run(cases[i], runID: runID, datasets: datasets, apps: apps, trace: trace)
                    try reporting.withLock { try each(i, result) }
                } catch {
                    failure.set(error)
                }
            }
        }
        if let error = failure.error { throw error }
    }

    /// The first error of the worker threads.
    final class FirstError: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var error: Error?
        var isSet: Bool { lock.withLock { error != nil } }
        func set(_ e: Error) { lock.withLock { if error == nil { error = e } } }
    }

    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var results: [Result<CaseResult, Error>?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ r: Result<CaseResult, Error>) {
            lock.lock()
            results[i] = r
            lock.unlock()
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func take(below n: Int) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard value < n else { return nil }
            value += 1
            return value - 1
        }
    }
}
