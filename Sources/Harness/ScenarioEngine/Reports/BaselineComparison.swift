import FieldtestData
import Foundation
import MetricReports

/// `fieldtest check`: a run's `metrics.csv` compared with a baseline file, latency rows only when
/// both are known to come from the same machine (or when asked).
public enum BaselineComparison {
    /// Why a comparison could not be made.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The baseline file does not exist.
        case missingBaseline(String)
        /// A baseline folder was given, and the scenario of the current metrics is not known.
        case unknownScenario(current: String, folder: String)

        public var description: String {
            switch self {
            case .missingBaseline(let path):
                return "\(path): error: missing baseline; record one with 'fieldtest run --record-baseline DIR'"
            case .unknownScenario(let current, let folder):
                return "\(current): error: no run.json beside it and rows of several scenarios (or none), so the "
                    + "baseline in \(folder) cannot be chosen; give --baseline \(folder)/<scenario>.csv"
            }
        }
    }

    /// The baseline file `baseline` names for the metrics file `current`: `baseline` itself when it
    /// is a file, else (a folder, as `run --baseline DIR` takes) `DIR/<scenario>.csv`, the scenario
    /// named by the `run.json` beside `current` or else by its rows' case labels.
    public static func baselineFile(_ baseline: String, current: String, rows: [MetricRow]) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: baseline, isDirectory: &isDirectory), isDirectory.boolValue
        else { return baseline }
        let recorded = try ShardRunInfo.read(besides: URL(fileURLWithPath: current), displayName: current)?.scenario
        let labels = Set(rows.map { String($0.scenario.prefix { $0 != "[" }) })
        guard let scenario = recorded ?? (labels.count == 1 ? labels.first : nil) else {
            throw Problem.unknownScenario(current: current, folder: baseline)
        }
        return URL(fileURLWithPath: baseline).appendingPathComponent("\(scenario).csv").path
    }

    /// The outcome of `check`: the comparison, the current rows and the baseline file read.
    public struct Outcome: Sendable {
        /// Row by row comparison.
        public var report: CheckReport
        /// The rows of the current metrics file.
        public var rows: [MetricRow]
        /// The baseline file compared with (for a folder, its `<scenario>.csv`).
        public var baselineFile: String
    }

    /// Compares the rows of the metrics file `current` with those of `baseline` (a metrics CSV, or a
    /// folder of `<scenario>.csv` baselines) under the tolerance settings (`NAME=VALUE`); see
    /// `check(current:baseline:tolerances:compareLatency:requirements:note:)`.
    public static func compare(
        current: String, baseline: String, tolerances settings: [String],
        compareLatency: LatencyComparison, requirements: Set<String>,
        note: (String) -> Void
    ) throws -> CheckReport {
        try check(
            current: current, baseline: baseline, tolerances: settings, compareLatency: compareLatency,
            requirements: requirements, note: note
        ).report
    }

    /// Compares the rows of the metrics file `current` with those of `baseline` under the tolerance
    /// settings (`NAME=VALUE`). `baseline` is a metrics CSV, or a folder holding `<scenario>.csv`
    /// (`baselineFile`). Latency rows are compared when `compareLatency` is `always`, or
    /// `sameMachine` and the baseline folder's `machine.json` names the machine in the `run.json`
    /// beside `current`; `note` is told when they are not compared for want of that. A per-requirement
    /// tolerance must name one of `requirements` (the catalogue, `AppRegistry.requirementIDs`) or a metric.
    /// Regressions are judged on paired items when `items.csv` lies beside `current` and the baseline's
    /// items file (`BaselineSelection.itemsFile`) beside it, else on the rows' intervals.
    public static func check(
        current: String, baseline: String, tolerances settings: [String],
        compareLatency: LatencyComparison, requirements: Set<String>, virtualClockLatency: Set<String> = [],
        note: (String) -> Void
    ) throws -> Outcome {
        var tolerances = Tolerances()
        for t in settings { try tolerances.apply(t) }
        tolerances.virtualClockLatency = virtualClockLatency
        guard FileManager.default.fileExists(atPath: baseline) else { throw Problem.missingBaseline(baseline) }
        let located = try MetricsCSV.readLocated(URL(fileURLWithPath: current), displayName: current)
        try ShardRunInfo.read(besides: URL(fileURLWithPath: current), displayName: current)?
            .checkPair(rows: located, file: current)
        let cur = located.map(\.row)
        let baseline = try baselineFile(baseline, current: current, rows: cur)
        guard FileManager.default.fileExists(atPath: baseline) else { throw Problem.missingBaseline(baseline) }
        let base = try MetricsCSV.read(URL(fileURLWithPath: baseline), displayName: baseline)
        if base.isEmpty { throw CheckError.emptyBaseline(baseline) }
        try tolerances.checkOverrideNames(metrics: Set((cur + base).map(\.metric)), requirements: requirements)
        let recorded = MachineIdentity.recorded(in: URL(fileURLWithPath: baseline).deletingLastPathComponent())
        let measured = RunReport.machine(besides: URL(fileURLWithPath: current))
        tolerances.comparesLatency =
            compareLatency == .always
            || (compareLatency == .sameMachine && recorded != nil && recorded == measured)
        if !tolerances.comparesLatency && compareLatency == .sameMachine {
            note(
                "note: the run and the baseline are not known to come from the same machine; latency rows are checked against their thresholds only (--compare-latency always compares them anyway)"
            )
        }
        let currentURL = URL(fileURLWithPath: current)
        let report = try BaselineCheck.compare(current: cur, baseline: base, tolerances: tolerances)
            .judgingPairedItems(
                baselineItems: BaselineSelection.itemsFile(ofBaselineFile: URL(fileURLWithPath: baseline)),
                currentItems: currentURL.deletingLastPathComponent().appendingPathComponent(ItemsCSV.fileName))
        return Outcome(report: report, rows: cur, baselineFile: baseline)
    }
}
