import FieldtestData

/// One scored item behind a metric: a tweet, a sun event, a route query, a fingerprint. The rows
/// of `items.csv` let a user find the items behind every figure of `metrics.csv`.
public struct ItemOutcome: Sendable, Equatable {
    /// What was scored, identified so a user can find it in the input (a tweet's id, a route
    /// query's ends, `Lincoln 2023-01-24 sunset`).
    public var item: String
    /// The reference: what the answer should have been (a label, a time, a length).
    public var expected: String
    /// What the system under test answered (empty when it gave no answer).
    public var answer: String
    /// Whether the answer is right, where right and wrong are defined (nil otherwise).
    public var correct: Bool?
    /// The error of the answer in the metric's unit, where one is defined (nil otherwise).
    public var error: Double?

    /// An item outcome; see the properties.
    public init(item: String, expected: String, answer: String, correct: Bool? = nil, error: Double? = nil) {
        self.item = item
        self.expected = expected
        self.answer = answer
        self.correct = correct
        self.error = error
    }
}

/// An item outcome of a requirement's metric.
public struct ItemRecord: Sendable, Equatable {
    /// Requirement ID.
    public var requirement: String
    /// Metric name.
    public var metric: String
    /// The outcome.
    public var outcome: ItemOutcome

    /// A record of `outcome` behind `requirement`'s `metric`.
    public init(requirement: String, metric: String, outcome: ItemOutcome) {
        self.requirement = requirement
        self.metric = metric
        self.outcome = outcome
    }
}

/// `items.csv`: one row per scored item, RFC 4180, `case,requirement,metric,item,expected,answer,
/// correct,error` (`correct` is `true`, `false` or empty; `error` a number in the metric's unit or
/// empty). Rows come in the order the items were scored, case by case; the same scenario and seed
/// give the same bytes.
public enum ItemsCSV {
    /// The file's name in a report folder.
    public static let fileName = "items.csv"

    /// The columns, in order.
    public static let columns = ["case", "requirement", "metric", "item", "expected", "answer", "correct", "error"]

    /// The header line.
    public static var header: String { columns.joined(separator: ",") + "\n" }

    /// The rows of `records` of case `label`, without the header.
    public static func rows(_ records: [ItemRecord], case label: String) -> String {
        var w = CSVWriter()
        for r in records {
            let o = r.outcome
            w.row([
                label, r.requirement, r.metric, o.item, o.expected, o.answer,
                o.correct.map { $0 ? "true" : "false" } ?? "",
                o.error.map { CSVWriter.exactNumber($0) } ?? "",
            ])
        }
        return w.text
    }
}
