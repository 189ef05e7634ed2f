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
        var tolerances = Tolerances()
        for t in tolerance { try CommandSupport.guarded { try tolerances.apply(t) } }
        guard FileManager.default.fileExists(atPath: baseline) else {
            CommandSupport.printError("\(baseline): error: missing baseline; record one with 'fieldtest run --record-baseline DIR'")
            throw CommandSupport.invalidInput
        }
        let cur = try CommandSupport.guarded { try MetricsCSV.read(URL(fileURLWithPath: current), displayName: current) }
        let base = try CommandSupport.guarded { try MetricsCSV.read(URL(fileURLWithPath: baseline), displayName: baseline) }
        if base.isEmpty {
            CommandSupport.printError(CheckError.emptyBaseline(baseline).description)
            throw CommandSupport.invalidInput
        }
        try CommandSupport.guarded { try tolerances.checkOverrideNames(metrics: Set((cur + base).map(\.metric))) }
        let recorded = MachineIdentity.recorded(in: URL(fileURLWithPath: baseline).deletingLastPathComponent())
        let measured = Self.runMachine(besides: URL(fileURLWithPath: current))
        tolerances.comparesLatency = compareLatency == .always
            || (compareLatency == .sameMachine && recorded != nil && recorded == measured)
        if !tolerances.comparesLatency && compareLatency == .sameMachine {
            CommandSupport.printError("note: the run and the baseline are not known to come from the same machine; latency rows are checked against their thresholds only (--compare-latency always compares them anyway)")
        }
        let report = BaselineCheck.compare(current: cur, baseline: base, tolerances: tolerances)
        print(Self.render(report, quiet: quiet), terminator: "")
        if report.hasRegression { throw CommandSupport.failed }
    }

    /// The machine recorded in the `run.json` beside a run's `metrics.csv`, if any.
    static func runMachine(besides metrics: URL) -> MachineIdentity? {
        struct Record: Decodable { var machine: [String: String]? }
        guard let data = try? Data(contentsOf: metrics.deletingLastPathComponent().appendingPathComponent("run.json")),
              let m = (try? JSONDecoder().decode(Record.self, from: data))?.machine,
              let host = m["host"], let cpu = m["cpu"], let cores = m["cores"].flatMap(Int.init) else { return nil }
        return MachineIdentity(host: host, machineID: m["machine_id"] ?? "unknown", cpu: cpu, cores: cores)
    }

    /// The regression/improvement table and a closing count line.
    static func render(_ report: CheckReport, quiet: Bool) -> String {
        let shown = report.comparisons.filter { quiet ? $0.verdict == .regression : ($0.verdict == .regression || $0.verdict == .improvement) }
        var out = ""
        if !shown.isEmpty {
            let rows = shown.map { c -> [String] in
                let r = c.current ?? c.baseline
                return [c.verdict.rawValue.uppercased(), r?.scenario ?? "", r?.requirement ?? "", r?.metric ?? "",
                        c.baseline.map { FieldtestNumber.format($0.value) } ?? "-",
                        c.current.map { FieldtestNumber.format($0.value) } ?? "-", c.reason]
            }
            out += TextTableRenderer.render(header: ["verdict", "scenario", "requirement", "metric", "baseline", "current", "why"], rows: rows)
        }
        out += "check: \(report.regressions.count) regressions, \(report.improvements.count) improvements, \(report.comparisons.filter { $0.verdict == .unchanged }.count) unchanged\n"
        return out
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

    @Option(name: .long, help: "Output file (default: standard output).")
    var output: String?

    @Flag(name: .long, help: "Write the rows that are there even when cases are missing or duplicated (a duplicated case keeps its first input's rows).")
    var allowPartial = false

    func run() throws {
        try OutputPathCheck.refuseOverwritingInputs(inputs.map { .init(option: "", url: URL(fileURLWithPath: $0)) }, output: output)
        let report = try CommandSupport.guarded {
            try ShardMerge.merge(try inputs.map { name in
                let url = URL(fileURLWithPath: name)
                return ShardMerge.Input(name: name, rows: try MetricsCSV.readLocated(url, displayName: name),
                                        run: try ShardRunInfo.read(besides: url, displayName: name))
            })
        }
        let merged = report.rows
        for file in report.unchecked {
            CommandSupport.printError("\(file): note: no run.json recording the sweep beside it; its rows are merged, but missing cases cannot be named")
        }
        for problem in report.problems() { CommandSupport.printError("merge: \(allowPartial ? "warning" : "error"): \(problem)") }
        if !report.isComplete && !allowPartial {
            CommandSupport.printError("merge: nothing written; run the missing shards (or merge each shard once), or pass --allow-partial to write the rows that are there")
            throw CommandSupport.failed
        }
        try CommandSupport.guarded { try CommandSupport.emit(MetricsCSV.render(merged), to: output) }
        if merged.contains(where: { $0.status == .fail }) { throw CommandSupport.failed }
    }
}

extension LatencyComparison: ExpressibleByArgument {}
