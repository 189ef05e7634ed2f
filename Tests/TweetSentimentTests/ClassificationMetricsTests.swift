import FieldtestData
import Testing

@testable import TweetSentiment

@Suite("Classification metrics")
struct ClassificationMetricsTests {
    // counts[actual][predicted]; rows: negative, neutral, positive.
    //          pred:  neg neu pos
    // actual neg:      5   2   1
    // actual neu:      1   6   3
    // actual pos:      0   2   8
    let m = ConfusionMatrix(counts: [[5, 2, 1], [1, 6, 3], [0, 2, 8]])

    @Test func handComputedValues() {
        // Tolerance 1e-12: every value is a ratio of small integers.
        #expect(m.total == 28)
        #expect(abs(m.accuracy - 19.0 / 28) < 1e-12)
        #expect(abs(m.precision(.negative) - 5.0 / 6) < 1e-12)
        #expect(abs(m.precision(.neutral) - 6.0 / 10) < 1e-12)
        #expect(abs(m.precision(.positive) - 8.0 / 12) < 1e-12)
        #expect(abs(m.recall(.negative) - 5.0 / 8) < 1e-12)
        #expect(abs(m.recall(.neutral) - 6.0 / 10) < 1e-12)
        #expect(abs(m.recall(.positive) - 8.0 / 10) < 1e-12)
        let f1neg = 2 * (5.0 / 6) * (5.0 / 8) / (5.0 / 6 + 5.0 / 8)
        let f1neu = 0.6
        let f1pos = 2 * (8.0 / 12) * 0.8 / (8.0 / 12 + 0.8)
        #expect(abs(m.f1(.negative) - f1neg) < 1e-12)
        #expect(abs(m.macroF1 - (f1neg + f1neu + f1pos) / 3) < 1e-12)
        #expect(abs(m.macroRecall - (5.0 / 8 + 0.6 + 0.8) / 3) < 1e-12)
    }

    @Test func addBuildsTheSameMatrix() {
        var built = ConfusionMatrix()
        for (a, row) in m.counts.enumerated() {
            for (p, n) in row.enumerated() {
                for _ in 0..<n {
                    built.add(actual: SentimentLabel(rawValue: a)!, predicted: SentimentLabel(rawValue: p)!)
                }
            }
        }
        #expect(built == m)
    }

    @Test func emptyClassesGiveZeroNotNaN() {
        let binary = ConfusionMatrix(counts: [[3, 0, 1], [0, 0, 0], [2, 0, 4]])
        #expect(binary.precision(.neutral) == 0)
        #expect(binary.recall(.neutral) == 0)
        #expect(abs(binary.macroRecall - (0.75 + 0 + 4.0 / 6) / 3) < 1e-12)
        #expect(ConfusionMatrix().accuracy == 0)
    }

    @Test func pearson() throws {
        // x = 1…5, y = 2, 4, 5, 4, 5: r = 6 / √(10 · 6) ≈ 0.7745966692.
        let r = try #require(Correlation.pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]))
        #expect(abs(r - 6 / (60.0).squareRoot()) < 1e-12)
        #expect(abs((Correlation.pearson([1, 2, 3], [3, 2, 1]) ?? 0) + 1) < 1e-12)
        #expect(Correlation.pearson([1, 1, 1], [1, 2, 3]) == nil)
        #expect(Correlation.pearson([1], [1]) == nil)
    }
}
