import FieldtestData
import Foundation

/// How much a metric may move against its preferred direction before a
/// baseline check calls it a regression.
///
/// Accuracy and count tolerances are absolute (in the metric's unit); latency
/// and rate tolerances are relative (a fraction of the baseline value), with an
/// absolute floor for latency so sub-millisecond jitter never counts.
public struct Tolerances: Sendable, Equatable {
    /// Absolute slack for `accuracy` rows (unit of the row). Default 1e-9: accuracy is deterministic.
    public var accuracyAbsolute = 1e-9
    /// Relative slack for `latency` rows. Default 0.5 (50 % slower): wall-clock compute time on shared CI machines is noisy.
    public var latencyRelative = 0.5
    /// Absolute floor for latency slack, seconds. Default 0.005 s.
    public var latencyFloorSeconds = 0.005
    /// Absolute slack for `count` rows. Default 0.
    public var countAbsolute = 0.0
    /// Relative slack for `rate` rows. Default 0.05.
    public var rateRelative = 0.05
    /// Whether latency rows are compared by their movement. When false (the baseline was
    /// measured on another machine, see `MachineIdentity`), a latency row regresses only by
    /// going from pass to fail against its own threshold.
    public var comparesLatency = true
    /// Per-requirement or per-metric overrides (`SKY-P1` or `sunrise_abs_error_max`), in
    /// the same sense as the row kind's default (absolute or relative).
    public var overrides: [String: Double] = [:]
    /// Latency series measured on the virtual clock, as `REQUIREMENT metric` stems (`BTD-J2 sync_latency`):
    /// deterministic, so their rows are compared on any machine, with `accuracyAbsolute` as slack.
    public var virtualClockLatency: Set<String> = []

    public init() {}

    /// Parses `NAME=VALUE` where NAME is a kind (`accuracy`, `latency`, `latency-floor`, `count`, `rate`),
    /// a requirement ID or a metric name.
    public mutating func apply(_ setting: String) throws(CheckError) {
        let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = Double(parts[1]), value.isFinite, value >= 0 else {
            throw .badTolerance(setting)
        }
        switch parts[0] {
        case "accuracy": accuracyAbsolute = value
        case "latency": latencyRelative = value
        case "latency-floor": latencyFloorSeconds = value
        case "count": countAbsolute = value
        case "rate": rateRelative = value
        default: overrides[parts[0]] = value
        }
    }

    /// The kind names `apply` accepts.
    public static let kindNames = ["accuracy", "latency", "latency-floor", "count", "rate"]

    /// Checks that every per-requirement or per-metric override names one of `requirements`
    /// (the IDs of the requirement catalogue, `AppRegistry.requirementIDs`) or one of `metrics`
    /// (the metrics of the compared rows): an override naming anything else would have no
    /// effect, so a typo would pass unnoticed. The error suggests the closest known name.
    public func checkOverrideNames(metrics: Set<String>, requirements: Set<String>) throws(CheckError) {
        for name in overrides.keys.sorted() where !requirements.contains(name) && !metrics.contains(name) {
            let candidates = Self.kindNames + requirements.sorted() + metrics.sorted()
            throw .unknownToleranceName(name, suggestion: DamerauLevenshtein.closest(to: name, in: candidates))
        }
    }

    /// The slack allowed for `baseline`, in the row's unit.
    public func slack(for baseline: MetricRow) -> Double {
        let override = overrides[baseline.metric] ?? overrides[baseline.requirement]
        let scale = abs(baseline.value.isFinite ? baseline.value : 0)
        switch baseline.kind {
        case .accuracy: return override ?? accuracyAbsolute
        case .count: return override ?? countAbsolute
        case .latency where isOnVirtualClock(baseline): return override ?? accuracyAbsolute
        case .latency: return max((override ?? latencyRelative) * scale, latencyFloorSeconds)
        case .rate: return (override ?? rateRelative) * scale
        }
    }

    /// Whether `row` is a row (`_p50`, …, `_max`) of a latency series on the virtual clock.
    public func isOnVirtualClock(_ row: MetricRow) -> Bool {
        guard row.kind == .latency, let cut = row.metric.lastIndex(of: "_") else { return false }
        return virtualClockLatency.contains(row.requirement + " " + row.metric[..<cut])
    }
}

/// Errors of `fieldtest check`.
public enum CheckError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `--tolerance` value that is not `NAME=NUMBER`.
    case badTolerance(String)
    /// The baseline has no rows to compare against.
    case emptyBaseline(String)
    /// A `--tolerance` NAME that is no kind, no requirement of the catalogue and no compared metric;
    /// with the closest known name, if one is near.
    case unknownToleranceName(String, suggestion: String?)

    public var description: String {
        switch self {
        case .badTolerance(let s):
            return
                "error: tolerance '\(s)' is not NAME=NUMBER (NAME: accuracy, latency, latency-floor, count, rate, a requirement ID or a metric name; NUMBER ≥ 0)"
        case .unknownToleranceName(let name, let suggestion):
            let hint = suggestion.map { "did you mean '\($0)'?" } ?? "fix the name."
            return
                "error: tolerance name '\(name)' is not a kind (\(Tolerances.kindNames.joined(separator: ", "))), a requirement ID "
                + "of the catalogue or a metric of the compared rows, so it would have no effect; \(hint)"
        case .emptyBaseline(let f):
            return
                "\(f):1: error: the baseline has a header but no metric rows; record one with 'fieldtest run --record-baseline DIR' first"
        }
    }
}

/// The verdict on one metric across baseline and current run.
public enum ComparisonVerdict: String, Sendable {
    case regression, improvement, unchanged, added, removed
}

/// One compared metric.
public struct MetricComparison: Sendable {
    /// Row identity (`scenario|requirement|metric`).
    public var key: String
    /// The baseline row, if present.
    public var baseline: MetricRow?
    /// The current row, if present.
    public var current: MetricRow?
    /// What happened.
    public var verdict: ComparisonVerdict
    /// A short human explanation.
    public var reason: String
    /// For a regression: whether it is more than sampling noise, and how that was judged (nil otherwise).
    public var significance: SignificanceJudgement?

    /// A comparison; see the properties.
    public init(
        key: String, baseline: MetricRow?, current: MetricRow?, verdict: ComparisonVerdict, reason: String,
        significance: SignificanceJudgement? = nil
    ) {
        self.key = key
        self.baseline = baseline
        self.current = current
        self.verdict = verdict
        self.reason = reason
        self.significance = significance
    }
}

/// Result of comparing a run with a baseline.
public struct CheckReport: Sendable {
    /// Every compared metric, in current-run order then removed rows.
    public var comparisons: [MetricComparison]
    /// The regressions only.
    public var regressions: [MetricComparison] { comparisons.filter { $0.verdict == .regression } }
    /// The improvements only.
    public var improvements: [MetricComparison] { comparisons.filter { $0.verdict == .improvement } }
    /// True when at least one metric regressed.
    public var hasRegression: Bool { comparisons.contains { $0.verdict == .regression } }
    /// The regressions that are significant or whose significance is unknown.
    public var significantRegressions: [MetricComparison] {
        regressions.filter { $0.significance?.significant != .no }
    }

    /// Whether the check fails under `policy`: any regression, or a significant (or unknown) one.
    public func fails(on policy: FailOn) -> Bool {
        switch policy {
        case .any: return hasRegression
        case .significant: return !significantRegressions.isEmpty
        }
    }

    /// The report with each regression whose value moved judged again on the items behind it, when
    /// both runs have items: `baselineItems` and `currentItems` are their `items.csv` files (nil or
    /// missing: the judgement by intervals stays). Reads only the items of those regressions.
    public func judgingPairedItems(baselineItems: URL?, currentItems: URL?) throws -> CheckReport {
        guard let baselineItems, let currentItems,
            FileManager.default.fileExists(atPath: baselineItems.path),
            FileManager.default.fileExists(atPath: currentItems.path)
        else { return self }
        let moved = comparisons.indices.filter { comparisons[$0].valueMoved }
        guard !moved.isEmpty else { return self }
        var baselineKeys = Set<String>()
        var currentKeys = Set<String>()
        for i in moved {
            baselineKeys.insert(ItemOutcomeTable.key(comparisons[i].baseline!))
            currentKeys.insert(ItemOutcomeTable.key(comparisons[i].current!))
        }
        let base = try ItemOutcomeTable.read(baselineItems, wanted: baselineKeys)
        let current = try ItemOutcomeTable.read(currentItems, wanted: currentKeys)
        var out = self
        for i in moved {
            let c = comparisons[i]
            out.comparisons[i].significance = ChangeSignificance.judge(
                baseline: c.baseline!, current: c.current!,
                baselineItems: base.items[ItemOutcomeTable.key(c.baseline!)],
                currentItems: current.items[ItemOutcomeTable.key(c.current!)])
        }
        return out
    }
}

extension MetricComparison {
    /// Whether this is a regression of the value itself (judged by a test), not of what was checked,
    /// measured or reported (those are significant whatever the samples).
    var valueMoved: Bool {
        guard verdict == .regression, let b = baseline, let c = current else { return false }
        return significance?.basis.hasPrefix(ChangeSignificance.structuralPrefix) == false
            && b.value.isFinite && c.value.isFinite
    }
}

/// Compares a run's metric rows with a baseline's, row by row.
///
/// Every row is judged by the baseline's check (its comparator and threshold), not
/// the run's, so a run cannot pass by dropping or loosening a check. A metric regresses when:
/// - it fails its threshold, whatever the baseline says (a row the baseline lacks, or failed too);
/// - a checked baseline row became unchecked or changed its comparator or threshold;
/// - it moves against its preferred direction (from the baseline's comparator; latency: lower)
///   by more than the tolerance, or an exact metric changes by more than the tolerance;
/// - an informational accuracy, count or rate row changes by more than the tolerance
///   (these are deterministic; counts are compared exactly by default);
/// - the number of samples of an accuracy, count or rate row changes, or any row's samples drop to 0;
/// - a checked baseline row is missing from the run.
/// Informational latency rows regress only by getting slower than the tolerance allows.
public enum BaselineCheck {
    public static func compare(
        current: [MetricRow], baseline: [MetricRow],
        tolerances: Tolerances = Tolerances()
    ) -> CheckReport {
        var base: [String: MetricRow] = [:]
        for r in baseline { base[r.key] = r }
        var seen = Set<String>()
        var out: [MetricComparison] = []
        for c in current {
            seen.insert(c.key)
            guard let b = base[c.key] else {
                // A failing row is a failure whether or not the baseline knew it.
                let failing = c.status == .fail
                out.append(
                    MetricComparison(
                        key: c.key, baseline: nil, current: c, verdict: failing ? .regression : .added,
                        reason: failing
                            ? "fails its threshold \(describeCheck(c)) (not in the baseline): this run "
                                + "\(FieldtestNumber.format(c.value)) \(c.unit)"
                            : "new metric",
                        significance: failing ? ChangeSignificance.structural("a failing row the baseline lacks") : nil)
                )
                continue
            }
            out.append(compare(current: c, baseline: b, tolerances: tolerances))
        }
        for b in baseline where !seen.contains(b.key) {
            let checked = b.status != .info
            out.append(
                MetricComparison(
                    key: b.key, baseline: b, current: nil, verdict: checked ? .regression : .removed,
                    reason: checked ? "checked metric missing from this run" : "metric no longer reported",
                    significance: checked ? ChangeSignificance.structural("a checked row is missing") : nil))
        }
        return CheckReport(comparisons: out)
    }

    /// The row's check as text, e.g. `<= 0`, or `no threshold`.
    static func describeCheck(_ r: MetricRow) -> String {
        guard let t = r.threshold, r.comparator != .none else { return "no threshold" }
        return "\(r.comparator.rawValue) \(FieldtestNumber.format(t))"
    }

    /// One row against its baseline row; a regression carries its significance (by the rows'
    /// intervals here; `CheckReport.judgingPairedItems` judges it again on paired items).
    static func compare(current c: MetricRow, baseline b: MetricRow, tolerances: Tolerances) -> MetricComparison {
        var judged = judge(current: c, baseline: b, tolerances: tolerances)
        guard judged.verdict == .regression, judged.significance == nil else { return judged }
        judged.significance = ChangeSignificance.byIntervals(baseline: b, current: c)
        return judged
    }

    /// The verdict on one row; structural regressions (a check changed, samples changed, no longer
    /// measured, NaN) carry their significance, a regression of the value none yet.
    static func judge(current c: MetricRow, baseline b: MetricRow, tolerances: Tolerances) -> MetricComparison {
        func result(_ v: ComparisonVerdict, _ why: String) -> MetricComparison {
            MetricComparison(key: c.key, baseline: b, current: c, verdict: v, reason: why)
        }
        func structural(_ why: String) -> MetricComparison {
            MetricComparison(
                key: c.key, baseline: b, current: c, verdict: .regression, reason: why,
                significance: ChangeSignificance.structural("not a change of the value"))
        }
        let baselineChecked = b.comparator != .none && b.threshold != nil
        if baselineChecked && (c.comparator != b.comparator || c.threshold != b.threshold) {
            return structural(
                "the baseline checks \(describeCheck(b)), this run \(describeCheck(c)); "
                    + "restore the check, or re-record the baseline if the change is intended")
        }
        let values =
            "baseline \(FieldtestNumber.format(b.value)) \(b.unit), this run \(FieldtestNumber.format(c.value)) \(c.unit)"
        if c.status == .notMeasured {
            return b.status == .notMeasured
                ? result(.unchanged, "not measured in the baseline either")
                : structural("is no longer measured: \(c.note.isEmpty ? "no sample" : c.note)")
        }
        if b.status == .notMeasured {
            return result(
                c.status == .fail ? .regression : .improvement, "now measured (\(c.status.rawValue)); \(values)")
        }
        if b.status == .pass && c.status == .fail {
            return result(.regression, "now fails its threshold \(describeCheck(c)): \(values)")
        }
        if b.status == .fail && c.status == .pass {
            return result(.improvement, "now passes its threshold")
        }
        if c.status == .fail {
            return result(
                .regression, "fails its threshold \(describeCheck(c)) (the baseline failed it too): \(values)")
        }
        let deterministic = c.kind != .latency || tolerances.isOnVirtualClock(b)
        if c.samples != b.samples && (c.samples == 0 || deterministic) {
            return structural(
                "summarises \(c.samples) samples, the baseline \(b.samples)"
                    + (c.kind != .latency
                        ? "; \(c.kind.rawValue) rows are deterministic"
                        : deterministic ? "; virtual-clock latency rows are deterministic" : ""))
        }
        if c.value.isNaN != b.value.isNaN {
            return c.value.isNaN ? structural("value became NaN") : result(.improvement, "value no longer NaN")
        }
        if c.value.isNaN { return result(.unchanged, "both NaN") }
        if b.kind == .latency && !tolerances.comparesLatency && !tolerances.isOnVirtualClock(b) {
            return result(.unchanged, "latency checked against its threshold only (baseline from another machine)")
        }
        return judgeValue(current: c, baseline: b, slack: tolerances.slack(for: b), values: values)
    }

    /// The verdict on a change of the value of two comparable rows, given the tolerance `slack`
    /// (in the rows' unit) and `values`, the two values in words.
    static func judgeValue(current c: MetricRow, baseline b: MetricRow, slack: Double, values: String)
        -> MetricComparison
    {
        func result(_ v: ComparisonVerdict, _ why: String) -> MetricComparison {
            MetricComparison(key: c.key, baseline: b, current: c, verdict: v, reason: why)
        }
        let delta = c.value - b.value
        let allowed = "\(values), allowed ±\(FieldtestNumber.format(slack)) \(c.unit)"
        switch b.direction {
        case .lowerIsBetter:
            if delta > slack {
                return result(
                    .regression,
                    "higher by \(FieldtestNumber.format(delta)) \(c.unit): \(allowed)")
            }
            if delta < -slack { return result(.improvement, "lower by \(FieldtestNumber.format(-delta)) \(c.unit)") }
        case .higherIsBetter:
            if -delta > slack {
                return result(
                    .regression,
                    "lower by \(FieldtestNumber.format(-delta)) \(c.unit): \(allowed)")
            }
            if delta > slack { return result(.improvement, "higher by \(FieldtestNumber.format(delta)) \(c.unit)") }
        case .exact:
            if abs(delta) > slack {
                return result(
                    .regression, "changed by \(FieldtestNumber.format(delta)) \(c.unit); exact metric: \(allowed)")
            }
        case .none:
            // Informational accuracy, count and rate rows are deterministic: any change beyond the tolerance is reported.
            if abs(delta) > slack {
                return result(
                    .regression,
                    "changed by \(FieldtestNumber.format(delta)) \(c.unit): \(allowed); "
                        + "informational \(b.kind.rawValue) rows are compared too")
            }
        }
        return result(.unchanged, "within tolerance")
    }
}
