import FieldtestData
import Foundation
import MetricReports

extension BaselineComparison {
    /// `fieldtest check`: `check(current:baseline:…)` as a command: the report on the terminal (or
    /// standard error when the JUnit XML goes to standard output), the JUnit XML when asked for (an
    /// error suite when the check could not be made: CI reads it whatever happened).
    public struct CheckJob: CommandJob {
        /// The `--help` text of the comparison options `run --baseline` and `check` share.
        public static let comparisonOptionsHelp = """
            --compare-latency same-machine (the default) compares host latency rows only when the baseline \
            folder's machine.json names the machine that ran; latency on the virtual clock is always compared. \
            --fail-on significant fails on a regression significant at α = 0.05 (on paired items, else on the \
            rows' 95 % intervals); a regression of unknown significance counts.
            """

        /// The `--help` description of the command.
        public static let discussion = """
            Each metric knows which way is better (latency: lower). Default tolerances: accuracy 1e-9 absolute, \
            latency 50 % relative (floor 5 ms), count 0, rate 5 %. Each regression is marked significant or not \
            (α = 0.05), on the items both runs scored when their items.csv files are there, else on the rows' \
            intervals (docs/outputs.md, "Is a change significant?").
            \(comparisonOptionsHelp)
            Exit codes: 0 no regression (with --fail-on significant: none significant), 1 regression, \
            2 bad input or missing baseline.
            """

        /// The current run's metrics file (`-`: standard input).
        public var current: String
        /// The baseline: a metrics CSV, or a folder of `<scenario>.csv` files.
        public var baseline: String
        /// The JUnit XML file, nil for none, `-` for standard output.
        public var junit: String?
        /// The tolerance settings, `NAME=VALUE`.
        public var tolerances: [String] = []
        /// When latency rows are compared.
        public var compareLatency: LatencyComparison = .sameMachine
        /// Which regressions fail.
        public var failOn: FailOn = .any
        /// The requirement IDs a per-requirement tolerance may name (`AppRegistry.requirementIDs`).
        public var requirements: Set<String>
        /// The latency series on the virtual clock (`AppRegistry.virtualClockLatencies`), compared on any machine.
        public var virtualClockLatency: Set<String> = []
        /// Whether only regressions are printed.
        public var quiet = false
        /// Colour of the report.
        public var color: ColorMode = .auto

        /// A job; set the other options on it.
        public init(current: String, baseline: String, junit: String?, requirements: Set<String>) {
            (self.current, self.baseline, self.junit, self.requirements) = (current, baseline, junit, requirements)
        }

        /// The current file, the run files beside it, the baseline file chosen, and the JUnit XML.
        public var files: CommandFiles {
            var f = CommandFiles()
            f.input(current)
            f.runFiles([current], beside: ["run.json"])
            let rows = (try? MetricsCSV.read(URL(fileURLWithPath: current))) ?? []
            f.input((try? BaselineComparison.baselineFile(baseline, current: current, rows: rows)) ?? baseline)
            f.output(junit, option: "--junit")
            return f
        }

        /// Checks, writes the JUnit XML and prints the report; a regression (`failOn`) is a failure.
        public func run() throws -> CommandJobOutcome {
            let started = Date()
            let outcome: Outcome
            do {
                outcome = try BaselineComparison.check(
                    current: OutputText.inputPath(current), baseline: baseline, tolerances: tolerances,
                    compareLatency: compareLatency, requirements: requirements,
                    virtualClockLatency: virtualClockLatency, note: JobNote.print)
            } catch {
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
                textToStandardError: StreamPath.isStandardOutput(junit), color: color, progress: ProgressMode.none)
            let seconds = Date().timeIntervalSince(started)
            console.write(outcome.report.rendered(quiet: quiet, style: console.style, seconds: seconds))
            return .init(failed: outcome.report.fails(on: failOn))
        }
    }
}
