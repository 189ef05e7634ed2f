import Histogram

/// Collects latency samples (seconds) in an HDR histogram with microsecond
/// resolution and three significant digits, and summarises them as the
/// p50 / p95 / p99 / max rows the reports carry.
public struct LatencyRecorder: Sendable {
    private var histogram = Histogram<UInt64>(
        highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    /// Number of samples recorded.
    public private(set) var count = 0
    /// Largest sample recorded, exactly (seconds).
    public private(set) var maximumSeconds = 0.0

    public init() {}

    /// Records one latency in seconds (negative values count as zero; values
    /// above one hour are clamped to one hour).
    public mutating func record(seconds: Double) {
        let clamped = min(max(seconds, 0), 3600)
        let micros = UInt64((clamped * 1_000_000).rounded())
        _ = histogram.record(micros)
        count += 1
        maximumSeconds = max(maximumSeconds, clamped)
    }

    /// The latency at `percentile` (0–100) in seconds; 0 when empty.
    public func seconds(atPercentile percentile: Double) -> Double {
        count == 0 ? 0 : Double(histogram.valueAtPercentile(percentile)) / 1_000_000
    }

    /// Merges another recorder's samples into this one.
    public mutating func merge(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
        count += other.count
        maximumSeconds = max(maximumSeconds, other.maximumSeconds)
    }

    /// The four summary rows for this recorder. The threshold (if any) is
    /// applied to the percentile named by `checkedPercentile`, the others are `info`.
    public func rows(
        base: MetricRow.Template, metric: String, threshold: Double?,
        checkedPercentile: LatencyPercentile = .p95
    ) -> [MetricRow] {
        LatencyPercentile.allCases.map { p in
            let value = p == .max ? maximumSeconds : seconds(atPercentile: p.percentile)
            let checked = p == checkedPercentile
            return base.row(
                metric: "\(metric)_\(p.rawValue)", kind: .latency, value: value, unit: "s",
                threshold: checked ? threshold : nil, comparator: checked ? .lessOrEqual : .none,
                samples: count)
        }
    }
}

/// The latency percentiles every report gives.
public enum LatencyPercentile: String, Sendable, CaseIterable {
    case p50, p95, p99, max

    /// Percentile in 0–100.
    public var percentile: Double {
        switch self {
        case .p50: return 50
        case .p95: return 95
        case .p99: return 99
        case .max: return 100
        }
    }
}

extension MetricRow {
    /// The fields every row of one run shares.
    public struct Template: Sendable {
        public var scenario: String
        public var runID: String
        public var seed: UInt64
        public var requirement: String

        public init(scenario: String, runID: String, seed: UInt64, requirement: String) {
            self.scenario = scenario
            self.runID = runID
            self.seed = seed
            self.requirement = requirement
        }

        /// A row for this requirement.
        public func row(
            metric: String, kind: MetricKind, value: Double, unit: String, threshold: Double?,
            comparator: ThresholdComparator, samples: Int
        ) -> MetricRow {
            MetricRow(
                scenario: scenario, runID: runID, seed: seed, requirement: requirement, metric: metric,
                kind: kind, value: value, unit: unit, threshold: threshold, comparator: comparator,
                samples: samples)
        }

        /// The same template for another requirement.
        public func requirement(_ id: String) -> Template {
            Template(scenario: scenario, runID: runID, seed: seed, requirement: id)
        }
    }
}
