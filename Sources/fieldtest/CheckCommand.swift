import FieldtestApps
import ArgumentParser
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

    @Option(name: .long, help: "The baseline metrics CSV.")
    var baseline: String

    @Option(name: .long, parsing: .singleValue, help: "Tolerance NAME=VALUE (accuracy, latency, latency-floor, count, rate, a requirement ID or metric).")
    var tolerance: [String] = []

    @Option(name: .long, help: "Compare latency rows: same-machine (only when the baseline folder's machine.json names the machine in the run's run.json), always or never.")
    var compareLatency: LatencyComparison = .sameMachine

    @Flag(name: .long, help: "Print only regressions.")
    var quiet = false

    func run() throws {
        let report = try BaselineComparison.compare(current: current, baseline: baseline, tolerances: tolerance,
                                                    compareLatency: compareLatency,
                                                    requirements: AppRegistry.bundled.requirementIDs, note: CommandSupport.printError)
        print(report.rendered(quiet: quiet), terminator: "")
        if report.hasRegression { throw CommandSupport.failed }
    }
}

/// `fieldtest merge`: combine the shards of a sweep.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the metrics.csv files of a sweep's shards into one, in a deterministic order.")

    @Argument(help: "Shard metrics.csv files.")
    var inputs: [String]

    @Option(name: .long, help: "Output file (default: standard output).")
    var output: String?

    func run() throws {
        try OutputPathCheck.refuseOverwritingInputs(inputs.map { .init(option: "", url: URL(fileURLWithPath: $0)) }, output: output)
        let merged = try ShardMerge.merge(try inputs.map { (name: $0, rows: try MetricsCSV.readLocated(URL(fileURLWithPath: $0), displayName: $0)) })
        try OutputText.write(MetricsCSV.render(merged), to: output)
        if merged.contains(where: { $0.status == .fail }) { throw CommandSupport.failed }
    }
}

extension LatencyComparison: ExpressibleByArgument {}
