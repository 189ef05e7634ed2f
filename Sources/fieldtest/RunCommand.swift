import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import SystemsUnderTest

/// `fieldtest run`: replay scenarios and write their metric reports.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract:
            "Run scenario files on the virtual clock and write metrics.csv, run.json (and JUnit XML) per scenario.",
        discussion: """
            Reports go to Results/runs/<scenario>/<run_id>/, or DIR/<scenario>/ with --out DIR.
            Exit codes: 0 every requirement passes (and no regression against --baseline),
            1 a requirement failed or a metric regressed, 2 invalid input, usage or a missing baseline.
            """)

    @Argument(help: "Scenario files (YAML).")
    var files: [String]

    @Option(name: .long, help: "Write reports to DIR/<scenario>/ instead of Results/runs/<scenario>/<run_id>/.")
    var out: String?

    @Option(name: .long, help: "Also write JUnit XML (one test case per requirement row) to this file.")
    var junit: String?

    @Option(name: .long, help: "Compare with a baseline: a metrics CSV, or a folder holding <scenario>.csv files.")
    var baseline: String?

    @Option(
        name: .long,
        help:
            "Record this run's metrics as <scenario>.csv baselines in this folder (not with --shard: a baseline holds every case)."
    )
    var recordBaseline: String?

    @Option(name: .long, help: "Override the scenario seed (ignored for sweeps with seeds).")
    var seed: UInt64?

    @Option(name: .long, help: "Sweep cases run in parallel on this many threads (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Run only slice I of N of each sweep (0-based, I/N), e.g. for a batch array job.")
    var shard: String?

    @Option(
        name: .long, parsing: .singleValue,
        help:
            "Baseline tolerance NAME=VALUE (accuracy, latency, latency-floor, count, rate, a requirement ID or metric)."
    )
    var tolerance: [String] = []

    @Option(
        name: .long,
        help:
            "Compare latency rows with the baseline: same-machine (only when the baseline's machine.json names this machine), always or never."
    )
    var compareLatency: LatencyComparison = .sameMachine

    @Option(
        name: .long,
        help:
            "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
    )
    var datasets: String?

    @Flag(name: .long, help: "Print only the failing rows.")
    var quiet = false

    @Option(
        name: .long, parsing: .singleValue,
        help: "CAPABILITY=COMMAND: an external system (or 'builtin') for sun, route, locate or sentiment.")
    var system: [String] = []

    /// The request the options describe.
    var request: RunRequest {
        RunRequest(
            files: files, out: out, junit: junit, baseline: baseline, recordBaseline: recordBaseline, seed: seed,
            jobs: jobs,
            shard: shard.flatMap(Shard.init(parsing:)), tolerances: tolerance, compareLatency: compareLatency,
            toolVersion: FieldtestVersion.current, systems: (try? SystemSettings.parse(system)) ?? [:])
    }

    func validate() throws {
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard must be I/N with 0 ≤ I < N, e.g. 0/4")
        }
        do {
            _ = try SystemSettings.parse(system)
            try request.validate()
        } catch { throw ValidationError(String(describing: error)) }
    }

    func run() throws {
        let manifest = try DatasetsLocation.manifest(option: datasets)
        let interactive = isatty(STDERR_FILENO) == 1
        var signalSources: [any DispatchSourceSignal] = []
        defer { signalSources.forEach { $0.cancel() } }
        let outcome = try RunPipeline(request: request, manifest: manifest, apps: .bundled).run { event in
            switch event {
            case .note(let message): CommandSupport.printError(message)
            case .prepared:
                signalSources = InterruptCleanup.install(
                    message: "fieldtest run: interrupted; temporary folders removed, no reports written "
                        + "for the scenario in progress", cleanup: { ManagedAppDriver.removeAllTemporaryFolders() })
            case let .starting(s, count):
                if interactive {
                    CommandSupport.printError("running \(s.name): \(count) case\(count == 1 ? "" : "s")…")
                }
            case .finished(let o):
                let shown = quiet ? o.rows.filter { $0.status == .fail } : o.rows
                if !shown.isEmpty { print(RunReport.summary(shown), terminator: "") }
                print(
                    "\(o.scenario.name): \(o.passedCount) passed, \(o.failedCount) failed, \(o.record.informational) informational; reports in \(o.folder.path)"
                )
                if let check = o.check { print(check.rendered(quiet: quiet), terminator: "") }
            }
        }
        if outcome.anyFailed || outcome.anyRegression { throw CommandSupport.failed }
    }
}
