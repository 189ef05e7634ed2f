import FieldtestData
import Foundation

/// A model's class probabilities for held-out tweets with their true classes: what a
/// prior correction is chosen on.
public struct HeldOutPredictions: Sendable, Equatable {
    /// Natural logarithms of the class probabilities, per tweet, indexed by `SentimentLabel.rawValue`.
    public var logProbabilities: [[Double]]
    /// The true classes, one per tweet.
    public var labels: [SentimentLabel]

    /// Creates predictions.
    public init(logProbabilities: [[Double]] = [], labels: [SentimentLabel] = []) {
        self.logProbabilities = logProbabilities
        self.labels = labels
    }

    /// Macro-averaged recall over the classes present when `offsets` (log-odds per class) are
    /// added before taking the most probable class. Ties go to the lower class index, as in
    /// `SentimentPrediction.label`. Complexity: O(tweets).
    public func macroRecall(offsets o: [Double]) -> Double {
        var hit = [0, 0, 0]
        var total = [0, 0, 0]
        for (lp, y) in zip(logProbabilities, labels) {
            var best = 0
            var top = lp[0] + o[0]
            for c in 1..<3 where lp[c] + o[c] > top {
                best = c
                top = lp[c] + o[c]
            }
            total[y.rawValue] += 1
            if best == y.rawValue { hit[y.rawValue] += 1 }
        }
        let recalls = (0..<3).filter { total[$0] > 0 }.map { Double(hit[$0]) / Double(total[$0]) }
        return recalls.isEmpty ? 0 : recalls.reduce(0, +) / Double(recalls.count)
    }
}

/// Leave-one-part-out training (`HeldOutPart`: a whole source, or one year of the SemEval
/// tweets) and the prior correction chosen on it.
///
/// Class balancing makes the training decision favour no class, but tweets of another year
/// or source come with another class mix and vocabulary; a random split of the training
/// sources cannot show how far the decision then drifts (a random TweetEval split promised a
/// macro-recall of 0.640 that fell to 0.586 on a later year). So each part is held out in turn,
/// a model is trained on the rest, and the neutral log-odds offset that maximises the mean
/// macro-recall over the held-out three-class parts (each part counting once, whatever its
/// size) becomes `TrainingConfiguration.classLogOffsets` of the shipped model. Only the neutral
/// decision is moved, so binary (positive vs negative) decisions keep their trained accuracy.
public enum SentimentCalibration {
    /// Neutral offsets tried: −1.5…1.5 in steps of 0.05.
    public static let offsetGrid: [Double] = (-30...30).map { Double($0) * 0.05 }

    /// The offsets (0, t, 0) with t from `offsetGrid` maximising the mean over `parts` of
    /// `macroRecall(offsets:)`, and that mean. Only the neutral decision moves: the negative and
    /// positive biases keep their difference, so the positive-vs-negative decision (and the
    /// sign of P(pos) − P(neg)) is exactly the trained one. Ties go to the smaller |t| (the
    /// smaller correction), then to the earlier grid point. Complexity: O(grid × tweets).
    public static func bestOffsets(_ parts: [HeldOutPredictions]) -> (offsets: [Double], meanMacroRecall: Double) {
        var best: [Double] = [0, 0, 0]
        var bestScore = -1.0
        for t in offsetGrid {
            let o = [0, t, 0]
            let score = parts.isEmpty ? 0 : parts.map { $0.macroRecall(offsets: o) }.reduce(0, +) / Double(parts.count)
            let better = score > bestScore + 1e-12 || (abs(score - bestScore) <= 1e-12 && abs(t) < abs(best[1]))
            if better {
                best = o
                bestScore = score
            }
        }
        return (best, bestScore)
    }

    /// Results for one held-out part.
    public struct PartResult: Sendable {
        /// The part held out.
        public var part: HeldOutPart
        /// Tweets trained on (everything else, less the reserved share and duplicates of held-out tweets).
        public var trainingCount: Int
        /// Training tweets dropped because their text repeats a held-out tweet.
        public var droppedDuplicates: Int
        /// The model's predictions on the part (with the configuration's own offsets).
        public var predictions: HeldOutPredictions
        /// Evaluation with the configuration's offsets.
        public var evaluation: SourceEvaluation
        /// Evaluation with the calibrated offsets added (equal to `evaluation` when none were chosen).
        public var calibrated: SourceEvaluation
        /// Offsets that would maximise this part's macro-recall alone (three-class parts; else nil).
        public var ownBestOffsets: [Double]?
    }

    /// The outcome of `leaveOneOut`.
    public struct Outcome: Sendable {
        /// One result per held-out part, in the order given.
        public var parts: [PartResult]
        /// The offsets chosen on the calibration parts (add them to the configuration's
        /// `classLogOffsets`); zero when no calibration part has all three classes.
        public var offsets: [Double]
        /// Mean macro-recall of the calibration parts with the configuration's offsets.
        public var meanMacroRecallBefore: Double
        /// Mean macro-recall of the calibration parts with the chosen offsets added.
        public var meanMacroRecallAfter: Double
    }

    /// Holds out each of `parts` in turn from `corpus` (less the `EvaluationShare` of the reserved
    /// sources), trains on the rest with `configuration` and a generator seeded with `seed`, and
    /// scores the part. The offsets are chosen on the parts listed in `calibrateOn` that hold all
    /// three classes. Texts are featurized once and shared by the folds. Deterministic.
    /// Throws like `SentimentTrainer.checkedTrain`, and `.missingClasses(heldOut: true)` when a
    /// fold's training part lacks a class.
    public static func leaveOneOut(
        corpus: TrainingCorpus, lexicon: SentimentLexicon, configuration c: TrainingConfiguration,
        seed: UInt64, parts: [HeldOutPart], calibrateOn: Set<HeldOutPart>
    ) throws(SentimentError) -> Outcome {
        try c.validate()
        let (kept, _) = corpus.reservingEvaluationShare(of: c.reservedSources)
        let featurizer = SentimentTrainer.featurizer(c, lexicon: lexicon)
        // Featurize each distinct text once; folds take their subsets by index.
        let features = kept.examples.map { featurizer.features($0.text) }
        let tokenizer = TweetTokenizer(marksNegation: false)
        let keys = kept.examples.map { TrainingCorpus.duplicateKey($0.text, tokenizer: tokenizer) }
        var results: [PartResult] = []
        var models: [SentimentModel] = []
        var heldParts: [TrainingCorpus] = []
        for part in parts {
            let heldIndices = kept.examples.indices.filter { part.contains(kept.examples[$0]) }
            guard !heldIndices.isEmpty else { throw .noExamples(file: "held-out part \(part)") }
            let heldKeys = Set(heldIndices.map { keys[$0] })
            var trainIndices: [Int] = []
            var dropped = 0
            for i in kept.examples.indices where !part.contains(kept.examples[i]) {
                if heldKeys.contains(keys[i]) { dropped += 1 } else { trainIndices.append(i) }
            }
            let train = TrainingCorpus(examples: trainIndices.map { kept.examples[$0] })
            let missing = SentimentTrainer.missingClasses(in: train)
            guard missing.isEmpty else { throw .missingClasses(missing, heldOut: true) }
            try SentimentTrainer.requireTexts(in: train)
            var rng = SeededGenerator(seed: seed)
            let model = SentimentTrainer.train(
                corpus: train, features: trainIndices.map { features[$0] }, featurizer: featurizer,
                configuration: c, using: &rng)
            guard model.parametersAreFinite else { throw .nonFiniteModel }
            let held = TrainingCorpus(examples: heldIndices.map { kept.examples[$0] })
            var predictions = HeldOutPredictions()
            for i in heldIndices {
                predictions.logProbabilities.append(model.probabilities(features[i]).map { log(max($0, 1e-300)) })
                predictions.labels.append(kept.examples[i].label)
            }
            let evaluation = SentimentTrainer.evaluate(model, on: held).first!
            models.append(model)
            heldParts.append(held)
            let threeClass = Set(predictions.labels).count == 3
            results.append(
                PartResult(
                    part: part, trainingCount: train.examples.count, droppedDuplicates: dropped,
                    predictions: predictions, evaluation: evaluation, calibrated: evaluation,
                    ownBestOffsets: threeClass ? bestOffsets([predictions]).offsets : nil))
        }
        let calibration = results.filter { calibrateOn.contains($0.part) && Set($0.predictions.labels).count == 3 }.map(
            \.predictions)
        guard !calibration.isEmpty else {
            return Outcome(parts: results, offsets: [0, 0, 0], meanMacroRecallBefore: 0, meanMacroRecallAfter: 0)
        }
        let (offsets, after) = bestOffsets(calibration)
        let before = calibration.map { $0.macroRecall(offsets: [0, 0, 0]) }.reduce(0, +) / Double(calibration.count)
        // Re-score every part with the chosen offsets added to the bias (the shipped model's
        // decision): offsets are added after training, so the fold's model with them added is
        // the model trained with them.
        for k in results.indices {
            results[k].calibrated = SentimentTrainer.evaluate(
                models[k].addingClassLogOffsets(offsets), on: heldParts[k]
            ).first!
        }
        return Outcome(parts: results, offsets: offsets, meanMacroRecallBefore: before, meanMacroRecallAfter: after)
    }
}

extension SentimentModel {
    /// The model with `offsets` (log-odds, indexed by `SentimentLabel.rawValue`) added to its
    /// class biases (Naive Bayes: log priors).
    public func addingClassLogOffsets(_ offsets: [Double]) -> SentimentModel {
        guard offsets.count == 3 else { return self }
        switch self {
        case .naiveBayes(var m):
            m.logPriors = zip(m.logPriors, offsets).map { $0 + $1 }
            return .naiveBayes(m)
        case .logisticRegression(var m):
            m.bias = zip(m.bias, offsets).map { $0 + $1 }
            return .logisticRegression(m)
        }
    }
}

extension SentimentCalibration {
    /// A plain-text report: per part, the evaluation with the configuration's offsets and with
    /// the chosen ones (`SentimentTrainer.report` columns), then the chosen offsets.
    public static func report(_ outcome: Outcome) -> String {
        func f(_ x: Double) -> String { String(format: "%.2f", x) }
        var lines: [String] = []
        for r in outcome.parts {
            let own = r.ownBestOffsets.map { " (best for this part alone: \($0.map(f).joined(separator: ",")))" } ?? ""
            lines.append(
                "held out \(r.part): \(r.predictions.labels.count) tweets; trained on \(r.trainingCount)"
                    + " (\(r.droppedDuplicates) duplicates of held-out tweets left out)\(own)")
            lines.append(SentimentTrainer.report([r.evaluation, r.calibrated], rowNames: ["as trained", "+ offsets"]))
        }
        lines.append(
            "chosen --class-offsets \(outcome.offsets.map(f).joined(separator: ",")) (added to the configured ones): "
                + String(
                    format: "mean macro-recall of the calibration parts %.3f → %.3f",
                    outcome.meanMacroRecallBefore, outcome.meanMacroRecallAfter))
        return lines.joined(separator: "\n") + "\n"
    }
}
