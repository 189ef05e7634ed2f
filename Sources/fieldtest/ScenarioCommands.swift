import ArgumentParser
import Capabilities
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import RunReports
import ScenarioEngine

// The scenario commands: run, validate, check, merge, schema, report and compare (the harness).

/// `fieldtest run`: replay scenarios and write their metric reports.
struct RunCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract:
            "Run scenario files on the virtual clock and write metrics.csv, run.json (and JUnit XML) per scenario.",
        discussion: """
            Reports go to Results/runs/<scenario>/<run_id>/, or DIR/<scenario>/ with --out DIR.
            Exit codes: 0 every requirement passes (and no regression against --baseline),
            1 a requirement failed or a metric regressed, 2 invalid input, usage or a missing baseline.
            """)

    @Argument(help: "Scenario files (YAML).", completion: .file(extensions: ["yaml", "yml"])) var files: [String]
    @Option(
        help:
            "Write reports to DIR/<scenario>/ instead of Results/runs/<scenario>/<run_id>/ (one run of a scenario at a time: DIR/.<scenario>.lock).",
        completion: .directory
    ) var out: String?
    @Option(
        help: "Also write JUnit XML (one test case per requirement row) to this file (- for standard output).",
        completion: .file(extensions: ["xml"]))
    var junit: String?
    @Option(
        help: "Compare with a baseline: a metrics CSV, or a folder holding <scenario>.csv files.", completion: .file())
    var baseline: String?
    @Option(
        help: "Record this run's metrics as <scenario>.csv baselines in this folder (not with --shard).",
        completion: .directory)
    var recordBaseline: String?
    @Option(help: "Override the scenario seed (ignored for sweeps with seeds).") var seed: UInt64?
    @Option(help: "Sweep cases run in parallel on this many threads (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Run only slice I of N of each sweep (0-based, I/N), e.g. for a batch array job.") var shard: String?
    @OptionGroup var comparison: BaselineComparisonOptions
    @OptionGroup var folders: DatasetFolders
    @Flag(help: "Print only failing and regressed rows and the closing line (no progress lines).") var quiet = false
    @OptionGroup var color: ColorOption
    @Flag(help: "Print every row, and improvements against the baseline.") var verbose = false
    @Flag(help: "Rows a recording cannot use are errors at their file and line, not skipped.") var strict = false
    @Flag(help: "Continue the interrupted run in --out: finished cases are not run again.") var resume = false
    @Option(help: "Trace files beside metrics.csv: none, summary (bounded; default) or full (docs/reports.md).")
    var trace: TraceLevel = .summary
    @Option(
        help: "Also write one HTML report of every scenario run to this file (- for standard output).",
        completion: .file(extensions: ["html"]))
    var report: String?
    @Option(help: "CAPABILITY=COMMAND: an external system (or 'builtin') for sun, route, locate or sentiment.")
    var system: [String] = []

    /// The request the options describe, checked.
    func request() throws -> RunRequest {
        var request = RunRequest(
            files: files, out: out, junit: junit, baseline: baseline, recordBaseline: recordBaseline, seed: seed,
            jobs: jobs, tolerances: comparison.tolerance, compareLatency: comparison.compareLatency,
            toolVersion: FieldtestVersion.current, trace: trace)
        (request.commandLine, request.toolCommit) = (CommandLine.arguments, GitRevision.current())
        (request.report, request.strict, request.resume) = (report, strict, resume)
        request.failOn = comparison.failOn
        try request.parse(shard: shard, systems: system)
        return request
    }

    func validate() throws {
        if quiet && verbose { throw ValidationError("give one of --quiet and --verbose") }
        do { _ = try request() } catch { throw ValidationError(String(describing: error)) }
    }

    func job() throws -> any CommandJob {
        let pipeline = RunPipeline(
            request: try request(), manifest: try DatasetsLocation.manifest(options: folders.datasets), apps: .bundled)
        return RunPipeline.ConsoleJob(
            pipeline: pipeline, verbosity: quiet ? .quiet : verbose ? .verbose : .normal, color: color.color,
            interruptCleanup: { ManagedAppDriver.removeAllTemporaryFolders() })
    }
}

extension TraceLevel: ExpressibleByArgument {}

/// `fieldtest validate`: check scenario files without running them.
struct ValidateCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract:
            "Check scenario files (schema, datasets, requirement IDs) without running them; every file is checked and its problems reported; exit 2 if any file is invalid. Each is checked against its data too: files named by path load, venues and places exist, the time window is recorded."
    )

    @Argument(help: "Scenario files.", completion: .file(extensions: ["yaml", "yml"])) var files: [String]
    @OptionGroup var folders: DatasetFolders
    @Flag(help: "Warnings are errors (e.g. a requested requirement the scenario cannot exercise): exit 2.")
    var strict = false

    func job() throws -> any CommandJob {
        let manifest = try DatasetsLocation.manifest(options: folders.datasets)
        return ScenarioValidation.Job(
            validation: ScenarioValidation(manifest: manifest, registry: .bundled), files: files, strict: strict)
    }
}

/// `fieldtest check`: compare a run's metrics with a baseline.
struct CheckCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare a metrics.csv with a baseline row by row; exit 1 on a regression.",
        discussion: """
            Each metric knows which way is better (latency: lower). Default tolerances: accuracy 1e-9 absolute, \
            latency 50 % relative (floor 5 ms), count 0, rate 5 %. Each regression is marked significant or not \
            (α = 0.05), on the items both runs scored when their items.csv files are there, else on the rows' \
            intervals (docs/outputs.md, "Is a change significant?").
            Exit codes: 0 no regression (with --fail-on significant: none significant), 1 regression, \
            2 bad input or missing baseline.
            """)

    @Argument(help: "The current run's metrics.csv.", completion: .file(extensions: ["csv"])) var current: String
    @Option(
        help:
            "The baseline: a metrics CSV, or a folder holding <scenario>.csv files (as run --baseline; the scenario is the run.json's beside CURRENT).",
        completion: .file())
    var baseline: String
    @Option(
        help:
            "Also write JUnit XML (one test case per row, regressions as failures) to this file (- for standard output).",
        completion: .file(extensions: ["xml"]))
    var junit: String?
    @OptionGroup var comparison: BaselineComparisonOptions
    @Flag(help: "Print only regressions.") var quiet = false
    @OptionGroup var color: ColorOption

    func job() throws -> any CommandJob {
        var job = BaselineComparison.CheckJob(
            current: current, baseline: baseline, junit: junit, requirements: AppRegistry.bundled.requirementIDs)
        (job.tolerances, job.compareLatency, job.failOn) = (
            comparison.tolerance, comparison.compareLatency, comparison.failOn
        )
        (job.quiet, job.color) = (quiet, color.color)
        job.virtualClockLatency = AppRegistry.bundled.virtualClockLatencies
        return job
    }
}

/// `fieldtest merge`: combine the shards of a sweep.
struct MergeCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the shards of a sweep into one run folder (--out DIR) or one metrics.csv, in sweep order.",
        discussion: """
            Give the shards' run folders (DIR/<scenario> of 'run --out DIR'), folders holding them \
            (results/shard-*), or their metrics.csv files; merge names the cases no input holds (and the shard \
            that runs each) and the cases held by several. --out DIR writes the run folders as 'run --out DIR' \
            does for one machine, replacing DIR only when it holds nothing but what merge writes and no input \
            (docs/outputs.md, "Merged run folders"); else the merged metrics.csv goes to --output.
            Exit codes: 0 merged, 1 a case is missing or duplicated (nothing written unless \
            --allow-partial) or a merged row failed its requirement (written), 2 invalid input.
            """)

    @Argument(help: "Shard run folders, folders holding them, or their metrics.csv files.", completion: .file())
    var inputs: [String]
    @Option(help: "Write the merged metrics.csv to this file (default: standard output).", completion: .file())
    var output: String?
    @Option(
        help: "Write complete run folders DIR/<scenario>/ instead of a metrics.csv (see above).",
        completion: .directory)
    var out: String?
    @Flag(
        help:
            "Write the rows that are there even when cases are missing or duplicated (a duplicated case keeps its first input's rows)."
    )
    var allowPartial = false

    func validate() throws {
        if out != nil && output != nil {
            throw ValidationError("give --out DIR (run folders) or --output FILE (a metrics.csv), not both")
        }
    }

    func job() throws -> any CommandJob {
        RunFolderMerge.Job(
            inputs: inputs, output: output, out: out, allowPartial: allowPartial, commandLine: CommandLine.arguments)
    }
}

extension LatencyComparison: ExpressibleByArgument {}

/// `fieldtest schema`: print the scenario JSON Schema.
struct SchemaCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of scenario files (the source of Scenarios/scenario.schema.json).")

    @Option(help: "Write to this file instead of standard output.", completion: .file()) var output: String?

    func job() throws -> any CommandJob { JSONSchemaWriter.Job(registry: .bundled, output: output) }
}

/// `fieldtest requirements`: the requirement catalogue, from the app definitions.
struct RequirementsCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "requirements",
        abstract: "List every requirement with its metrics, default thresholds and what in a scenario exercises it.",
        discussion: "docs/requirements.md is this command's --format md.")

    @Argument(help: "Only this app's requirements (skyscape, weather-cities, journal, navup, micity).") var app: String?
    @Option(help: "text, csv, json or md.") var format: RequirementCatalogue.Format = .text
    @Option(help: "Write to this file instead of standard output.", completion: .file()) var output: String?

    func run() throws {
        let registry = AppRegistry.bundled
        if let app, registry.app(app) == nil {
            throw ValidationError(
                "unknown app '\(app)'; the apps are \(registry.apps.map(\.name).joined(separator: ", "))")
        }
        try CommandSupport.finish(job().run())
    }

    func job() throws -> any CommandJob {
        RequirementCatalogue.Job(
            catalogue: RequirementCatalogue(registry: .bundled, app: app), format: format, output: output)
    }
}

extension RequirementCatalogue.Format: ExpressibleByArgument {}

/// `fieldtest report`: one self-contained HTML page of run folders.
struct ReportCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML report (no script, no network) of run folders or metrics.csv files.",
        discussion: """
            Give run folders (Results/runs/<scenario>/<run_id>, an --out DIR/<scenario>), folders holding them, \
            or metrics.csv files. Several runs of one scenario are shown side by side; runs of two or more tool \
            commits (run.json's tool_commit) add a History section drawing each metric over the commits, oldest \
            first, with its 95 % intervals. See docs/reports.md.
            """)

    @Argument(help: "Run folders, folders of run folders, or metrics.csv files.", completion: .file()) var inputs:
        [String]
    @Option(help: "The HTML file to write (- for standard output).", completion: .file()) var output = "report.html"

    func job() throws -> any CommandJob {
        HTMLReport.Job(inputs: inputs, requirements: AppRegistry.bundled.requirements, output: output)
    }
}

/// `fieldtest compare`: the same scenario and seeds once per system, one long table beside the
/// first (reference) system.
struct CompareCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract:
            "Run a scenario once per system; one row per metric and system with its 95 % interval and its difference from the first system, paired by item (CSV).",
        discussion: """
            The first --candidate is the reference. Verdicts at alpha 0.05 (better, worse, \
            no_significant_difference, different, untested): McNemar's exact test on right/wrong items, Wilcoxon's \
            signed-rank test on numeric errors, each with a paired bootstrap interval; the columns are in \
            docs/outputs.md, "Comparing systems".
            Example: fieldtest compare Scenarios/micity-city-day.yaml --capability sentiment \
              --candidate builtin=builtin --candidate vader='python3 Examples/systems/vader_sentiment.py' --out cmp
            """)

    @Argument(help: "Scenario file.") var file: String
    @Option(help: "sun, route, locate or sentiment.") var capability: String
    @Option(
        help:
            "NAME=COMMAND (or NAME=builtin): a system under test for --capability; repeat, once per system, each NAME different; the first is the reference."
    )
    var candidate: [String] = []
    @Option(
        help: ArgumentHelp(
            "compare names its systems with --candidate NAME=COMMAND (run's --system is CAPABILITY=COMMAND).",
            visibility: .hidden))
    var system: [String] = []
    @Option(
        help:
            "Output CSV (default: standard output; a table on a terminal). Without --out, the standard error of a system that faulted is kept beside it."
    )
    var output: String?
    @Option(help: "Keep each system's run folder (metrics.csv, items.csv, run.json, …) as DIR/<NAME>/.")
    var out: String?
    @Option(help: "Also write an HTML report of the systems' runs with a forest plot of the differences.")
    var report: String?
    @OptionGroup var folders: DatasetFolders
    @OptionGroup var color: ColorOption

    func validate() throws {
        try CommandSupport.refuse(
            SystemComparison.usageProblem(
                capability: capability, candidates: candidate, system: system, keepsFolders: out != nil))
    }

    func job() throws -> any CommandJob {
        let capability = try SystemCapability.named(capability).name
        let entries = try SystemComparison.Entry.parse(options: candidate, capability: capability)
        var base = RunRequest(files: [file], toolVersion: FieldtestVersion.current)
        (base.commandLine, base.toolCommit) = (CommandLine.arguments, GitRevision.current())
        var job = SystemComparison.Job(
            file: file, entries: entries, manifest: try DatasetsLocation.manifest(options: folders.datasets),
            apps: .bundled, base: base)
        (job.output, job.out, job.report, job.color) = (output, out, report, color.color)
        return job
    }
}
