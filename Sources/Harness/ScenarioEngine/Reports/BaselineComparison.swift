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

        public var description: String {
            switch self {
            case .missingBaseline(let path):
                return "\(path): error: missing baseline; record one with 'fieldtest run --record-baseline DIR'"
            }
        }
    }

    /// Compares the rows of the metrics file `current` with those of `baseline` under the tolerance
    /// settings (`NAME=VALUE`). Latency rows are compared when `compareLatency` is `always`, or
    /// `sameMachine` and the baseline folder's `machine.json` names the machine in the `run.json`
    /// beside `current`; `note` is told when they are not compared for want of that. A per-requirement
    /// tolerance must name one of `requirements` (the catalogue, `AppRegistry.requirementIDs`) or a metric.
    /// Regressions are judged on paired items when `items.csv` lies beside `current` and the baseline's
    /// items file (`BaselineSelection.itemsFile`) beside it, else on the rows' intervals.
    public static func compare(
        current: String, baseline: String, tolerances settings: [String],
        compareLatency: LatencyComparison, requirements: Set<String>,
        note: (String) -> Void
    ) throws -> CheckReport {
        var tolerances = Tolerances()
        for t in settings { try tolerances.apply(t) }
        guard FileManager.default.fileExists(atPath: baseline) else { throw Problem.missingBaseline(baseline) }
        let located = try MetricsCSV.readLocated(URL(fileURLWithPath: current), displayName: current)
        try ShardRunInfo.read(besides: URL(fileURLWithPath: current), displayName: current)?
            .checkPair(rows: located, file: current)
        let cur = located.map(\.row)
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
        return try BaselineCheck.compare(current: cur, baseline: base, tolerances: tolerances).judgingPairedItems(
            baselineItems: BaselineSelection.itemsFile(ofBaselineFile: URL(fileURLWithPath: baseline)),
            currentItems: currentURL.deletingLastPathComponent().appendingPathComponent(ItemsCSV.fileName))
    }
}
