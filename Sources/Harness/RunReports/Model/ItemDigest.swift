import FieldtestData
import Foundation
import MetricReports

/// What the accuracy figures need of `items.csv`, read in one pass with bounded memory: per series
/// (requirement and metric) of labelled answers a confusion matrix, per series of numeric errors the
/// absolute errors.
public struct ItemDigest: Sendable, Equatable {
    /// Labels a confusion matrix holds at most; a series of more is not a classifier's.
    public static let maximumLabels = 12
    /// Errors kept per series for the distribution (the first ones); the rest are counted.
    public static let maximumErrors = 100_000

    /// Expected label against the answer of a classifier's items.
    public struct Confusion: Sendable, Equatable {
        public var requirement: String, metric: String
        /// The labels in order of first appearance (expected and answered).
        public var labels: [String]
        /// Count by expected label, then answer (`""` when the system gave none).
        public var counts: [String: [String: Int]]
        /// Items counted.
        public var total: Int
    }

    /// The absolute errors of a series, in the metric's unit.
    public struct Errors: Sendable, Equatable {
        public var requirement: String, metric: String
        /// Absolute errors kept (at most `maximumErrors`), ascending.
        public var values: [Double]
        /// Items with an error, kept or not.
        public var total: Int
    }

    /// Classifier series in order of first appearance.
    public var confusions: [Confusion] = []
    /// Error series in order of first appearance.
    public var errors: [Errors] = []

    /// The digest of the `items.csv` at `url` (an empty one when absent).
    public static func read(_ url: URL) throws -> ItemDigest {
        guard FileManager.default.fileExists(atPath: url.path) else { return ItemDigest() }
        var order: [String] = []
        var labelled: [String: Confusion] = [:]
        var notClassifier = Set<String>()
        var errorOrder: [String] = []
        var errors: [String: Errors] = [:]
        try ItemsCSV.forEachRow(url) { row in
            let r = row.record
            let key = r.requirement + "|" + r.metric
            let o = r.outcome
            if let e = o.error, e.isFinite {
                if errors[key] == nil {
                    errorOrder.append(key)
                    errors[key] = Errors(requirement: r.requirement, metric: r.metric, values: [], total: 0)
                }
                errors[key]!.total += 1
                if errors[key]!.values.count < maximumErrors { errors[key]!.values.append(abs(e)) }
            }
            guard !notClassifier.contains(key) else { return }
            // A classifier's item: judged right or wrong, with no numeric error.
            guard o.correct != nil, o.error == nil, !o.expected.isEmpty else {
                notClassifier.insert(key)
                labelled[key] = nil
                return
            }
            if labelled[key] == nil {
                order.append(key)
                labelled[key] = Confusion(
                    requirement: r.requirement, metric: r.metric, labels: [], counts: [:], total: 0)
            }
            var c = labelled[key]!
            for label in [o.expected, o.answer] where !label.isEmpty && !c.labels.contains(label) {
                c.labels.append(label)
            }
            guard c.labels.count <= maximumLabels else {
                notClassifier.insert(key)
                labelled[key] = nil
                return
            }
            c.counts[o.expected, default: [:]][o.answer, default: 0] += 1
            c.total += 1
            labelled[key] = c
        }
        var digest = ItemDigest()
        // Answers from outside the expected labels (times, names) make it no classifier.
        digest.confusions = order.compactMap { labelled[$0] }.filter { c in
            let expected = Set(c.counts.keys)
            // Each expected label seen twice on average, else the "labels" are item names (times, places).
            return c.labels.count >= 2 && c.total >= 2 * expected.count
                && c.counts.values.allSatisfy { $0.keys.allSatisfy { $0.isEmpty || expected.contains($0) } }
        }
        digest.errors = errorOrder.compactMap { errors[$0] }.map {
            var e = $0
            e.values.sort()
            return e
        }
        return digest
    }
}
