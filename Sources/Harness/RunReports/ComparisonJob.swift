import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine

extension SystemComparison {
    /// `fieldtest compare`: `run(file:entries:…)` as a command: the table (CSV, or a terminal table
    /// when it goes to a terminal) to `output`, an HTML report with the forest plot to `report`, the
    /// notes on standard error. A failed requirement of any system is a failure.
    public struct Job: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Each --candidate NAME=COMMAND names a system under test for --capability (each NAME different); the \
            first is the reference. Without --out, the standard error of a system that faulted is kept beside \
            --output. Verdicts at alpha 0.05 (better, worse, \
            no_significant_difference, different, untested): McNemar's exact test on right/wrong items, Wilcoxon's \
            signed-rank test on numeric errors, each with a paired bootstrap interval; the columns are in \
            docs/outputs.md, "Comparing systems".
            Example: fieldtest compare Scenarios/micity-city-day.yaml --capability sentiment \
              --candidate builtin=builtin --candidate vader='python3 Examples/systems/vader_sentiment.py' --out cmp
            """

        /// The scenario file.
        public var file: String
        /// The systems, the first the reference (`Entry.parse(options:capability:)`).
        public var entries: [Entry]
        /// The datasets overlay.
        public var manifest: DatasetManifest
        /// The apps.
        public var apps: AppRegistry
        /// `run`'s request for each system (tool version, command line; files, out and systems replaced).
        public var base: RunRequest
        /// The table's file, nil or `-` for standard output.
        public var output: String?
        /// The folder keeping each system's run folder `out/<name>/`.
        public var out: String?
        /// The HTML report's file.
        public var report: String?
        /// Colour of a terminal table.
        public var color: ColorMode = .auto

        /// A job; set `output`, `out`, `report` and `color` on it.
        public init(file: String, entries: [Entry], manifest: DatasetManifest, apps: AppRegistry, base: RunRequest) {
            (self.file, self.entries, self.manifest, self.apps, self.base) = (file, entries, manifest, apps, base)
        }

        /// The scenario and what it names (its systems blocks too), the datasets, the systems'
        /// commands' files; the table, the report and each system's run folder under `out`.
        public var files: CommandFiles {
            var f = CommandFiles()
            f.input(file)
            f.datasets(manifest)
            for entry in entries {
                if let setting = entry.setting { f.systemCommand(setting.command, option: "--candidate") }
            }
            if let scenario = try? ScenarioLoader(manifest: manifest, registry: apps).load(
                URL(fileURLWithPath: file), displayName: file)
            {
                f.scenarioInputs(scenario, manifest: manifest)
            }
            f.output(output, option: "--output")
            f.output(report, option: "--report")
            if let out {
                // Each system's run folder replaces out/<NAME>/ as a whole.
                let folder = URL(fileURLWithPath: out)
                for entry in entries {
                    for name in RunReport.fileNames {
                        f.output(
                            folder.appendingPathComponent(entry.name).appendingPathComponent(name).path, option: "--out"
                        )
                    }
                }
            }
            return f
        }

        /// Runs every system, writes the report and the table, and prints the notes.
        public func run() throws -> CommandJobOutcome {
            // The run folders are read for the report before they are removed (without `out`).
            var runs: [ReportRun] = []
            let result = try SystemComparison.run(
                file: file, entries: entries, manifest: manifest, apps: apps, base: base, output: output, out: out,
                withFolders: { [report] folders in
                    guard report != nil else { return }
                    runs = try folders.map { f in
                        var run = try ReportRun(metricsFile: f.folder.appendingPathComponent("metrics.csv"))
                        run.label = f.system
                        return run
                    }
                })
            if let report {
                let requirements = Dictionary(apps.requirements.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                var page = HTMLReport(runs: runs, requirements: requirements, title: "Fieldtest comparison")
                page.comparison = result
                try OutputText.write(page.render(), to: report)
            }
            let toTerminal = output == nil && isatty(STDOUT_FILENO) == 1
            let style = TerminalStyle.detect(
                isTerminal: toTerminal, environment: ProcessInfo.processInfo.environment, mode: color)
            try OutputText.write(toTerminal ? result.terminalTable(style: style) : result.csv, to: output)
            result.notes.forEach(JobNote.print)
            return .init(failed: result.anyFailed)
        }
    }
}
