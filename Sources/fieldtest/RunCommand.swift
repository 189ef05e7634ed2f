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
    @Option(help: "Write reports to DIR/<scenario>/ instead of Results/runs/<scenario>/<run_id>/.")
    var out: String?
    @Option(help: "Also write JUnit XML (one test case per requirement row) to this file.")
    var junit: String?
    @Option(help: "Compare with a baseline: a metrics CSV, or a folder holding <scenario>.csv files.")
    var baseline: String?
    @Option(
        help:
            "Record this run's metrics as <scenario>.csv baselines in this folder (not with --shard: a baseline holds every case)."
    )
    var recordBaseline: String?
    @Option(help: "Override the scenario seed (ignored for sweeps with seeds).")
    var seed: UInt64?
    @Option(help: "Sweep cases run in parallel on this many threads (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Run only slice I of N of each sweep (0-based, I/N), e.g. for a batch array job.")
    var shard: String?
    @OptionGroup var comparison: BaselineComparisonOptions
    @OptionGroup var folders: DatasetFolders
    @Flag(help: "Print only failing and regressed rows and the closing line.")
    var quiet = false
    @Flag(help: "Print every row, and improvements against the baseline.")
    var verbose = false
    @Option(help: "Trace files beside metrics.csv: none, summary (bounded; default) or full (docs/reports.md).")
    var trace: TraceLevel = .summary
    @Option(help: "Also write one HTML report of every scenario run to this file.")
    var report: String?
    @Option(help: "CAPABILITY=COMMAND: an external system (or 'builtin') for sun, route, locate or sentiment.")
    var system: [String] = []

    /// The request the options describe.
    var request: RunRequest {
        var request = RunRequest(
            files: files, out: out, junit: junit, baseline: baseline, recordBaseline: recordBaseline, seed: seed,
            jobs: jobs,
            shard: shard.flatMap(Shard.init(parsing:)), tolerances: comparison.tolerance,
            compareLatency: comparison.compareLatency,
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
        let pipeline = RunPipeline(
            request: request, manifest: try DatasetsLocation.manifest(options: folders.datasets), apps: .bundled)
        let outcome = try pipeline.runOnConsole(
            TerminalConsole(textToStandardError: junit == OutputText.standardStreamName),
            verbosity: quiet ? .quiet : verbose ? .verbose : .normal, note: CommandSupport.printError,
            interruptCleanup: { ManagedAppDriver.removeAllTemporaryFolders() })
        if outcome.anyFailed || outcome.anyRegression { throw CommandSupport.failed }
    }
}

extension TraceLevel: ExpressibleByArgument {}
