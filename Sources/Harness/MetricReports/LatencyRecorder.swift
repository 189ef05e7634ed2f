import FieldtestGSL
import Histogram

/// Collects latency samples (seconds) in an HDR histogram with microsecond
/// resolution and three significant digits, and summarises them as the
/// p50 / p95 / p99 / max rows the reports carry.
///
/// Percentiles are Hyndman–Fan type 7 (`Quantiles`, the one quantile definition of every report)
/// over the histogram's buckets, each bucket standing for its count of samples at the highest
/// value it holds (HDR's convention: at most 0.1 % above the samples it holds). So every sample
/// counts, however many there are, and memory stays that of the histogram.
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

    /// The histogram's non-empty buckets in ascending order: each bucket's value (seconds; its highest
    /// equivalent value, kept within the smallest and largest recorded) and how many samples it holds.
    /// The counts add up to `count`.
    public var buckets: (seconds: [Double], counts: [UInt64]) {
        var seconds: [Double] = []
        var counts: [UInt64] = []
        guard count > 0 else { return ([], []) }
        let low = histogram.min
        let high = histogram.maxRecorded
        for v in histogram.recordedValues() {
            seconds.append(Double(min(max(v.value, low), high)) / 1_000_000)
            counts.append(UInt64(v.count))
        }
        return (seconds, counts)
    }

    /// The latency at `percentile` (0–100) in seconds, type 7 over the buckets; 0 when empty.
    public func seconds(atPercentile percentile: Double) -> Double {
        let b = buckets
        return Self.quantile(b.seconds, weights: b.counts, probability: percentile / 100) ?? 0
    }

    /// The type-7 quantile at `probability` (0…1) of ascending `values`, each repeated `weights[i]`
    /// times: the same number `Quantiles.quantile(sorted:probability:)` gives on the repeated values,
    /// in O(buckets) time and no copy. Nil when the weights add up to 0.
    public static func quantile(_ values: [Double], weights: [UInt64], probability: Double) -> Double? {
        let total = weights.reduce(0, +)
        guard total > 0, values.count == weights.count else { return nil }
        // GSL's arithmetic (`gsl_stats_quantile_from_sorted_data`), so both give the same bits.
        let h = min(max(probability, 0), 1) * Double(total - 1)
        let lowRank = UInt64(h.rounded(.down))
        let delta = h - Double(lowRank)
        var seen: UInt64 = 0
        var low: Double?
        for (v, w) in zip(values, weights) {
            seen += w
            if low == nil && seen > lowRank {
                if lowRank == total - 1 { return v }
                low = v
            }
            if let low, seen > lowRank + 1 { return (1 - delta) * low + delta * v }
        }
        return values.last
    }

    /// Merges another recorder's samples into this one.
    public mutating func merge(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
        count += other.count
        maximumSeconds = max(maximumSeconds, other.maximumSeconds)
    }

    /// The four summary rows for this recorder. The threshold (if any) is
    /// applied to the percentile named by `checkedPercentile`, the others are `info`.
    /// The percentile rows carry a 95 % percentile-bootstrap interval over the histogram's buckets
    /// (`Bootstrap`, resampling every sample as a multinomial draw over the buckets), from the stream
    /// `bootstrap/<requirement>/<metric>_pNN` of the row's seed; `_max` has none, nor any row when
    /// `intervals` is false.
    public func rows(
        base: MetricRow.Template, metric: String, threshold: Double?,
        checkedPercentile: LatencyPercentile = .p95, intervals: Bool = true
    ) -> [MetricRow] {
        let b = buckets
        return LatencyPercentile.allCases.map { p in
            let name = "\(metric)_\(p.rawValue)"
            let checked = p == checkedPercentile
            var value = maximumSeconds
            var ci: ConfidenceInterval?
            if p != .max {
                value = Self.quantile(b.seconds, weights: b.counts, probability: p.percentile / 100) ?? 0
            }
            if p != .max && intervals {
                ci = Bootstrap.interval(
                    .quantile(p.percentile / 100), of: b.seconds, weights: b.counts,
                    stream: RandomStream(seed: base.seed).substream(named: "bootstrap/\(base.requirement)/\(name)"))
            }
            return base.row(
                metric: name, kind: .latency, value: value, unit: "s",
                threshold: checked ? threshold : nil, comparator: checked ? .lessOrEqual : .none,
                samples: count, ci: ci)
        }
    }
}

/// One latency series' full HDR histogram: its non-empty buckets (`LatencyRecorder.buckets`), which
/// `latency-histogram.csv` holds so a report draws every sample, not a capped sample of them.
public struct LatencyHistogramRecord: Sendable, Equatable {
    /// Requirement ID and series name (the stem of its `_p50/_p95/_p99/_max` rows).
    public var requirement: String, metric: String
    /// Each bucket's value, seconds (ascending), and how many samples it holds.
    public var seconds: [Double], counts: [UInt64]

    /// A record; see the properties.
    public init(requirement: String, metric: String, seconds: [Double], counts: [UInt64]) {
        self.requirement = requirement
        self.metric = metric
        self.seconds = seconds
        self.counts = counts
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

        /// A row for this requirement; `ci` is its 95 % interval, in `unit`, where one is defined.
        public func row(
            metric: String, kind: MetricKind, value: Double, unit: String, threshold: Double?,
            comparator: ThresholdComparator, samples: Int, ci: ConfidenceInterval? = nil
        ) -> MetricRow {
            MetricRow(
                scenario: scenario, runID: runID, seed: seed, requirement: requirement, metric: metric,
                kind: kind, value: value, unit: unit, threshold: threshold, comparator: comparator,
                samples: samples, ci: ci)
        }

        /// The same template for another requirement.
        public func requirement(_ id: String) -> Template {
            Template(scenario: scenario, runID: runID, seed: seed, requirement: id)
        }
    }
}
