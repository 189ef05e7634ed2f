import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import RunReports
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
        help: "A datasets folder of your own, on top of the bundled one (repeatable; also $FIELDTEST_DATASETS=A:B)."
    )
    var datasets: [String] = []

    @Flag(name: .long, help: "Print only failing and regressed rows and the closing line.")
    var quiet = false

    @Flag(name: .long, help: "Print every row, and improvements against the baseline.")
    var verbose = false

    @Option(
        name: .long, help: "Trace files beside metrics.csv: none, summary (bounded; default) or full (docs/reports.md)."
    )
    var trace: TraceLevel = .summary

    @Option(name: .long, help: "Also write one HTML report of every scenario run to this file.")
    var report: String?

    @Option(
        name: .long, parsing: .singleValue,
        help: "CAPABILITY=COMMAND: an external system (or 'builtin') for sun, route, locate or sentiment.")
    var system: [String] = []

    /// The request the options describe.
    var request: RunRequest {
        var request = RunRequest(
            files: files, out: out, junit: junit, baseline: baseline, recordBaseline: recordBaseline, seed: seed,
            jobs: jobs,
            shard: shard.flatMap(Shard.init(parsing:)), tolerances: tolerance, compareLatency: compareLatency,
            toolVersion: FieldtestVersion.current, trace: trace,
            systems: (try? SystemSettings.parse(system)) ?? [:])
        (request.commandLine, request.toolCommit) = (CommandLine.arguments, GitRevision.current())
        request.report = report
        return request
    }

    func validate() throws {
        if quiet && verbose { throw ValidationError("give one of --quiet and --verbose") }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard must be I/N with 0 ≤ I < N, e.g. 0/4")
        }
        do {
            _ = try SystemSettings.parse(system)
            try request.validate()
        } catch { throw ValidationError(String(describing: error)) }
    }

    func run() throws {
        let manifest = try DatasetsLocation.manifest(options: datasets)
        let console = TerminalConsole(textToStandardError: junit == OutputText.standardStreamName)
        let verbosity: Verbosity = quiet ? .quiet : verbose ? .verbose : .normal
        let progress: (@Sendable (CaseProgress) -> Void)? =
            console.progressLines ? { @Sendable in console.progress(RunConsole.progressLine($0)) } : nil
        var signalSources: [any DispatchSourceSignal] = []
        var folders: [String] = []
        defer { signalSources.forEach { $0.cancel() } }
        let outcome = try RunPipeline(request: request, manifest: manifest, apps: .bundled).run(
            observe: { event in
                switch event {
                case .note(let message): CommandSupport.printError(message)
                case .prepared:
                    signalSources = InterruptCleanup.install(
                        message: "fieldtest run: interrupted; temporary folders removed, no reports written "
                            + "for the scenario in progress", cleanup: { ManagedAppDriver.removeAllTemporaryFolders() })
                case let .starting(s, count):
                    console.progress("running \(s.name): \(count) case\(count == 1 ? "" : "s")…", force: true)
                case .finished(let o):
                    folders.append(o.folder.path)
                    console.clearProgress()
                    console.write(RunConsole.scenarioText(o, verbosity: verbosity, style: console.style))
                }
            }, progress: progress)
        console.write(outcome.totals.line + "\n")
        if let report {
            try AtomicFile.write(
                try HTMLReport.render(inputs: folders, requirements: AppRegistry.bundled.requirements),
                to: URL(fileURLWithPath: report))
        }
        if outcome.anyFailed || outcome.anyRegression { throw CommandSupport.failed }
    }
}

extension TraceLevel: ExpressibleByArgument {}
