import ArgumentParser
import Capabilities
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import RunReports
import ScenarioEngine

struct RunCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files on the virtual clock; write metrics.csv and run.json per scenario.",
        discussion: RunPipeline.ConsoleJob.discussion)

    @Argument(help: "Scenario files (YAML).", completion: .file(extensions: ["yaml", "yml"])) var files: [String]
    @Option(help: "Write reports to DIR/<scenario>/ (see above).", completion: .directory) var out: String?
    @Option(
        help: "Also write JUnit XML, a test case per row, to this file (- for standard output).", completion: .file())
    var junit: String?
    @Option(help: "Compare with a baseline: a metrics CSV or a folder of <scenario>.csv.", completion: .file())
    var baseline: String?
    @Option(help: "Record the metrics as <scenario>.csv baselines in this folder.", completion: .directory)
    var recordBaseline: String?
    @Option(help: "Override the scenario seed (ignored for sweeps with seeds).") var seed: UInt64?
    @Option(help: "Sweep cases run on this many threads (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Run only slice I/N of each sweep (0-based), e.g. in a batch array job.") var shard: String?
    @OptionGroup var comparison: BaselineComparisonOptions
    @OptionGroup var folders: DatasetFolders
    @Flag(help: "Print only failing and regressed rows and the closing line.") var quiet = false
    @OptionGroup var color: ColorOption
    @Flag(help: "Print every row, and improvements against the baseline.") var verbose = false
    @Flag(help: "Rows a recording cannot use are errors at their file and line, not skipped.") var strict = false
    @Flag(help: "Continue the interrupted run in --out: finished cases are not run again.") var resume = false
    @Option(help: "Trace files: none, summary (bounded; default) or full (docs/reports.md).")
    var trace: TraceLevel = .summary
    @Option(help: "Also write an HTML report of the runs to this file (- for standard output).", completion: .file())
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

struct ValidateCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files without running them; every file is checked; exit 2 if any is invalid.",
        discussion: ScenarioValidation.Job.discussion)

    @Argument(help: "Scenario files.", completion: .file(extensions: ["yaml", "yml"])) var files: [String]
    @OptionGroup var folders: DatasetFolders
    @Flag(help: "Warnings are errors (e.g. a requirement the scenario cannot exercise): exit 2.") var strict = false

    func job() throws -> any CommandJob {
        let manifest = try DatasetsLocation.manifest(options: folders.datasets)
        return ScenarioValidation.Job(
            validation: ScenarioValidation(manifest: manifest, registry: .bundled), files: files, strict: strict)
    }
}

struct CheckCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare a metrics.csv with a baseline row by row; exit 1 on a regression.",
        discussion: BaselineComparison.CheckJob.discussion)

    @Argument(help: "The current run's metrics.csv.", completion: .file(extensions: ["csv"])) var current: String
    @Option(help: "The baseline: a metrics CSV or a folder of <scenario>.csv (as run --baseline).", completion: .file())
    var baseline: String
    @Option(
        help: "Also write JUnit XML, regressions as failures, to this file (- for standard output).",
        completion: .file())
    var junit: String?
    @OptionGroup var comparison: BaselineComparisonOptions
    @Flag(help: "Print only regressions.") var quiet = false
    @OptionGroup var color: ColorOption

    func job() throws -> any CommandJob {
        var job = BaselineComparison.CheckJob(
            current: current, baseline: baseline, junit: junit, requirements: AppRegistry.bundled.requirementIDs)
        let c = comparison
        (job.tolerances, job.compareLatency, job.failOn, job.quiet) = (c.tolerance, c.compareLatency, c.failOn, quiet)
        job.color = color.color
        job.virtualClockLatency = AppRegistry.bundled.virtualClockLatencies
        return job
    }
}

struct MergeCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the shards of a sweep into one run folder (--out DIR) or one metrics.csv, in sweep order.",
        discussion: RunFolderMerge.Job.discussion)

    @Argument(help: "Shard run folders, folders holding them, or metrics.csv files.", completion: .file())
    var inputs: [String]
    @Option(help: "Write the merged metrics.csv to this file (default: standard output).", completion: .file())
    var output: String?
    @Option(help: "Write run folders DIR/<scenario>/ instead of a metrics.csv.", completion: .directory) var out:
        String?
    @Flag(help: "Write the rows there are even when cases are missing or duplicated (see above).") var allowPartial =
        false

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

struct SchemaCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of scenario files (the source of Scenarios/scenario.schema.json).")

    @Option(help: "Write to this file instead of standard output.", completion: .file()) var output: String?

    func job() throws -> any CommandJob { TextOutputJob(output: output) { JSONSchemaWriter.render(.bundled) } }
}

struct RequirementsCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "requirements",
        abstract: "List every requirement with its metrics, default thresholds and what in a scenario exercises it.",
        discussion: "docs/requirements.md is this command's --format md.")

    @Argument(help: "Only this app's requirements (skyscape, weather-cities, journal, navup, micity).") var app: String?
    @Option(help: "text, csv, json or md.") var format: RequirementCatalogue.Format = .text
    @Option(help: "Write to this file instead of standard output.", completion: .file()) var output: String?

    func validate() throws {
        let names = AppRegistry.bundled.apps.map(\.name)
        if let app, !names.contains(app) {
            throw ValidationError("unknown app '\(app)'; the apps are \(names.joined(separator: ", "))")
        }
    }

    func job() throws -> any CommandJob {
        TextOutputJob(output: output) { [app, format] in
            RequirementCatalogue(registry: .bundled, app: app).render(format)
        }
    }
}

extension RequirementCatalogue.Format: ExpressibleByArgument {}

struct ReportCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML report (no script, no network) of run folders or metrics.csv files.",
        discussion: HTMLReport.Job.discussion)

    @Argument(help: "Run folders, folders of run folders, or metrics.csv files.", completion: .file()) var inputs:
        [String]
    @Option(help: "The HTML file to write (- for standard output).", completion: .file()) var output = "report.html"

    func job() throws -> any CommandJob {
        HTMLReport.Job(inputs: inputs, requirements: AppRegistry.bundled.requirements, output: output)
    }
}

struct CompareCommand: JobCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run a scenario once per system; each metric's 95 % interval and difference from the first system.",
        discussion: SystemComparison.Job.discussion)

    @Argument(help: "Scenario file.") var file: String
    @Option(help: "\(CapabilityRegistry.bundled.names.joined(separator: ", ")).") var capability: String
    @Option(help: "NAME=COMMAND or NAME=builtin: a system under test, once per system; the first is the reference.")
    var candidate: [String] = []
    @Option(help: .hidden) var system: [String] = []  // refused with a hint: compare names its systems with --candidate
    @Option(help: "Output CSV (default: standard output; a table on a terminal).") var output: String?
    @Option(help: "Keep each system's run folder (metrics.csv, items.csv, …) as DIR/<NAME>/.") var out: String?
    @Option(help: "Also write an HTML report with a forest plot of the differences.") var report: String?
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
