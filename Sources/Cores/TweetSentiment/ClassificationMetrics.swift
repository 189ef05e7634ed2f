import FieldtestData

/// A 3 × 3 confusion matrix: `counts[actual][predicted]`, indexed by
/// `SentimentLabel.rawValue`, with the usual derived metrics
/// (Sokolova & Lapalme 2009, "A systematic analysis of performance measures
/// for classification tasks"). A class with no predictions has precision 0;
/// one with no examples has recall 0 and is still averaged (SemEval-2017 Task 4
/// scoring, Rosenthal, Farra & Nakov 2017, averages recall over all three classes).
public struct ConfusionMatrix: Sendable, Equatable {
    /// `counts[actual][predicted]`.
    public var counts: [[Int]]

    /// An empty matrix.
    public init() { counts = Array(repeating: [0, 0, 0], count: 3) }

    /// A matrix from explicit counts (`counts[actual][predicted]`, 3 × 3).
    public init(counts: [[Int]]) {
        var m = Array(repeating: [0, 0, 0], count: 3)
        for a in 0..<min(3, counts.count) { for p in 0..<min(3, counts[a].count) { m[a][p] = counts[a][p] } }
        self.counts = m
    }

    /// Counts one decision.
    public mutating func add(actual: SentimentLabel, predicted: SentimentLabel) {
        counts[actual.rawValue][predicted.rawValue] += 1
    }

    /// Number of decisions.
    public var total: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }

    /// Fraction of correct decisions (0 when empty).
    public var accuracy: Double {
        let t = total
        return t == 0 ? 0 : Double((0..<3).reduce(0) { $0 + counts[$1][$1] }) / Double(t)
    }

    /// TP / (TP + FP) of `label`.
    public func precision(_ label: SentimentLabel) -> Double {
        let c = label.rawValue
        let predicted = (0..<3).reduce(0) { $0 + counts[$1][c] }
        return predicted == 0 ? 0 : Double(counts[c][c]) / Double(predicted)
    }

    /// TP / (TP + FN) of `label`.
    public func recall(_ label: SentimentLabel) -> Double {
        let c = label.rawValue
        let actual = counts[c].reduce(0, +)
        return actual == 0 ? 0 : Double(counts[c][c]) / Double(actual)
    }

    /// Harmonic mean of precision and recall of `label` (0 when both are 0).
    public func f1(_ label: SentimentLabel) -> Double {
        let p = precision(label)
        let r = recall(label)
        return p + r == 0 ? 0 : 2 * p * r / (p + r)
    }

    /// Unweighted mean of the three F1 scores.
    public var macroF1: Double { SentimentLabel.allCases.reduce(0) { $0 + f1($1) } / 3 }

    /// Unweighted mean of the three recalls (the SemEval-2017 Task 4A metric).
    public var macroRecall: Double { SentimentLabel.allCases.reduce(0) { $0 + recall($1) } / 3 }
}

/// Correlation measures.
public enum Correlation {
    /// Pearson's product-moment correlation of `x` and `y` (two-pass, mean
    /// centred). Nil when fewer than two pairs or either side is constant.
    /// Complexity: O(n).
    public static func pearson(_ x: [Double], _ y: [Double]) -> Double? {
        let n = min(x.count, y.count)
        guard n >= 2 else { return nil }
        var mx = 0.0
        var my = 0.0
        for i in 0..<n {
            mx += x[i]
            my += y[i]
        }
        mx /= Double(n)
        my /= Double(n)
        var sxy = 0.0
        var sxx = 0.0
        var syy = 0.0
        for i in 0..<n {
            let dx = x[i] - mx
            let dy = y[i] - my
            sxy += dx * dy
            sxx += dx * dx
            syy += dy * dy
        }
        guard sxx > 0, syy > 0 else { return nil }
        return sxy / (sxx * syy).squareRoot()
    }
}
