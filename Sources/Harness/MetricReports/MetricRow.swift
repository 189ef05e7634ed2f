import FieldtestGSL
import Foundation

/// What a metric measures; decides the default tolerance of a baseline check.
public enum MetricKind: String, Sendable, Codable, CaseIterable {
    /// Agreement with a reference (errors, hit rates, correlations).
    case accuracy
    /// Elapsed time, in seconds, of an emulated end-to-end operation.
    case latency
    /// A number of things (entries lost, denied writes, requests).
    case count
    /// A number per unit of time or per window.
    case rate
}

/// How a value is compared with its threshold. `none` marks an informational row.
public enum ThresholdComparator: String, Sendable, Codable, CaseIterable {
    /// Passes when value ≤ threshold (lower is better).
    case lessOrEqual = "<="
    /// Passes when value ≥ threshold (higher is better).
    case greaterOrEqual = ">="
    /// Passes when value == threshold (exact requirement).
    case equal = "=="
    /// No threshold: the row is informational.
    case none = ""

    /// Whether `value` satisfies `threshold` under this comparator
    /// (`equal` allows a relative tolerance of 1e-12 for floating-point noise).
    public func accepts(_ value: Double, threshold: Double) -> Bool {
        switch self {
        case .lessOrEqual: return value <= threshold
        case .greaterOrEqual: return value >= threshold
        case .equal: return abs(value - threshold) <= 1e-12 * max(1, abs(threshold))
        case .none: return true
        }
    }
}

/// Outcome of one metric row.
public enum MetricStatus: String, Sendable, Codable, CaseIterable {
    /// The value meets its threshold over at least one sample.
    case pass
    /// The value misses its threshold (or is not a number) over at least one sample.
    case fail
    /// No threshold: the row informs.
    case info
    /// A checked row over no sample: nothing was measured, so it neither passes nor fails
    /// (its `note` says why). A requirement with such a row is not measured.
    case notMeasured = "not_measured"
}

/// Where a checked row's threshold lies against the row's 95 % interval.
public enum Margin: String, Sendable, Codable, CaseIterable {
    /// The threshold lies outside the interval: the verdict would stand with more samples.
    case clear
    /// The threshold lies inside the interval: the verdict rests on the point value alone, and more
    /// samples could turn it.
    case withinInterval = "within_interval"
}

/// Which way a metric improves.
public enum Direction: String, Sendable, Codable {
    case lowerIsBetter, higherIsBetter, exact, none
}

/// One row of `metrics.csv`: a measured value tied to a requirement, with its
/// threshold and verdict.
public struct MetricRow: Sendable, Equatable, Codable {
    /// Scenario name.
    public var scenario: String
    /// Identifier of the run (differs between runs; excluded from determinism checks).
    public var runID: String
    /// The scenario seed.
    public var seed: UInt64
    /// Requirement ID from the catalogue, e.g. `SKY-P2`.
    public var requirement: String
    /// Metric name, e.g. `sunrise_abs_error_max`.
    public var metric: String
    /// The kind of metric.
    public var kind: MetricKind
    /// The measured value, in `unit`.
    public var value: Double
    /// Unit of `value` and `threshold` (`s`, `m`, `%`, `ratio`, `count`, …).
    public var unit: String
    /// The threshold, when the row is checked.
    public var threshold: Double?
    /// How `value` is compared with `threshold`.
    public var comparator: ThresholdComparator
    /// Verdict.
    public var status: MetricStatus
    /// How many samples the value summarises.
    public var samples: Int
    /// Why the row has the status it has when the value alone does not say (empty otherwise), in
    /// words: e.g. `no query had no route` for a `not_measured` row.
    public var note: String
    /// The 95 % confidence interval of `value`, in `unit`, where one is defined (proportions: Wilson;
    /// means and quantiles: percentile bootstrap; maxima, minima and counts: none).
    public var ci: ConfidenceInterval?
    /// Whether the threshold lies inside `ci` (set with the status; `nil` without an interval, a
    /// threshold or samples).
    public var margin: Margin?

    public init(
        scenario: String, runID: String, seed: UInt64, requirement: String, metric: String,
        kind: MetricKind, value: Double, unit: String, threshold: Double?, comparator: ThresholdComparator,
        status: MetricStatus? = nil, samples: Int, note: String = "", ci: ConfidenceInterval? = nil
    ) {
        self.scenario = scenario
        self.runID = runID
        self.seed = seed
        self.requirement = requirement
        self.metric = metric
        self.kind = kind
        self.value = value
        self.unit = unit
        self.threshold = threshold
        self.comparator = threshold == nil ? .none : comparator
        self.samples = samples
        self.note = note
        self.ci = ci
        self.status = .info
        if let status {
            self.status = status
            reevaluateMargin()
        } else {
            reevaluateStatus()
        }
    }

    /// Sets `status` from the value, threshold, comparator and samples: the one rule by which a row
    /// passes. A checked row summarising no samples is `notMeasured`: nothing was measured, so it
    /// neither passes nor fails.
    public mutating func reevaluateStatus() {
        if let threshold, comparator != .none {
            if samples == 0 {
                status = .notMeasured
            } else {
                status = value.isFinite && comparator.accepts(value, threshold: threshold) ? .pass : .fail
            }
        } else {
            status = .info
        }
        reevaluateMargin()
    }

    /// Sets `margin` from the interval and the threshold: `within_interval` when a checked row with
    /// samples has an interval containing its threshold.
    public mutating func reevaluateMargin() {
        if let ci, let threshold, isChecked, samples > 0, comparator != .equal {
            margin = ci.contains(threshold) ? .withinInterval : .clear
        } else {
            margin = nil
        }
    }

    /// Whether the row has a threshold (its status is pass, fail or not measured).
    public var isChecked: Bool { threshold != nil && comparator != .none }

    /// Identity of a row across runs: scenario, seed, requirement and metric.
    public var key: String { "\(scenario)|\(seed)|\(requirement)|\(metric)" }

    /// Which way this metric improves: from its comparator, else from its kind
    /// (latency lower is better; other kinds have no preferred direction).
    public var direction: Direction {
        switch comparator {
        case .lessOrEqual: return .lowerIsBetter
        case .greaterOrEqual: return .higherIsBetter
        case .equal: return .exact
        case .none: return kind == .latency ? .lowerIsBetter : .none
        }
    }
}
