import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import ScenarioEngine

/// `fieldtest-bench actions`: what one more action costs a scenario, per app and action kind, and
/// whether that cost stays flat as the number of actions grows.
///
/// Method: each scenario file given (default: the checkout's `Scenarios/*.yaml`) is loaded, and for
/// every action kind it uses, the actions of that kind alone are scaled to about n, 4n and 16n
/// occurrences in the same virtual time (a repeating action gets a proportionally shorter `every`;
/// a one-off action repeats evenly over the rest of the scenario). Each scaled scenario's first case
/// is run in process and its CPU time measured. The marginal cost of an occurrence is the time added divided by the
/// occurrences added, from n to 4n and from 4n to 16n. A kind whose occurrences are slow (a slow KDF)
/// is measured at a smaller n, chosen from a first probe so that the kind's runs fit `--budget`.
/// Each point is the shorter of two runs.
///
/// Goals, per kind: the marginal cost from 4n to 16n is at most twice that from n to 4n (flat), and
/// the largest scenario the loader accepts for the kind — the schema's bound on occurrences, or the
/// app's own lower bound when it has one — is projected to finish within 10 minutes.
struct BenchActions: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "actions", abstract: "Cost per action of each app's scenarios as the number of actions grows.")

    @OptionGroup var goals: GoalOptions

    @Argument(help: "Scenario files (default: the checkout's Scenarios/*.yaml).") var scenarios: [String] = []
    @Option(
        help:
            "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
    ) var datasets: String?
    @Option(help: "Occurrences at the smallest scale, 4…100000 (fewer for slow kinds, see --budget).")
    var occurrences = 250
    @Option(help: "Seconds one action kind's three timed runs may take, 1…3600.") var budget = 20.0

    /// The projected time within which the largest accepted scenario must finish, seconds.
    static let largestScenarioGoal = 600.0

    func validate() throws {
        if !(4...100_000).contains(occurrences) {
            throw ValidationError("--occurrences must be in 4…100000 (got \(occurrences))")
        }
        if !(1...3600).contains(budget) { throw ValidationError("--budget must be in 1…3600 (got \(budget))") }
    }

    func run() throws {
        let apps = AppRegistry.bundled
        let manifest = try BenchSupport.guarded { try DatasetManifest(root: BenchSupport.datasetsRoot(datasets)) }
        let store = DatasetStore(manifest: manifest)
        let loader = ScenarioLoader(manifest: manifest, registry: apps)
        var seenKinds = Set<String>()
        for file in try scenarioFiles() {
            let scenario = try BenchSupport.guarded { try loader.load(file, displayName: file.lastPathComponent) }
            guard let first = ScenarioRunner.cases(of: scenario).first else { continue }
            let kinds = Set(scenario.actors.flatMap { $0.actions.map(\.kind) }).sorted()
            for kind in kinds where seenKinds.insert("\(scenario.app)/\(kind)").inserted {
                try measure(kind: kind, in: first, file: file.lastPathComponent, store: store, apps: apps)
            }
        }
    }

    /// The scenario files to scale: the arguments, else the checkout's bundled scenarios.
    func scenarioFiles() throws -> [URL] {
        if !scenarios.isEmpty { return scenarios.map { URL(fileURLWithPath: $0) } }
        let folder = DatasetsLocation.current(option: datasets).deletingLastPathComponent()
            .appendingPathComponent("Scenarios")
        let names = try BenchSupport.guarded { try FileManager.default.contentsOfDirectory(atPath: folder.path) }
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Measures the marginal cost of `kind` in `base` and prints one line with its verdicts.
    func measure(kind: String, in base: ScenarioCase, file: String, store: DatasetStore, apps: AppRegistry) throws {
        let label = "\(base.scenario.app)/\(kind) (\(file))"
        // A probe sets the scale from the marginal cost (the rest of the scenario may cost seconds), so
        // that a kind costing a second an occurrence still fits the budget.
        let floor = try timed(ActionScaling.scaled(base, kind: kind, to: 1), store: store, apps: apps)
        let probe = try timed(ActionScaling.scaled(base, kind: kind, to: 32), store: store, apps: apps)
        let added = max(1, probe.occurrences - floor.occurrences)
        let perOccurrence = max(probe.seconds - floor.seconds, 0) / Double(added)
        let affordable = Int(budget / (2 * 21 * max(perOccurrence, 1e-9)))
        let n = max(4, min(occurrences, affordable))
        var points: [(occurrences: Int, seconds: Double)] = []
        for scale in [1, 4, 16] {
            points.append(try timed(ActionScaling.scaled(base, kind: kind, to: n * scale), store: store, apps: apps))
        }
        func marginal(_ a: Int, _ b: Int) -> Double {
            let added = points[b].occurrences - points[a].occurrences
            return added > 0 ? max(0, points[b].seconds - points[a].seconds) / Double(added) : .nan
        }
        let low = marginal(0, 1)
        let high = marginal(1, 2)
        // Below 0.2 ms an occurrence is within the noise (a million of them take under four minutes).
        let flat = high <= max(2 * low, 2e-4)
        let limit = ActionScaling.largestAccepted(base, kind: kind, apps: apps)
        let projected = points[0].seconds + Double(limit) * max(low, high)
        let fits = projected <= Self.largestScenarioGoal
        BenchOutput.measured(
            String(
                format: "actions: %@: %d→%d→%d occurrences, %.1f µs → %.1f µs per added occurrence; "
                    + "largest accepted (%d) ≈ %.0f s: %@; %@",
                label, points[0].occurrences, points[1].occurrences, points[2].occurrences, low * 1e6, high * 1e6,
                limit, projected, Goals.verdict(flat, "\(label) cost per action flat"),
                Goals.verdict(fits, "\(label) largest accepted scenario ≤ 10 min")),
            [
                BenchOutput.fact("marginal", label, high * 1e6, "µs/occurrence", goal: nil, met: nil),
                BenchOutput.fact(
                    "growth", label, low > 0 ? high / low : 1, "ratio", goal: "<= 2", met: flat),
                BenchOutput.fact(
                    "largest", label, projected, "s", goal: "<= \(Int(Self.largestScenarioGoal))", met: fits),
            ])
    }

    /// Runs `c` twice; the smaller CPU time (see `threadCPUSeconds`) and the occurrences of the scaled kind.
    func timed(_ scaled: (ScenarioCase, occurrences: Int), store: DatasetStore, apps: AppRegistry) throws
        -> (occurrences: Int, seconds: Double)
    {
        var best = Double.infinity
        for _ in 0..<2 {
            let start = Self.threadCPUSeconds()
            _ = try BenchSupport.guarded {
                try ScenarioRunner.run(scaled.0, runID: "bench", datasets: store, apps: apps, trace: .none)
            }
            best = min(best, Self.threadCPUSeconds() - start)
        }
        return (scaled.occurrences, best)
    }

    /// CPU seconds this thread has used: a case runs on the calling thread, and CPU time leaves out
    /// the other builds sharing the machine, which wall-clock time would add as noise.
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}

/// Scales the actions of one kind in a scenario case, keeping everything else.
enum ActionScaling {
    /// The occurrences of work `scenario` schedules, as the loader counts them toward its bound: each
    /// action occurrence and feed delivery weighed by its schema (`ObjectSchema.workWeight`).
    static func work(of scenario: Scenario, app: AppDefinition) -> Double {
        let actions = scenario.actors.flatMap(\.actions).map { a in
            a.occurrenceCount(duration: scenario.duration)
                * (app.actions.first { $0.0 == a.kind }?.1.workWeight(of: a.parameters) ?? 1)
        }
        let feeds = scenario.feeds.map { f in
            f.deliveryCount(duration: scenario.duration)
                * (app.feeds.first { $0.0 == f.kind }?.1.workWeight(of: f.parameters) ?? 1)
        }
        return (actions + feeds).reduce(0, +)
    }

    /// The most occurrences of `kind` the loader accepts in `c`: as many as keep the scenario's work
    /// within the schema's bound, or fewer where the app's own checks refuse more (found by bisection
    /// over the checks the loader runs).
    static func largestAccepted(_ c: ScenarioCase, kind: String, apps: AppRegistry) -> Int {
        guard let app = apps.app(c.scenario.app) else { return ScenarioSchema.maximumOccurrences }
        func accepted(_ n: Int) -> Bool {
            let scenario = scaled(c, kind: kind, to: n).0.scenario
            let input = ScenarioCheckInput(scenario)
            return work(of: scenario, app: app) <= Double(ScenarioSchema.maximumOccurrences)
                && app.checks.allSatisfy { $0(input).allSatisfy { $0.severity != .error } }
        }
        var (low, high) = (0, ScenarioSchema.maximumOccurrences)
        if !accepted(high) {
            while high - low > 1 {
                let mid = (low + high) / 2
                if accepted(mid) { low = mid } else { high = mid }
            }
            high = low
        }
        return scaled(c, kind: kind, to: high).occurrences
    }

    /// `c` with the actions of `kind` repeated about `target` times in all, spread over the same virtual
    /// time, and the number of occurrences the engine will schedule for them.
    static func scaled(_ c: ScenarioCase, kind: String, to target: Int) -> (ScenarioCase, occurrences: Int) {
        var c = c
        let duration = c.scenario.duration
        let ofKind = c.scenario.actors.flatMap(\.actions).filter { $0.kind == kind }
        let share = max(1, target / max(1, ofKind.count))
        var total = 0
        for a in c.scenario.actors.indices {
            for i in c.scenario.actors[a].actions.indices where c.scenario.actors[a].actions[i].kind == kind {
                var action = c.scenario.actors[a].actions[i]
                let last = min(action.until ?? duration, duration)
                let span = max(0, last - action.at)
                action.every = span > 0 ? span / Double(share) : 1e-6
                action.count = share
                c.scenario.actors[a].actions[i] = action
                total += Int(action.occurrenceCount(duration: duration))
            }
        }
        return (c, total)
    }
}
