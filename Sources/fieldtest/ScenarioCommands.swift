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

    func run() throws {
        let pipeline = RunPipeline(
            request: try request(), manifest: try DatasetsLocation.manifest(options: folders.datasets), apps: .bundled)
        let outcome: RunOutcome
        do {
            let environment = ProcessInfo.processInfo.environment
            outcome = try pipeline.runOnConsole(
                TerminalConsole(
                    textToStandardError: StreamPath.isStandardOutput(junit) || StreamPath.isStandardOutput(report),
                    color: color.color,
                    progress: .choose(
                        isTerminal: isatty(STDERR_FILENO) == 1, quiet: quiet,
                        interval: ProgressMode.interval(environment: environment))),
                verbosity: quiet ? .quiet : verbose ? .verbose : .normal, note: CommandSupport.printError,
                interruptCleanup: { ManagedAppDriver.removeAllTemporaryFolders() })
        } catch {
            // CI reads the JUnit file whatever happened: a run that could not be made is an error there.
            pipeline.writeErrorJUnit(error)
            throw error
        }
        if outcome.anyFailed || outcome.anyRegression { throw CommandSupport.failed }
    }
}

extension TraceLevel: ExpressibleByArgument {}

/// `fieldtest validate`: check scenario files without running them.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract:
            "Check scenario files (schema, datasets, requirement IDs) without running them; every file is checked and its problems reported; exit 2 if any file is invalid. Each is checked against its data too: files named by path load, venues and places exist, the time window is recorded."
    )

    @Argument(help: "Scenario files.", completion: .file(extensions: ["yaml", "yml"])) var files: [String]
    @OptionGroup var folders: DatasetFolders
    @Flag(help: "Warnings are errors (e.g. a requested requirement the scenario cannot exercise): exit 2.")
    var strict = false

    func run() throws {
        let validation = ScenarioValidation(
            manifest: try DatasetsLocation.manifest(options: folders.datasets), registry: .bundled)
        var invalid = 0
        for file in files {
            let verdict = validation.verdict(file: file, strict: strict)
            if let problems = verdict.problems { CommandSupport.printError(problems) }
            if let ok = verdict.ok { print(ok) } else { invalid += 1 }
        }
        if invalid > 0 { throw CommandSupport.invalidInput }
    }
}

/// `fieldtest check`: compare a run's metrics with a baseline.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare a metrics.csv with a baseline row by row; exit 1 on a regression.",
        discussion: """
            Each metric knows which way is better (from its comparator; latency: lower). Default
            tolerances: accuracy 1e-9 absolute, latency 50 % relative (floor 5 ms), count 0, rate 5 %.
            Each regression is marked significant or not (α = 0.05): by McNemar's exact test or the
            Wilcoxon signed-rank test on the items both runs scored, when items.csv lies beside the
            current file and the baseline's items (<name>.items.csv, or items.csv beside a metrics.csv)
            beside it; else by the 95 % interval of the change from the two rows' intervals.
            Exit codes: 0 no regression (with --fail-on significant: none significant), 1 regression,
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

    func run() throws {
        let started = Date()
        let outcome: BaselineComparison.Outcome
        do {
            outcome = try BaselineComparison.check(
                current: OutputText.inputPath(current), baseline: baseline, tolerances: comparison.tolerance,
                compareLatency: comparison.compareLatency,
                requirements: AppRegistry.bundled.requirementIDs, note: CommandSupport.printError)
        } catch {
            // CI reads the JUnit file whatever happened: a check that could not be made is an error there.
            if let junit {
                let suite = JUnitReport.errorSuite(name: "check", message: String(describing: error))
                try? OutputText.write(JUnitReport.render([suite]), to: junit)
            }
            throw error
        }
        if let junit {
            try OutputText.write(
                JUnitReport.render(JUnitReport.suites(rows: outcome.rows, check: outcome.report)), to: junit)
        }
        let console = TerminalConsole(
            textToStandardError: StreamPath.isStandardOutput(junit), color: color.color, progress: ProgressMode.none)
        let seconds = Date().timeIntervalSince(started)
        console.write(outcome.report.rendered(quiet: quiet, style: console.style, seconds: seconds))
        if outcome.report.fails(on: comparison.failOn) { throw CommandSupport.failed }
    }
}

/// `fieldtest merge`: combine the shards of a sweep.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the shards of a sweep into one run folder (--out DIR) or one metrics.csv, in sweep order.",
        discussion: """
            Give the shards' run folders (DIR/<scenario> of 'run --out DIR'), folders holding them \
            (results/shard-*), or their metrics.csv files. The run.json beside each metrics.csv records \
            the whole sweep, so merge names the cases no input holds (and the shard that runs each) and \
            the cases held by several inputs.

            --out DIR writes DIR/<scenario>/ for each scenario, laid out as 'run --out DIR' lays out a \
            one-machine run: metrics.csv, items.csv, events.csv, latency.csv, latency-histogram.csv (each \
            case's HDR histogram, so the report's latency over cases merges every sample), traces.geojson, \
            the systems' logs, seeds.csv and run.json (totals of the merged rows, the shards merged and \
            every case). 'fieldtest report DIR' and 'fieldtest check DIR/<scenario>/metrics.csv' read it as \
            a one-machine run. The folder is built beside DIR and put in place in one step; an existing DIR \
            is replaced only when it holds nothing but what merge writes, and never when it is or holds \
            an input folder. Without --out, the merged metrics.csv goes to --output (or standard output).

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

    func run() throws {
        let files = try RunFolderMerge.locate(inputs)
        if let out { try RunFolderMerge.checkOutput(out, metricsFiles: files) }
        let read = try ShardMerge.read(files: files, output: output)
        let report = try ShardMerge.merge(read)
        report.diagnostics(allowPartial: allowPartial).forEach(CommandSupport.printError)
        if !report.isComplete && !allowPartial { throw CommandSupport.failed }
        if let out {
            let written = try RunFolderMerge.write(report, inputs: read, to: out, commandLine: CommandLine.arguments)
            written.notes.forEach(CommandSupport.printError)
            for folder in written.folders { CommandSupport.printError("merge: wrote \(folder)") }
        } else {
            try OutputText.write(MetricsCSV.render(report.rows), to: output)
        }
        if let message = report.failingRowsMessage() {
            CommandSupport.printError(message)
            throw CommandSupport.failed
        }
    }
}

extension LatencyComparison: ExpressibleByArgument {}

/// `fieldtest schema`: print the scenario JSON Schema.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of scenario files (the source of Scenarios/scenario.schema.json).")

    @Option(help: "Write to this file instead of standard output.", completion: .file()) var output: String?

    func run() throws {
        try OutputText.write(JSONSchemaWriter.render(.bundled), to: output)
    }
}

/// `fieldtest requirements`: the requirement catalogue, from the app definitions.
struct RequirementsCommand: ParsableCommand {
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
        try OutputText.write(RequirementCatalogue(registry: registry, app: app).render(format), to: output)
    }
}

extension RequirementCatalogue.Format: ExpressibleByArgument {}

/// `fieldtest report`: one self-contained HTML page of run folders.
struct ReportCommand: ParsableCommand {
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

    func run() throws {
        let html = try HTMLReport.render(inputs: inputs, requirements: AppRegistry.bundled.requirements, output: output)
        try OutputText.write(html, to: output)
    }
}

/// `fieldtest compare`: the same scenario and seeds once per system, one long table beside the
/// first (reference) system.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract:
            "Run a scenario once per system; one row per metric and system with its 95 % interval and its difference from the first system, paired by item (CSV).",
        discussion: """
            The first --candidate is the reference. Columns: scenario, requirement, metric, system, unit, value,
            samples, status, ci_low, ci_high, delta, delta_ci_low, delta_ci_high, p_value, method, verdict
            (better, worse, no_significant_difference, different, untested; reference for the first system) at
            alpha 0.05. Right/wrong items are tested with McNemar's exact test, numeric errors with Wilcoxon's
            signed-rank test, both with a paired bootstrap interval (docs/outputs.md, "Comparing systems").
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
        do {
            let capability = try SystemCapability.named(capability).name
            guard system.isEmpty else {
                throw ValidationError(
                    "compare takes --candidate NAME=COMMAND, once per system; --system (CAPABILITY=COMMAND) is run's option"
                )
            }
            let entries = try SystemComparison.Entry.parse(options: candidate, capability: capability)
            if out != nil { try SystemComparison.checkFolderNames(entries) }
        } catch let error as SystemError {
            // One `error:` prefix: ArgumentParser adds its own.
            if case .usage(let message) = error { throw ValidationError(message) }
            throw ValidationError(error.description)
        } catch let error as SystemComparison.UsageError {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let capability = try SystemCapability.named(capability).name
        let entries = try SystemComparison.Entry.parse(options: candidate, capability: capability)
        var base = RunRequest(files: [file], toolVersion: FieldtestVersion.current)
        (base.commandLine, base.toolCommit) = (CommandLine.arguments, GitRevision.current())
        // The run folders are read for the report before they are removed (without --out).
        var runs: [ReportRun] = []
        let result = try SystemComparison.run(
            file: file, entries: entries, manifest: try DatasetsLocation.manifest(options: folders.datasets),
            apps: .bundled, base: base, output: output, out: out,
            withFolders: { [report] folders in
                guard report != nil else { return }
                runs = try folders.map { f in
                    var run = try ReportRun(metricsFile: f.folder.appendingPathComponent("metrics.csv"))
                    run.label = f.system
                    return run
                }
            })
        if let report {
            let requirements = Dictionary(
                AppRegistry.bundled.requirements.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var page = HTMLReport(runs: runs, requirements: requirements, title: "Fieldtest comparison")
            page.comparison = result
            try OutputText.write(page.render(), to: report)
        }
        let toTerminal = output == nil && isatty(STDOUT_FILENO) == 1
        let style = TerminalStyle.detect(
            isTerminal: toTerminal, environment: ProcessInfo.processInfo.environment, mode: color.color)
        let table = toTerminal ? result.terminalTable(style: style) : result.csv
        try OutputText.write(table, to: output)
        result.notes.forEach(CommandSupport.printError)
        if result.anyFailed { throw CommandSupport.failed }
    }
}
