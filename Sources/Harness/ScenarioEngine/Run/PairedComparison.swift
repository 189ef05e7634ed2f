import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports

/// How a compared row stands against the reference system's row (`compare`'s `verdict` column).
public enum PairedVerdict: String, Sendable, Codable, CaseIterable {
    /// The reference system's own row.
    case reference
    /// Significantly better than the reference at α = 0.05, by the metric's polarity.
    case better
    /// Significantly worse than the reference at α = 0.05, by the metric's polarity.
    case worse
    /// Significantly different from the reference, for a metric with no better side.
    case different
    /// The difference is within chance at α = 0.05.
    case noSignificantDifference = "no_significant_difference"
    /// No test or interval is defined: no reference row, a maximum or count without items, or a
    /// row without an interval on either side.
    case untested
}

/// Which method gave a compared row's `p_value` or `delta` interval (`compare`'s `method` column).
public enum PairedMethod: String, Sendable, Codable, CaseIterable {
    /// Correctness outcomes paired by item: McNemar's exact test and a paired bootstrap interval.
    case mcNemarExact = "mcnemar_exact"
    /// Numeric errors paired by item: Wilcoxon's signed-rank test and a paired bootstrap interval.
    case wilcoxonSignedRank = "wilcoxon_signed_rank"
    /// No paired items: the MOVER interval of the difference of the two rows' own intervals.
    case mover
    /// Nothing was tested.
    case none = ""
}

/// One row of `compare`'s long table: a system's figure beside the reference system's.
public struct ComparedRow: Sendable, Equatable {
    /// The case label (`scenario` of `metrics.csv`).
    public var scenario: String
    /// Requirement ID.
    public var requirement: String
    /// Metric name.
    public var metric: String
    /// The system's name (`--system NAME=…`).
    public var system: String
    /// Unit of `value`, `delta` and their intervals.
    public var unit: String
    /// The system's value.
    public var value: Double
    /// Samples behind `value`.
    public var samples: Int
    /// The row's threshold verdict.
    public var status: MetricStatus
    /// The 95 % interval of `value` (nil where none is defined).
    public var ci: ConfidenceInterval?
    /// `value` minus the reference's, on the items both scored (nil for the reference itself, or
    /// without a reference row).
    public var delta: Double?
    /// The 95 % interval of `delta`.
    public var deltaCI: ConfidenceInterval?
    /// The two-sided p-value of the paired test (nil without paired items).
    public var pValue: Double?
    /// The method behind `pValue` and `deltaCI`.
    public var method: PairedMethod
    /// The verdict at α = 0.05.
    public var verdict: PairedVerdict
    /// Items paired with the reference's (0 without items).
    public var pairs: Int

    /// The significance level of every verdict.
    public static let alpha = 0.05
}

/// The per-item outcomes of one system's run, indexed by case, requirement and metric.
public struct ItemIndex: Sendable {
    private var outcomes: [String: [ItemOutcome]] = [:]

    /// An index of `rows` (an `items.csv` read back).
    public init(_ rows: [ItemsCSVRow]) {
        for r in rows {
            outcomes[Self.key(r.caseLabel, r.record.requirement, r.record.metric), default: []].append(r.record.outcome)
        }
    }

    static func key(_ scenario: String, _ requirement: String, _ metric: String) -> String {
        scenario + "\u{1F}" + requirement + "\u{1F}" + metric
    }

    /// The outcomes behind `row`, in the order scored.
    public func outcomes(of row: MetricRow) -> [ItemOutcome] {
        outcomes[Self.key(row.scenario, row.requirement, row.metric)] ?? []
    }

    /// The outcomes of `reference` and `candidate` for the same items, in the reference's order: an
    /// item named `k` times on each side is paired occurrence by occurrence.
    static func pairs(_ reference: [ItemOutcome], _ candidate: [ItemOutcome]) -> [(ItemOutcome, ItemOutcome)] {
        var byItem: [String: [ItemOutcome]] = [:]
        for o in candidate { byItem[o.item, default: []].append(o) }
        var taken: [String: Int] = [:]
        var out: [(ItemOutcome, ItemOutcome)] = []
        for o in reference {
            let k = taken[o.item, default: 0]
            guard let list = byItem[o.item], k < list.count else { continue }
            taken[o.item] = k + 1
            out.append((o, list[k]))
        }
        return out
    }
}

/// What the items behind a row are, and how the row's value follows from them.
enum ItemMeasure: Equatable {
    /// Right/wrong outcomes whose share of right ones is the value (accuracy, hit rates).
    case shareCorrect
    /// Right/wrong outcomes whose number of wrong ones is the value (mismatch counts).
    case countWrong
    /// Numeric errors whose statistic (mean or a quantile) is the value.
    case errors(Bootstrap.Statistic)
    /// Numeric errors aggregated otherwise (a maximum, minimum or sum): tested, no interval.
    case errorsOther(MetricAggregate?)

    /// The measure of `row` given its own items and its metric's aggregate; nil when the items are
    /// not the row's samples (none, mixed, or their figure is not the row's value).
    static func of(_ row: MetricRow, items: [ItemOutcome], aggregate: MetricAggregate?) -> ItemMeasure? {
        guard !items.isEmpty else { return nil }
        let tolerance = 1e-9 * max(1, abs(row.value))
        if items.allSatisfy({ $0.correct != nil }) {
            let right = items.filter { $0.correct == true }.count
            if abs(Double(right) / Double(items.count) - row.value) <= tolerance { return .shareCorrect }
            if abs(Double(items.count - right) - row.value) <= tolerance { return .countWrong }
            return nil
        }
        guard items.allSatisfy({ $0.error?.isFinite == true }) else { return nil }
        let errors = items.map { $0.error! }
        switch aggregate {
        case .mean: return close(statistic(.mean, errors), row.value) ? .errors(.mean) : nil
        case .quantile(let p): return close(statistic(.quantile(p), errors), row.value) ? .errors(.quantile(p)) : nil
        case .max: return close(errors.max(), row.value) ? .errorsOther(aggregate) : nil
        case .min: return close(errors.min(), row.value) ? .errorsOther(aggregate) : nil
        case .sum, .nonZeroSum: return close(errors.reduce(0, +), row.value) ? .errorsOther(aggregate) : nil
        case .correlation, nil: return nil
        }
    }

    /// Whether `a` is `b` up to rounding in the last digits.
    static func close(_ a: Double?, _ b: Double) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= 1e-9 * max(1, abs(b))
    }

    /// `statistic` of `values` (the quantile is type 7, as `Quantiles`); nil when empty.
    static func statistic(_ statistic: Bootstrap.Statistic, _ values: [Double]) -> Double? {
        switch statistic {
        case .mean: return Quantiles.mean(values)
        case .quantile(let p): return Quantiles.quantile(sorted: values.sorted(), probability: p)
        }
    }

    /// The figure `aggregate` makes of `values`, for the measures without an interval.
    static func figure(_ aggregate: MetricAggregate?, _ values: [Double]) -> Double? {
        switch aggregate {
        case .max: return values.max()
        case .min: return values.min()
        case .sum, .nonZeroSum: return values.isEmpty ? nil : values.reduce(0, +)
        default: return nil
        }
    }
}

/// `compare`'s statistics: each system's rows beside the reference (first) system's, paired by item
/// where both runs' `items.csv` hold the items behind a row (docs/outputs.md, "Comparing systems").
public enum PairedComparison {
    /// One system's run: its name, its rows and its items.
    public struct Run: Sendable {
        /// The system's name.
        public var system: String
        /// Its `metrics.csv` rows.
        public var rows: [MetricRow]
        /// Its `items.csv`.
        public var items: ItemIndex

        /// A run; see the properties.
        public init(system: String, rows: [MetricRow], items: ItemIndex) {
            self.system = system
            self.rows = rows
            self.items = items
        }
    }

    /// A row with what its items give.
    struct Side {
        var row: MetricRow
        var items: [ItemOutcome]
        var measure: ItemMeasure?
        var ci: ConfidenceInterval?

        init(_ row: MetricRow, items index: ItemIndex, aggregate: MetricAggregate?) {
            self.row = row
            items = index.outcomes(of: row)
            measure = ItemMeasure.of(row, items: items, aggregate: aggregate)
            ci = PairedComparison.valueInterval(row, items: items, measure: measure)
        }
    }

    /// The rows of every run, grouped by metric (case, requirement, metric in order of first
    /// appearance), the reference (`runs[0]`) first in each group. `aggregate` gives a metric's
    /// aggregate (nil when it has none or is unknown).
    public static func compare(
        _ runs: [Run], aggregate: (_ requirement: String, _ metric: String) -> MetricAggregate?
    ) -> [ComparedRow] {
        var order: [String] = []
        var cells: [String: [Int: MetricRow]] = [:]
        for (i, run) in runs.enumerated() {
            for row in run.rows {
                let k = ItemIndex.key(row.scenario, row.requirement, row.metric)
                if cells[k] == nil { order.append(k) }
                cells[k, default: [:]][i] = row
            }
        }
        var out: [ComparedRow] = []
        for k in order {
            let group = cells[k]!
            let reference = group[0].map {
                Side($0, items: runs[0].items, aggregate: aggregate($0.requirement, $0.metric))
            }
            for i in runs.indices {
                guard let row = group[i] else { continue }
                let side =
                    i == 0
                    ? reference! : Side(row, items: runs[i].items, aggregate: aggregate(row.requirement, row.metric))
                out.append(compared(side, system: runs[i].system, isReference: i == 0, reference: reference))
            }
        }
        return out
    }

    /// The compared row of `side` against `reference`.
    static func compared(_ side: Side, system: String, isReference: Bool, reference: Side?) -> ComparedRow {
        let r = side.row
        var c = ComparedRow(
            scenario: r.scenario, requirement: r.requirement, metric: r.metric, system: system, unit: r.unit,
            value: r.value, samples: r.samples, status: r.status, ci: side.ci, delta: nil, deltaCI: nil, pValue: nil,
            method: .none, verdict: .untested, pairs: 0)
        if isReference {
            c.delta = 0
            c.verdict = .reference
            return c
        }
        guard let reference else { return c }
        if let paired = pairedDifference(reference, side, system: system) {
            (c.delta, c.deltaCI, c.pValue, c.method, c.pairs) =
                (paired.delta, paired.ci, paired.p, paired.method, paired.pairs)
            c.verdict = verdict(
                // No p-value: no item differs (Wilcoxon drops zero differences), so nothing is significant.
                delta: paired.delta, significant: (paired.p ?? 1) < ComparedRow.alpha, polarity: paired.polarity,
                reference: reference.row, candidate: r)
            return c
        }
        c.delta = r.value - reference.row.value
        if let a = reference.ci, let b = side.ci, r.value.isFinite, reference.row.value.isFinite {
            let ci = Intervals.difference(reference: reference.row.value, a, candidate: r.value, b)
            (c.deltaCI, c.method) = (ci, .mover)
            c.verdict = verdict(
                delta: c.delta!, significant: !ci.contains(0), polarity: r.direction, reference: reference.row,
                candidate: r)
        }
        return c
    }

    /// The 95 % interval of a row's value: its own `ci`, else Wilson for a share (of right items,
    /// or a `ratio` row whose value times its samples is a whole number), else a bootstrap of the
    /// mean or quantile of its items' errors on the case's named stream `bootstrap/<req>/<metric>`.
    static func valueInterval(_ row: MetricRow, items: [ItemOutcome], measure: ItemMeasure?) -> ConfidenceInterval? {
        if let ci = row.ci { return ci }
        guard row.samples > 0, row.value.isFinite else { return nil }
        switch measure {
        case .shareCorrect:
            return Intervals.wilson(proportion: row.value, trials: row.samples)
        case .errors(let statistic):
            let stream = RandomStream(seed: row.seed).substream(named: "bootstrap/\(row.requirement)/\(row.metric)")
            return Bootstrap.interval(statistic, of: items.compactMap(\.error), stream: stream)
        case .countWrong, .errorsOther:
            return nil
        case nil:
            let successes = row.value * Double(row.samples)
            guard row.unit == "ratio", (0...1).contains(row.value),
                abs(successes - successes.rounded()) <= 1e-6 * Double(row.samples)
            else { return nil }
            return Intervals.wilson(proportion: row.value, trials: row.samples)
        }
    }
}

extension PairedComparison {
    /// The paired difference of two rows over the items both scored.
    struct Paired {
        var delta: Double
        var ci: ConfidenceInterval?
        var p: Double?
        var method: PairedMethod
        var pairs: Int
        /// Which way the items' measure improves.
        var polarity: Direction
    }

    /// Candidate minus reference over the paired items, with its interval and test; nil when the
    /// rows' items are not comparable (no items, different measures, no item in common). The
    /// bootstrap draws from the candidate's case seed, stream `paired/<req>/<metric>/<system>`.
    static func pairedDifference(_ reference: Side, _ candidate: Side, system: String) -> Paired? {
        guard let measure = reference.measure, candidate.measure == measure else { return nil }
        let pairs = ItemIndex.pairs(reference.items, candidate.items)
        guard !pairs.isEmpty else { return nil }
        let row = candidate.row
        let stream = RandomStream(seed: row.seed).substream(named: "paired/\(row.requirement)/\(row.metric)/\(system)")
        let n = Double(pairs.count)
        switch measure {
        case .shareCorrect, .countWrong:
            let right = (pairs.map { $0.0.correct == true ? 1.0 : 0 }, pairs.map { $0.1.correct == true ? 1.0 : 0 })
            // b: only the reference right; c: only the candidate right.
            let b = zip(right.0, right.1).filter { $0 == 1 && $1 == 0 }.count
            let c = zip(right.0, right.1).filter { $0 == 0 && $1 == 1 }.count
            let p = PairedTests.mcNemarExact(referenceOnly: b, candidateOnly: c)
            if measure == .shareCorrect {
                let ci = Bootstrap.pairedDifference(.mean, reference: right.0, candidate: right.1, stream: stream)
                return Paired(
                    delta: Double(c - b) / n, ci: ci, p: p, method: .mcNemarExact, pairs: pairs.count,
                    polarity: .higherIsBetter)
            }
            let wrong = (right.0.map { 1 - $0 }, right.1.map { 1 - $0 })
            let ci = Bootstrap.pairedDifference(.mean, reference: wrong.0, candidate: wrong.1, stream: stream).map {
                ConfidenceInterval(low: $0.low * n, high: $0.high * n)
            }
            return Paired(
                delta: Double(b - c), ci: ci, p: p, method: .mcNemarExact, pairs: pairs.count, polarity: .lowerIsBetter)
        case .errors(let statistic):
            let (er, ec) = (pairs.map { $0.0.error! }, pairs.map { $0.1.error! })
            let delta = ItemMeasure.statistic(statistic, ec)! - ItemMeasure.statistic(statistic, er)!
            let ci = Bootstrap.pairedDifference(statistic, reference: er, candidate: ec, stream: stream)
            let p = PairedTests.wilcoxonSignedRank(zip(ec, er).map { $0 - $1 })
            return Paired(
                delta: delta, ci: ci, p: p, method: .wilcoxonSignedRank, pairs: pairs.count, polarity: .lowerIsBetter)
        case .errorsOther(let aggregate):
            let (er, ec) = (pairs.map { $0.0.error! }, pairs.map { $0.1.error! })
            guard let a = ItemMeasure.figure(aggregate, ec), let b = ItemMeasure.figure(aggregate, er) else {
                return nil
            }
            let p = PairedTests.wilcoxonSignedRank(zip(ec, er).map { $0 - $1 })
            return Paired(
                delta: a - b, ci: nil, p: p, method: .wilcoxonSignedRank, pairs: pairs.count, polarity: .lowerIsBetter)
        }
    }

    /// The verdict of a difference: `untested` when nothing says whether it is significant,
    /// `no_significant_difference` when it is not (or `delta` is 0), else `better` or `worse` by
    /// `polarity` (`exact`: nearer the threshold is better), `different` for a metric with no side.
    static func verdict(
        delta: Double, significant: Bool?, polarity: Direction, reference: MetricRow, candidate: MetricRow
    ) -> PairedVerdict {
        guard let significant else { return .untested }
        guard significant, delta != 0, delta.isFinite else { return .noSignificantDifference }
        switch polarity {
        case .higherIsBetter: return delta > 0 ? .better : .worse
        case .lowerIsBetter: return delta < 0 ? .better : .worse
        case .exact:
            guard let t = candidate.threshold else { return .different }
            let (a, b) = (abs(candidate.value - t), abs(reference.value - t))
            return a == b ? .different : a < b ? .better : .worse
        case .none: return .different
        }
    }
}
