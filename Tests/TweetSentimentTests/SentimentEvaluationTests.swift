import FieldtestData
import Foundation
import Testing

@testable import TweetSentiment

/// A classifier that answers fixed probabilities per text (for hand-computed evaluations).
struct FixedClassifier: SentimentClassifier {
    let answers: [String: [Double]]
    var featurizer: SentimentFeaturizer { SentimentFeaturizer(hashBits: 4, lexicon: smallLexicon) }
    func probabilities(_ features: SparseFeatures) -> [Double] { [1.0 / 3, 1.0 / 3, 1.0 / 3] }
    var lexiconScoreWeight: Double { 0 }
    func predict(_ text: String) -> SentimentPrediction {
        let p = answers[text]!
        return Self.prediction(probabilities: p, compound: 0, weight: 0)
    }
}

@Suite("Sentiment evaluation")
struct SentimentEvaluationTests {
    // Gold label, probabilities (negative, neutral, positive).
    static let cases: [(String, SentimentLabel, [Double])] = [
        ("a", .positive, [0.1, 0.2, 0.7]),  // 3-class: positive ✓   binary: positive ✓
        ("b", .positive, [0.2, 0.5, 0.3]),  // 3-class: neutral  ✗   binary: positive ✓
        ("c", .positive, [0.4, 0.5, 0.1]),  // 3-class: neutral  ✗   binary: negative ✗
        ("d", .negative, [0.6, 0.3, 0.1]),  // 3-class: negative ✓   binary: negative ✓
        ("e", .negative, [0.3, 0.6, 0.1]),  // 3-class: neutral  ✗   binary: negative ✓
        ("f", .neutral, [0.1, 0.3, 0.6]),  // 3-class: positive ✗   left out in binary
    ]

    static var corpus: TrainingCorpus {
        TrainingCorpus(examples: cases.map { TrainingExample(text: $0.0, label: $0.1, source: .sentiment140) })
    }
    static let model = FixedClassifier(answers: Dictionary(uniqueKeysWithValues: cases.map { ($0.0, $0.2) }))

    @Test func labelAmongRestrictsTheArgmax() {
        let p = SentimentPrediction(label: .neutral, score: 0.1, probabilities: [0.2, 0.5, 0.3])
        #expect(p.label(among: [.negative, .positive]) == .positive)
        #expect(p.label(among: [.negative, .neutral]) == .neutral)
        #expect(p.label(among: Set(SentimentLabel.allCases)) == .neutral)
        #expect(p.label(among: []) == .neutral)
        let tie = SentimentPrediction(label: .neutral, score: 0, probabilities: [0.25, 0.5, 0.25])
        #expect(tie.label(among: [.negative, .positive]) == .negative)
    }

    @Test func threeClassFiguresMatchTheHandComputedMatrix() throws {
        let e = try #require(SentimentTrainer.evaluate(Self.model, on: Self.corpus).first)
        #expect(e.confusion.counts == [[1, 1, 0], [0, 0, 1], [0, 2, 1]])
        #expect(e.confusion.accuracy == 2.0 / 6)
        #expect(e.binaryAccuracy == 4.0 / 5)
        // Recalls: negative 1/2, neutral 0, positive 1/3.
        #expect(abs(e.macroRecall - (0.5 + 0 + 1.0 / 3) / 3) < 1e-15)
    }

    @Test func binaryEvaluationLeavesNeutralOutAndDecidesPositiveVersusNegative() throws {
        let all = SentimentTrainer.evaluate(
            Self.model, on: Self.corpus, classes: [.negative, .positive], includesTotal: true)
        #expect(all.count == 2)
        #expect(all[1].source == nil)
        let e = all[0]
        #expect(e.confusion.counts == [[2, 0, 0], [0, 0, 0], [1, 0, 2]])
        #expect(e.confusion.accuracy == 4.0 / 5)
        #expect(e.binaryAccuracy == 4.0 / 5)
        // Recalls over the two classes only: negative 1, positive 2/3; precisions: negative 2/3, positive 1.
        #expect(abs(e.macroRecall - (1 + 2.0 / 3) / 2) < 1e-15)
        #expect(abs(e.macroF1 - (0.8 + 0.8) / 2) < 1e-12)
        #expect(all[1].confusion == e.confusion)
    }
}
