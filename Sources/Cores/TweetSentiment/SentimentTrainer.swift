import FieldtestData
import Foundation

/// How a model is trained from a `TrainingCorpus`.
///
/// Three classes from unbalanced sources: Sentiment140 (100k tweets) has no
/// neutral class and noisy emoticon labels, so its examples are down-weighted
/// (`sourceWeights`), and then every class gets the same total weight
/// (`balancesClasses`, the "balanced" weighting of King & Zeng 2001), so the
/// neutral tweets of the SemEval, airline, TweetEval and VADER sets count as much as
/// the positives or negatives. Sentiment140's labels train only the choice between positive and
/// negative (`posNegOnlySources`). The airline tweets (one narrow domain, mostly
/// complaints) are down-weighted too. The SemEval and TweetEval tweets (the TweetEval
/// validation tweets are SemEval 2016 tweets) weigh 1 each. `classLogOffsets` then
/// moves the decision for the class mix of unseen tweets (`SentimentCalibration`;
/// see `Datasets/models/README.md`).
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
        .sentiment140: 0.1, .airline: 0.1, .tweetEval: 1, .semEval: 1, .vader: 1.5, .labelledCSV: 1,
    ]
    /// Whether the classes are re-weighted to equal total weight.
    public var balancesClasses: Bool = true
    /// Whether, before `balancesClasses`, the classes of each source are re-weighted to equal
    /// weight within the source (the source keeps its total weight). The sources come with
    /// different class mixes (the airline tweets are two-thirds negative, Sentiment140 has no
    /// neutral class); balancing only the totals lets a source's own mix, and with it its style
    /// and vocabulary, pull a class's decision.
    public var balancesClassesWithinSources: Bool = false
    /// Sources whose labels are read as positive-versus-negative only (partial labels): their
    /// examples train the choice between the two polar classes and say nothing about neutral
    /// (`LogisticRegressionClassifier.train(posNegOnly:)`). Sentiment140's emoticon labels mark a
    /// tweet's polarity, not that it is not neutral. Logistic regression only; Naive Bayes counts
    /// every example.
    public var posNegOnlySources: Set<CorpusSource> = [.sentiment140]
    /// Sources whose `EvaluationShare` is kept out of training (and development) and scored
    /// separately: by default the airline tweets, which the miCity scenarios replay.
    public var reservedSources: Set<CorpusSource> = [.airline]
    /// Logistic-regression hyper-parameters.
    public var logisticRegression = LogisticRegressionClassifier.Hyperparameters(
        epochs: 6, learningRate: 0.02, l2: 1e-5)
    /// Naive Bayes smoothing pseudo-count.
    public var naiveBayesAlpha: Double = 0.5
    /// Weight of the lexicon compound in the polarity score.
    public var lexiconScoreWeight: Double = 0.4
    /// Log-odds added to each class's bias (Naive Bayes: log prior) after training, indexed by
    /// `SentimentLabel.rawValue`: a prior correction for the class mix of tweets the model will
    /// meet, chosen on held-out sources (`SentimentCalibration`), not on a random split of the
    /// training sources. Zero leaves the trained decision unchanged.
    public var classLogOffsets: [Double] = [0, 0, 0]

    /// The defaults.
    public init() {}

    /// Accepted `logisticRegression.learningRate`: above 0, at most 10 (AdaGrad base step; the default is 0.02).
    public static let learningRateRange: ClosedRange<Double> = Double.leastNonzeroMagnitude...10
    /// Accepted `logisticRegression.l2` (penalty per example step): 0…1.
    public static let l2Range: ClosedRange<Double> = 0...1
    /// Accepted `logisticRegression.epochs`: 1…1000.
    public static let epochsRange: ClosedRange<Int> = 1...1000
    /// Accepted source weights: 0…10⁶ (0 leaves a source's tweets out of training).
    public static let sourceWeightRange: ClosedRange<Double> = 0...1e6
    /// Accepted `classLogOffsets` entries: −10…10.
    public static let classLogOffsetRange: ClosedRange<Double> = -10...10
    /// Accepted `hashBits`, and `charBits` unless 0: 4…26.
    public static let bitsRange: ClosedRange<Int> = 4...26

    /// Checks every setting is within its documented range; throws `SentimentError.invalidConfiguration`
    /// naming the setting (as its `fieldtest train sentiment` option where there is one) otherwise.
    public func validate() throws(SentimentError) {
        func bad(_ parameter: String, _ reason: String) -> SentimentError {
            .invalidConfiguration(parameter: parameter, reason: reason)
        }
        let h = logisticRegression
        guard h.learningRate.isFinite, Self.learningRateRange.contains(h.learningRate) else {
            throw bad("--learning-rate", "is \(h.learningRate); it must be above 0 and at most 10 (default 0.02)")
        }
        guard h.l2.isFinite, Self.l2Range.contains(h.l2) else {
            throw bad("--l2", "is \(h.l2); it must be in 0…1 (default 1e-05)")
        }
        guard Self.epochsRange.contains(h.epochs) else {
            throw bad("--epochs", "is \(h.epochs); it must be in 1…1000 (default 6)")
        }
        guard (0...h.epochs).contains(h.averagedEpochs) else {
            throw bad(
                "--averaged-epochs",
                "is \(h.averagedEpochs); it must be in 0…\(h.epochs) (the epochs trained; default 0)")
        }
        for source in CorpusSource.allCases {
            guard let w = sourceWeights[source] else { continue }
            guard w.isFinite, Self.sourceWeightRange.contains(w) else {
                throw bad("--source-weight", "\(source.rawValue)=\(w) is out of range; a weight must be in 0…1000000")
            }
        }
        guard Self.bitsRange.contains(hashBits) else { throw bad("hash bits", "are \(hashBits); they must be in 4…26") }
        guard charBits == 0 || Self.bitsRange.contains(charBits) else {
            throw bad("--char-bits", "is \(charBits); it must be 0 or in 4…26")
        }
        guard naiveBayesAlpha.isFinite, naiveBayesAlpha > 0 else {
            throw bad("Naive Bayes alpha", "must be a finite number above 0")
        }
        guard lexiconScoreWeight.isFinite, (0...1).contains(lexiconScoreWeight) else {
            throw bad("lexicon score weight", "must be in 0…1")
        }
        guard classLogOffsets.count == 3,
            classLogOffsets.allSatisfy({ $0.isFinite && Self.classLogOffsetRange.contains($0) })
        else {
            throw bad(
                "--class-offsets",
                "are \(classLogOffsets); give three numbers (negative,neutral,positive), each in −10…10")
        }
    }
}

/// Per-source results of evaluating a model on labelled examples.
public struct SourceEvaluation: Sendable, Equatable {
    /// The source (nil: every source together).
    public var source: CorpusSource?
    /// Confusion matrix of the decisions (over the evaluated classes only; see `SentimentTrainer.evaluate`).
    public var confusion: ConfusionMatrix
    /// Accuracy on positive/negative examples when the decision is P(pos) vs
    /// P(neg) (the binary protocol of Go et al. 2009); nil without such examples.
    public var binaryAccuracy: Double?
    /// Pearson r of score vs human mean rating (VADER tweets only).
    public var pearsonR: Double?
    /// The classes decisions were taken among.
    public var classes: Set<SentimentLabel> = Set(SentimentLabel.allCases)

    /// Macro-averaged recall over `classes` (over all three: the SemEval-2017 Task 4A metric).
    public var macroRecall: Double { Self.mean(orderedClasses.map(confusion.recall)) }
    /// Macro-averaged F1 over `classes`.
    public var macroF1: Double { Self.mean(orderedClasses.map(confusion.f1)) }
    /// `classes` in raw-value order (so sums do not depend on set order).
    public var orderedClasses: [SentimentLabel] { SentimentLabel.allCases.filter(classes.contains) }

    static func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }
}

extension SentimentPrediction {
    /// The most probable class among `classes` (among all three when `classes` is empty or
    /// holds all three: then `label`). Ties go to the class with the lower raw value, as for `label`.
    /// With `[.negative, .positive]` this is the binary decision P(pos) vs P(neg).
    public func label(among classes: Set<SentimentLabel>) -> SentimentLabel {
        guard !classes.isEmpty, classes.count < 3, probabilities.count == 3 else { return label }
        var best: SentimentLabel? = nil
        for c in SentimentLabel.allCases where classes.contains(c) {
            if best == nil || probabilities[c.rawValue] > probabilities[best!.rawValue] { best = c }
        }
        return best ?? label
    }
}

/// Trains and evaluates sentiment models. Pure: no I/O, no clock.
public enum SentimentTrainer {
    /// Example weights: source weight × class-balancing factor.
    public static func weights(for corpus: TrainingCorpus, configuration c: TrainingConfiguration) -> [Double] {
        var w = corpus.examples.map { c.sourceWeights[$0.source] ?? 1 }
        if c.balancesClassesWithinSources {
            var totals: [CorpusSource: [Double]] = [:]
            for (i, e) in corpus.examples.enumerated() {
                totals[e.source, default: [0, 0, 0]][e.label.rawValue] += w[i]
            }
            for (i, e) in corpus.examples.enumerated() {
                guard let t = totals[e.source], t[e.label.rawValue] > 0 else { continue }
                let present = t.filter { $0 > 0 }
                w[i] *= present.reduce(0, +) / Double(present.count) / t[e.label.rawValue]
            }
        }
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

    /// The classes of `SentimentLabel.allCases` (in that order) with no example in `corpus`.
    public static func missingClasses(in corpus: TrainingCorpus) -> [SentimentLabel] {
        var seen = Set<SentimentLabel>()
        for e in corpus.examples { seen.insert(e.label) }
        return SentimentLabel.allCases.filter { !seen.contains($0) }
    }

    /// Throws `.blankTexts` when every example of some class has a blank text (so the class would
    /// be learnt from no words at all).
    static func requireTexts(in corpus: TrainingCorpus) throws(SentimentError) {
        var withText = Set<SentimentLabel>()
        var blank = 0
        for e in corpus.examples {
            if e.text.trimmedOfWhitespace.isEmpty { blank += 1 } else { withText.insert(e.label) }
        }
        let present = Set(corpus.examples.map(\.label))
        let textless = SentimentLabel.allCases.filter { present.contains($0) && !withText.contains($0) }
        guard textless.isEmpty else { throw .blankTexts(textless, blank: blank, total: corpus.examples.count) }
    }

    /// `train`, guarded: throws `.zeroTotalWeight` when every example weighs 0, `.missingClasses`
    /// when a class has examples of weight 0 only (their source weights are 0), `.blankTexts` when a
    /// class has blank texts only, and `.nonFiniteModel`
    /// when the trained parameters are not all finite (training diverged), so a broken model is
    /// never returned. The checks run once per training, outside the per-tweet paths.
    public static func checkedTrain(
        corpus: TrainingCorpus, lexicon: SentimentLexicon, configuration c: TrainingConfiguration,
        using rng: inout some RandomNumberGenerator
    ) throws(SentimentError) -> SentimentModel {
        var classWeight = [0.0, 0.0, 0.0]
        for e in corpus.examples { classWeight[e.label.rawValue] += c.sourceWeights[e.source] ?? 1 }
        guard classWeight.reduce(0, +) > 0 else { throw .zeroTotalWeight }
        let unweighted = SentimentLabel.allCases.filter { classWeight[$0.rawValue] == 0 }
        guard unweighted.isEmpty else { throw .missingClasses(unweighted, heldOut: false) }
        try requireTexts(in: corpus)
        let model = train(corpus: corpus, lexicon: lexicon, configuration: c, using: &rng)
        guard model.parametersAreFinite else { throw .nonFiniteModel }
        return model
    }

    /// Trains a model on `corpus`. Same corpus, lexicon, configuration and
    /// generator state ⇒ identical parameters. Complexity: O(epochs × features).
    public static func train(
        corpus: TrainingCorpus, lexicon: SentimentLexicon, configuration c: TrainingConfiguration,
        using rng: inout some RandomNumberGenerator
    ) -> SentimentModel {
        let featurizer = featurizer(c, lexicon: lexicon)
        let features = corpus.examples.map { featurizer.features($0.text) }
        return train(corpus: corpus, features: features, featurizer: featurizer, configuration: c, using: &rng)
    }

    /// The featurizer `configuration` describes.
    static func featurizer(_ c: TrainingConfiguration, lexicon: SentimentLexicon) -> SentimentFeaturizer {
        SentimentFeaturizer(
            hashBits: c.hashBits, usesBigrams: c.usesBigrams, charBits: c.charBits,
            charGramLengths: c.charGramLengths, normalizesGrams: c.normalizesGrams, lexicon: lexicon)
    }

    /// Trains on `corpus` whose texts `featurizer` has already turned into `features` (one per
    /// example, in order), then adds `classLogOffsets`.
    static func train(
        corpus: TrainingCorpus, features: [SparseFeatures], featurizer: SentimentFeaturizer,
        configuration c: TrainingConfiguration, using rng: inout some RandomNumberGenerator
    ) -> SentimentModel {
        let labels = corpus.examples.map(\.label)
        let w = weights(for: corpus, configuration: c)
        let model: SentimentModel
        switch c.kind {
        case .naiveBayes:
            model = .naiveBayes(
                NaiveBayesClassifier.train(
                    featurizer: featurizer, examples: features, labels: labels, weights: w,
                    alpha: c.naiveBayesAlpha, lexiconScoreWeight: c.lexiconScoreWeight))
        case .logisticRegression:
            model = .logisticRegression(
                LogisticRegressionClassifier.train(
                    featurizer: featurizer, examples: features, labels: labels, weights: w,
                    posNegOnly: corpus.examples.map { c.posNegOnlySources.contains($0.source) },
                    hyperparameters: c.logisticRegression, lexiconScoreWeight: c.lexiconScoreWeight, using: &rng))
        }
        // Adding zeros changes no bit, so a model trained without offsets is unchanged.
        return c.classLogOffsets == [0, 0, 0] ? model : model.addingClassLogOffsets(c.classLogOffsets)
    }

    /// Evaluates `model` on `corpus`, one result per source present (then one for all sources
    /// together when `includesTotal`). With `classes` restricted (e.g. `[.negative, .positive]` for
    /// Sentiment140's manual test set, as Go et al. 2009 evaluated it), examples of other classes are
    /// left out and each decision is the most probable of `classes` (`SentimentPrediction.label(among:)`).
    /// Complexity: O(total tokens).
    public static func evaluate(
        _ model: some SentimentClassifier, on corpus: TrainingCorpus,
        classes: Set<SentimentLabel> = Set(SentimentLabel.allCases), includesTotal: Bool = false
    ) -> [SourceEvaluation] {
        let classes = classes.isEmpty ? Set(SentimentLabel.allCases) : classes
        var bySource: [CorpusSource: EvaluationTally] = [:]
        var total = EvaluationTally()
        var scorer = (model as? SentimentModel).map { SentimentScorer(model: $0) }
        for e in corpus.examples where classes.contains(e.label) {
            let p = scorer?.predict(e.text) ?? model.predict(e.text)
            bySource[e.source, default: EvaluationTally()].add(e, p, classes: classes)
            if includesTotal { total.add(e, p, classes: classes) }
        }
        var out = CorpusSource.allCases.compactMap { s in bySource[s]?.evaluation(s, classes: classes) }
        if includesTotal, total.confusion.total > 0 { out.append(total.evaluation(nil, classes: classes)) }
        return out
    }

    /// A plain-text table of evaluations (per-class precision/recall, macro-F1,
    /// macro-recall, accuracy, binary accuracy, Pearson r). Rows are named by source (`all` for the
    /// total) unless `rowNames` gives a name per evaluation.
    public static func report(_ evaluations: [SourceEvaluation], rowNames: [String]? = nil) -> String {
        func f(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "-" }
        var lines = [
            "source        n      acc    bin-acc  macroF1  macroR   P-neg  R-neg  P-neu  R-neu  P-pos  R-pos  pearson"
        ]
        for (k, e) in evaluations.enumerated() {
            let c = e.confusion
            let name = rowNames.flatMap { k < $0.count ? $0[k] : nil } ?? e.source?.rawValue ?? "all"
            func p(_ l: SentimentLabel) -> String { e.classes.contains(l) ? f(c.precision(l)) : "-" }
            func r(_ l: SentimentLabel) -> String { e.classes.contains(l) ? f(c.recall(l)) : "-" }
            let cells = [
                f(c.accuracy), f(e.binaryAccuracy), f(e.macroF1), f(e.macroRecall),
                p(.negative), r(.negative), p(.neutral), r(.neutral), p(.positive), r(.positive), f(e.pearsonR),
            ]
            lines.append(
                name.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(c.total).padding(toLength: 7, withPad: " ", startingAt: 0)
                    + cells.map { $0.padding(toLength: 7, withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }
}

/// Running counts of one evaluation row (see `SentimentTrainer.evaluate`).
struct EvaluationTally {
    var confusion = ConfusionMatrix()
    var binaryCorrect = 0, binaryCount = 0
    var scores: [Double] = [], ratings: [Double] = []

    mutating func add(_ e: TrainingExample, _ p: SentimentPrediction, classes: Set<SentimentLabel>) {
        confusion.add(actual: e.label, predicted: p.label(among: classes))
        if e.label != .neutral {
            binaryCount += 1
            if p.label(among: [.negative, .positive]) == e.label { binaryCorrect += 1 }
        }
        if let m = e.meanRating {
            scores.append(p.score)
            ratings.append(m)
        }
    }

    func evaluation(_ source: CorpusSource?, classes: Set<SentimentLabel>) -> SourceEvaluation {
        SourceEvaluation(
            source: source, confusion: confusion,
            binaryAccuracy: binaryCount > 0 ? Double(binaryCorrect) / Double(binaryCount) : nil,
            pearsonR: Correlation.pearson(scores, ratings), classes: classes)
    }
}
