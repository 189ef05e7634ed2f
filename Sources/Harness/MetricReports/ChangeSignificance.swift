import FieldtestData
import FieldtestGSL
import Foundation

/// Whether a regression is more than sampling noise.
public enum Significance: String, Sendable, Equatable {
    /// The change is significant at α = 0.05 (or is no sampling question: a row lost, a check changed).
    case yes
    /// The change lies within what sampling explains at α = 0.05.
    case no
    /// Neither side has an interval or paired items: not judged (`--fail-on significant` counts it).
    case unknown
}

/// A regression's significance and how it was judged, in words.
public struct SignificanceJudgement: Sendable, Equatable {
    /// The verdict.
    public var significant: Significance
    /// How: `McNemar exact p = 0.0021 on 1347 paired items`, `MOVER 95 % interval of the change …`.
    public var basis: String

    /// A judgement; see the properties.
    public init(_ significant: Significance, _ basis: String) {
        self.significant = significant
        self.basis = basis
    }
}

/// Which regressions fail `check` and `run --baseline`.
public enum FailOn: String, Sendable, CaseIterable {
    /// Every regression (the default).
    case any
    /// Only regressions that are significant or whose significance is unknown.
    case significant
}

/// One item's outcome as `items.csv` gives it: right or wrong, and its error.
public struct ItemPoint: Sendable, Equatable {
    /// `correct` (nil when empty).
    public var correct: Bool?
    /// `error` (nil when empty).
    public var error: Double?

    /// A point; see the properties.
    public init(correct: Bool?, error: Double?) {
        self.correct = correct
        self.error = error
    }
}

/// The items of one run's `items.csv` behind some metrics, keyed by `case|requirement|metric` and
/// then by item (the nth repeat of an item id is keyed `id#n`, so repeats pair in order).
public struct ItemOutcomeTable: Sendable {
    /// Items by metric key, then by item key.
    public var items: [String: [String: ItemPoint]] = [:]

    /// An empty table.
    public init() {}

    /// The key of a metric: `case|requirement|metric` (the case is the row's `scenario` column).
    public static func key(_ row: MetricRow) -> String { "\(row.scenario)|\(row.requirement)|\(row.metric)" }

    /// Reads the items of `url` (an `items.csv`) behind the metric keys `wanted`, a run of about 2 MiB
    /// at a time, so memory holds only the wanted items. A malformed row is a located `DataError`.
    public static func read(_ url: URL, wanted: Set<String>) throws -> ItemOutcomeTable {
        var table = ItemOutcomeTable()
        var repeats: [String: Int] = [:]
        try ItemsCSV.forEachRow(url) { row in
            let key = "\(row.caseLabel)|\(row.record.requirement)|\(row.record.metric)"
            guard wanted.contains(key) else { return }
            let id = row.record.outcome.item
            let n = repeats[key + "|" + id, default: 0]
            repeats[key + "|" + id] = n + 1
            table.items[key, default: [:]][n == 0 ? id : "\(id)#\(n)"] = ItemPoint(
                correct: row.record.outcome.correct, error: row.record.outcome.error)
        }
        return table
    }
}

/// Judges whether a baseline regression is significant at α = 0.05: with paired items (the same item
/// ids behind the metric in both runs) by McNemar's exact test on right/wrong items or the Wilcoxon
/// signed-rank test on numeric errors; else by the MOVER interval of the change from the two rows'
/// 95 % intervals (significant when it excludes 0); else `unknown`.
public enum ChangeSignificance {
    /// The significance level.
    public static let alpha = 0.05

    /// How a structural regression's basis starts.
    static let structuralPrefix = "not a sampling question"

    /// A structural regression (a row lost, a check changed): significant whatever the samples.
    static func structural(_ what: String) -> SignificanceJudgement {
        SignificanceJudgement(.yes, "\(structuralPrefix): \(what)")
    }

    /// The judgement of the change from `baseline` to `current`, with the items behind each (nil when
    /// that run has no `items.csv`).
    public static func judge(
        baseline b: MetricRow, current c: MetricRow, baselineItems: [String: ItemPoint]?,
        currentItems: [String: ItemPoint]?
    ) -> SignificanceJudgement {
        if let baselineItems, let currentItems, let paired = paired(baselineItems, currentItems) {
            return paired
        }
        return byIntervals(baseline: b, current: c)
    }

    /// McNemar or Wilcoxon on the items present on both sides; nil when none pair or they are neither
    /// all right/wrong nor all numeric.
    static func paired(_ base: [String: ItemPoint], _ current: [String: ItemPoint]) -> SignificanceJudgement? {
        var pairs: [(ItemPoint, ItemPoint)] = []
        for (id, b) in base {
            if let c = current[id] { pairs.append((b, c)) }
        }
        guard !pairs.isEmpty else { return nil }
        let n = pairs.count
        if pairs.allSatisfy({ $0.0.correct != nil && $0.1.correct != nil }) {
            var baselineOnly = 0
            var currentOnly = 0
            for (b, c) in pairs where b.correct != c.correct {
                if b.correct == true { baselineOnly += 1 } else { currentOnly += 1 }
            }
            let p = PairedTests.mcNemarExact(referenceOnly: baselineOnly, candidateOnly: currentOnly)
            return SignificanceJudgement(
                p < alpha ? .yes : .no,
                "McNemar exact p = \(FieldtestNumber.format(p)) on \(n) paired items "
                    + "(\(baselineOnly) right only in the baseline, \(currentOnly) only in this run)")
        }
        if pairs.allSatisfy({ $0.0.error != nil && $0.1.error != nil }) {
            // Sorted by item so the sum of ranks does not depend on the dictionary's order.
            let differences = pairs.map { $0.1.error! - $0.0.error! }.sorted()
            guard let p = PairedTests.wilcoxonSignedRank(differences) else {
                return SignificanceJudgement(.no, "no item's error changed over \(n) paired items")
            }
            return SignificanceJudgement(
                p < alpha ? .yes : .no, "Wilcoxon signed-rank p = \(FieldtestNumber.format(p)) on \(n) paired items")
        }
        return nil
    }

    /// The MOVER interval of `current − baseline` from the rows' intervals.
    static func byIntervals(baseline b: MetricRow, current c: MetricRow) -> SignificanceJudgement {
        guard let cci = c.ci, let bci = baselineInterval(b, like: c) else {
            return SignificanceJudgement(
                .unknown,
                "no paired items, and no 95 % interval for \(c.ci == nil ? "this run's" : "the baseline's") row")
        }
        let d = Intervals.difference(reference: b.value, bci, candidate: c.value, cci)
        let text = "[\(FieldtestNumber.format(d.low)), \(FieldtestNumber.format(d.high))] \(c.unit)"
        return d.contains(0)
            ? SignificanceJudgement(.no, "the 95 % interval of the change (MOVER) \(text) includes 0")
            : SignificanceJudgement(.yes, "the 95 % interval of the change (MOVER) \(text) excludes 0")
    }

    /// The baseline row's interval: its own, else, when this run's row has the Wilson interval of its
    /// value and samples (a share), the Wilson interval of the baseline's value and samples (a baseline
    /// recorded before metrics.csv had intervals).
    public static func baselineInterval(_ b: MetricRow, like c: MetricRow) -> ConfidenceInterval? {
        if let ci = b.ci { return ci }
        guard let cci = c.ci, c.samples > 0, b.samples > 0, b.value >= 0, b.value <= 1,
            Intervals.wilson(proportion: c.value, trials: c.samples) == cci
        else { return nil }
        return Intervals.wilson(proportion: b.value, trials: b.samples)
    }
}
