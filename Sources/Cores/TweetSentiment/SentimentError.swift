import FieldtestData
import Foundation

/// Problems with training or model inputs, with what to do about them.
public enum SentimentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An input file's layout could not be recognised.
    case unknownInput(file: String)
    /// A data file failed to load.
    case data(DataError)
    /// A model file is damaged or of another format or version.
    case invalidModel(file: String, reason: String)
    /// Nothing to train on.
    case emptyCorpus
    /// Holding out the development split (and the reserved share) left nothing to train on;
    /// `strata` are the `source/class` groups (e.g. `labelledCSV/positive`) whose every tweet was held out.
    case noTrainingExamplesLeft(strata: [String], developmentFraction: Double)
    /// An input file loaded without error but holds no labelled tweets (e.g. a header only).
    case noExamples(file: String)
    /// A training setting is outside its documented range.
    case invalidConfiguration(parameter: String, reason: String)
    /// The training set lacks classes the three-class model predicts.
    case missingClasses([SentimentLabel], heldOut: Bool)
    /// Every example of `classes` has an empty (or all-blank) text: `blank` of the corpus's `total`
    /// examples are blank. A class learnt from no words is not learnt.
    case blankTexts([SentimentLabel], blank: Int, total: Int)
    /// Every training example has weight 0 (e.g. `--source-weight SOURCE=0` for the only source).
    case zeroTotalWeight
    /// Training diverged: the parameters are not finite numbers.
    case nonFiniteModel

    /// A compiler-style message.
    public var description: String {
        switch self {
        case .unknownInput(let file):
            return
                "\(file): error: unrecognised labelled tweets file; use a Sentiment140 *_positive.txt/*_negative.txt or original polarity,id,date,query,user,text CSV, an airline tweets CSV, a TweetEval *_text.txt (with *_labels.txt beside it), a VADER tweets_GroundTruth file, a SemEval *.tsv (id, label, text), or a CSV with 'text' and 'label' columns"
        case .data(let e):
            return e.description
        case .invalidModel(let file, let reason):
            return "\(file): error: invalid sentiment model: \(reason)"
        case .emptyCorpus:
            return "error: no training examples; pass at least one --input file"
        case .noTrainingExamplesLeft(let strata, let fraction):
            let groups = strata.isEmpty ? "" : " for source/class \(strata.joined(separator: ", "))"
            return
                "error: holding out the development split (--dev-fraction \(fraction)) and the reserved share left no training examples\(groups); "
                + "the split holds out that fraction of each source/class group (rounded), so lower --dev-fraction (e.g. 0.2, or 0 to train on all), "
                + "reserve fewer sources (--reserve none) or add more labelled tweets"
        case .noExamples(let file):
            return
                "\(file): error: no labelled tweets in this file (only a header or blank lines); add labelled rows or leave the file out"
        case .invalidConfiguration(let parameter, let reason):
            return "error: \(parameter) \(reason)"
        case .missingClasses(let missing, let heldOut):
            let names = missing.map(\.name).joined(separator: ", ")
            return
                "error: the training data has no \(names) examples\(heldOut ? " left after holding out the development split and the reserved share" : ""); "
                + "the model predicts negative, neutral and positive, so every class needs labelled tweets: add a source with "
                + (missing == [.neutral]
                    ? "neutral tweets (e.g. the airline tweets, TweetEval or VADER files; Sentiment140 has none)"
                    : "\(names) tweets")
                + (heldOut ? ", or lower --dev-fraction / --reserve" : "")
        case .blankTexts(let classes, let blank, let total):
            return
                "error: every \(classes.map(\.name).joined(separator: ", ")) example has an empty text (\(blank) of \(total) "
                + "training tweets are blank); each class the model learns needs tweets with words: remove the blank rows "
                + "or check the text column"
        case .zeroTotalWeight:
            return "error: every training tweet has weight 0; give the sources you train on a --source-weight above 0"
        case .nonFiniteModel:
            return
                "error: training diverged (weights are not finite numbers); no model written; lower --learning-rate, --l2 or the --source-weight values"
        }
    }
}

/// The outcome of `SentimentTraining.run`.
public struct TrainingOutcome: Sendable {
    /// The model trained on the training part.
    public var model: SentimentModel
    /// Evaluation on the development part (empty when there is none).
    public var development: [SentimentModel.Evaluation]
    /// Examples trained on.
    public var trainingCount: Int
    /// Evaluation on the reserved `EvaluationShare` (empty when nothing was reserved).
    public var reserved: [SentimentModel.Evaluation] = []
    /// Examples reserved (neither trained on nor in the development part).
    public var reservedCount: Int = 0
    /// The texts trained on, by content (written beside the model).
    public var trainedTexts = TrainedTextIndex(texts: [])

    /// An outcome.
    public init(
        model: SentimentModel, development: [SentimentModel.Evaluation], trainingCount: Int,
        reserved: [SentimentModel.Evaluation] = [], reservedCount: Int = 0,
        trainedTexts: TrainedTextIndex = TrainedTextIndex(texts: [])
    ) {
        (self.model, self.development, self.trainingCount) = (model, development, trainingCount)
        (self.reserved, self.reservedCount, self.trainedTexts) = (reserved, reservedCount, trainedTexts)
    }
}

extension SentimentModel {
    /// Per-source evaluation results.
    public typealias Evaluation = SourceEvaluation
}

/// Builds the benchmark input: the bundled tweet texts cycled to a given count.
public enum SentimentBenchmarkInput {
    /// `count` tweets made by repeating `corpus`'s texts in order; line breaks
    /// inside a text become spaces so each tweet is one line for the baselines.
    /// With `sources`, only that many of the texts are cycled, evenly spaced through
    /// the corpus (so every source file keeps its share): a smaller working set, to
    /// see how much of the throughput depends on the caches. The first
    /// `min(sources, corpus size)` tweets of the result are then all different texts.
    public static func replicate(_ corpus: TrainingCorpus, count: Int, sources: Int? = nil) -> [String] {
        let all = corpus.examples.count
        let kept = min(max(sources ?? all, 0), all)
        guard kept > 0 else { return [] }
        // Example k·all/kept for k in 0..<kept: distinct indices, spread over the whole corpus.
        let texts = (0..<kept).map { k in
            let text = corpus.examples[k * all / kept].text
            // Most tweets are one line already; only those with a line break are rewritten.
            guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
            return String(decoding: text.utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
        }
        return (0..<max(count, 0)).map { texts[$0 % texts.count] }
    }

    /// Classifies every tweet and returns a checksum of the labels and scores
    /// (so the work cannot be optimised away and runs can be compared).
    public static func classifyAll(_ tweets: [String], model: SentimentModel) -> (labels: [Int], scoreSum: Double) {
        var labels = [0, 0, 0]
        var sum = 0.0
        var scorer = SentimentScorer(model: model)
        scorer.predictAll(tweets) { _, p in
            labels[p.label.rawValue] += 1
            sum += p.score
        }
        return (labels, sum)
    }
}
