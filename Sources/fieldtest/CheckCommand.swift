import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine

/// `fieldtest check`: compare a run's metrics with a baseline.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare a metrics.csv with a baseline row by row; exit 1 on a regression.",
        discussion: """
            Each metric knows which way is better (from its comparator; latency: lower). Default
            tolerances: accuracy 1e-9 absolute, latency 50 % relative (floor 5 ms), count 0, rate 5 %.
            Exit codes: 0 no regression, 1 regression, 2 bad input or missing baseline.
            """)

    @Argument(help: "The current run's metrics.csv.")
    var current: String
    @Option(help: "The baseline metrics CSV.")
    var baseline: String
    @OptionGroup var comparison: BaselineComparisonOptions
    @Flag(help: "Print only regressions.")
    var quiet = false

    func run() throws {
        let started = Date()
        let report = try BaselineComparison.compare(
            current: OutputText.inputPath(current), baseline: baseline, tolerances: comparison.tolerance,
            compareLatency: comparison.compareLatency,
            requirements: AppRegistry.bundled.requirementIDs, note: CommandSupport.printError)
        let console = TerminalConsole()
        console.write(report.rendered(quiet: quiet, style: console.style, seconds: Date().timeIntervalSince(started)))
        if report.hasRegression { throw CommandSupport.failed }
    }
}

/// `fieldtest merge`: combine the shards of a sweep.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the metrics.csv files of a sweep's shards into one, in a deterministic order.",
        discussion: """
            The run.json beside each metrics.csv records the whole sweep, so merge names the cases no
            input holds (and the shard that runs each) and the cases held by several inputs.
            Exit codes: 0 merged, 1 a case is missing or duplicated (nothing written unless
            --allow-partial) or a merged row failed its requirement, 2 invalid input.
            """)

    @Argument(help: "Shard metrics.csv files.")
    var inputs: [String]
    @Option(help: "Output file (default: standard output).")
    var output: String?
    @Flag(
        help:
            "Write the rows that are there even when cases are missing or duplicated (a duplicated case keeps its first input's rows)."
    )
    var allowPartial = false

    func run() throws {
        let inputs = try OutputText.inputPaths(inputs)
        try OutputPathCheck.refuseOverwritingInputs(
            inputs.map { .init(option: "", url: URL(fileURLWithPath: $0)) }, output: output)
        let report = try ShardMerge.merge(files: inputs)
        report.diagnostics(allowPartial: allowPartial).forEach(CommandSupport.printError)
        if !report.isComplete && !allowPartial { throw CommandSupport.failed }
        try OutputText.write(MetricsCSV.render(report.rows), to: output)
        if let message = report.failingRowsMessage() {
            CommandSupport.printError(message)
            throw CommandSupport.failed
        }
    }
}

extension LatencyComparison: ExpressibleByArgument {}
