import FieldtestData

/// How a model is trained from a `TrainingCorpus`.
///
/// Three classes from unbalanced sources: Sentiment140 (100k tweets) has no
/// neutral class and noisy emoticon labels, so its examples are down-weighted
/// (`sourceWeights`), and then every class gets the same total weight
/// (`balancesClasses`, the "balanced" weighting of King & Zeng 2001), so the
/// 4–5k neutral tweets of the airline, TweetEval and VADER sets count as much as
/// the positives or negatives.
public struct TrainingConfiguration: Sendable, Equatable {
    /// The model family.
    public var kind: SentimentModelKind = .logisticRegression
    /// log2 of the number of hashed n-gram buckets.
    public var hashBits: Int = 18
    /// Whether bigrams are used.
    public var usesBigrams: Bool = true
    /// log2 of the number of hashed character n-gram buckets (0 = none).
    public var charBits: Int = 18
    /// Character n-gram lengths in bytes.
    public var charGramLengths: ClosedRange<Int> = 2...5
    /// Whether word and character n-gram groups are scaled to unit length.
    public var normalizesGrams: Bool = true
    /// Weight of each example of a source (before class balancing).
    public var sourceWeights: [CorpusSource: Double] = [
        .sentiment140: 0.1, .airline: 1, .tweetEval: 5, .vader: 1.5, .labelledCSV: 1,
    ]
    /// Whether the classes are re-weighted to equal total weight.
    public var balancesClasses: Bool = true
    /// Logistic-regression hyper-parameters.
    public var logisticRegression = LogisticRegressionClassifier.Hyperparameters(epochs: 6, learningRate: 0.02, l2: 1e-5)
    /// Naive Bayes smoothing pseudo-count.
    public var naiveBayesAlpha: Double = 0.5
    /// Weight of the lexicon compound in the polarity score.
    public var lexiconScoreWeight: Double = 0.4

    /// The defaults.
    public init() {}
}

/// Per-source results of evaluating a model on labelled examples.
public struct SourceEvaluation: Sendable, Equatable {
    /// The source.
    public var source: CorpusSource
    /// Three-class confusion matrix.
    public var confusion: ConfusionMatrix
    /// Accuracy on positive/negative examples when the decision is P(pos) vs
    /// P(neg) (the binary protocol of Go et al. 2009); nil without such examples.
    public var binaryAccuracy: Double?
    /// Pearson r of score vs human mean rating (VADER tweets only).
    public var pearsonR: Double?
}

/// Trains and evaluates sentiment models. Pure: no I/O, no clock.
public enum SentimentTrainer {
    /// Example weights: source weight × class-balancing factor.
    public static func weights(for corpus: TrainingCorpus, configuration c: TrainingConfiguration) -> [Double] {
        var w = corpus.examples.map { c.sourceWeights[$0.source] ?? 1 }
        if c.balancesClasses {
            var totals = [0.0, 0.0, 0.0]
            for (i, e) in corpus.examples.enumerated() { totals[e.label.rawValue] += w[i] }
            let present = totals.filter { $0 > 0 }
            let mean = present.reduce(0, +) / Double(max(present.count, 1))
            for (i, e) in corpus.examples.enumerated() {
                let t = totals[e.label.rawValue]
                if t > 0 { w[i] *= mean / t }
            }
        }
        return w
    }

    /// Trains a model on `corpus`. Same corpus, lexicon, configuration and
    /// generator state ⇒ identical parameters. Complexity: O(epochs × features).
    public static func train(corpus: TrainingCorpus, lexicon: SentimentLexicon, configuration c: TrainingConfiguration,
                             using rng: inout some RandomNumberGenerator) -> SentimentModel {
        let featurizer = SentimentFeaturizer(hashBits: c.hashBits, usesBigrams: c.usesBigrams, charBits: c.charBits,
                                             charGramLengths: c.charGramLengths, normalizesGrams: c.normalizesGrams, lexicon: lexicon)
        let features = corpus.examples.map { featurizer.features($0.text) }
        let labels = corpus.examples.map(\.label)
        let w = weights(for: corpus, configuration: c)
        switch c.kind {
        case .naiveBayes:
            return .naiveBayes(NaiveBayesClassifier.train(featurizer: featurizer, examples: features, labels: labels, weights: w,
                                                          alpha: c.naiveBayesAlpha, lexiconScoreWeight: c.lexiconScoreWeight))
        case .logisticRegression:
            return .logisticRegression(LogisticRegressionClassifier.train(
                featurizer: featurizer, examples: features, labels: labels, weights: w,
                hyperparameters: c.logisticRegression, lexiconScoreWeight: c.lexiconScoreWeight, using: &rng))
        }
    }

    /// Evaluates `model` on `corpus`, one result per source present.
    public static func evaluate(_ model: some SentimentClassifier, on corpus: TrainingCorpus) -> [SourceEvaluation] {
        var bySource: [CorpusSource: (ConfusionMatrix, Int, Int, [Double], [Double])] = [:]
        var scorer = (model as? SentimentModel).map { SentimentScorer(model: $0) }
        for e in corpus.examples {
            let p = scorer?.predict(e.text) ?? model.predict(e.text)
            var entry = bySource[e.source] ?? (ConfusionMatrix(), 0, 0, [], [])
            entry.0.add(actual: e.label, predicted: p.label)
            if e.label != .neutral {
                entry.2 += 1
                let saysPositive = p.probabilities[2] >= p.probabilities[0]
                if saysPositive == (e.label == .positive) { entry.1 += 1 }
            }
            if let m = e.meanRating { entry.3.append(p.score); entry.4.append(m) }
            bySource[e.source] = entry
        }
        return CorpusSource.allCases.compactMap { s in
            guard let e = bySource[s] else { return nil }
            return SourceEvaluation(source: s, confusion: e.0, binaryAccuracy: e.2 > 0 ? Double(e.1) / Double(e.2) : nil,
                                    pearsonR: Correlation.pearson(e.3, e.4))
        }
    }

    /// A plain-text table of evaluations (per-class precision/recall, macro-F1,
    /// macro-recall, accuracy, binary accuracy, Pearson r).
    public static func report(_ evaluations: [SourceEvaluation]) -> String {
        func f(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "-" }
        var lines = ["source        n      acc    bin-acc  macroF1  macroR   P-neg  R-neg  P-neu  R-neu  P-pos  R-pos  pearson"]
        for e in evaluations {
            let c = e.confusion
            let cells = [f(c.accuracy), f(e.binaryAccuracy), f(c.macroF1), f(c.macroRecall),
                         f(c.precision(.negative)), f(c.recall(.negative)), f(c.precision(.neutral)), f(c.recall(.neutral)),
                         f(c.precision(.positive)), f(c.recall(.positive)), f(e.pearsonR)]
            lines.append(e.source.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)
                         + String(c.total).padding(toLength: 7, withPad: " ", startingAt: 0)
                         + cells.map { $0.padding(toLength: 7, withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }
}

import Foundation
