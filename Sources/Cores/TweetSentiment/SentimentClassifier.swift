import FieldtestData

/// A classifier's verdict on one tweet.
public struct SentimentPrediction: Sendable, Equatable {
    /// The most probable class.
    public var label: SentimentLabel
    /// Polarity in [−1, 1], from negative to positive: the model's `P(pos) − P(neg)` blended with
    /// the lexicon compound (see `LogisticRegressionClassifier.predict(_:)`). It is a graded
    /// intensity, not a second verdict: its sign can differ from `label` when the lexicon and the
    /// model disagree or the neutral class is the most probable (about 6 % of the airline tweets).
    public var score: Double
    /// Class probabilities indexed by `SentimentLabel.rawValue` (negative, neutral, positive); they sum to 1.
    public var probabilities: [Double]

    /// Creates a prediction.
    public init(label: SentimentLabel, score: Double, probabilities: [Double]) {
        self.label = label
        self.score = score
        self.probabilities = probabilities
    }
}

/// A three-class tweet sentiment classifier over `SentimentFeaturizer` features.
public protocol SentimentClassifier: Sendable {
    /// The featurizer the model was trained with.
    var featurizer: SentimentFeaturizer { get }
    /// Class probabilities (negative, neutral, positive) of a feature vector.
    func probabilities(_ features: SparseFeatures) -> [Double]
    /// Weight of the lexicon compound score in `score` (0 = probabilities only).
    var lexiconScoreWeight: Double { get }
    /// Classifies `text` (see the extension for the score's definition).
    func predict(_ text: String) -> SentimentPrediction
    /// Classifies an already tokenized tweet.
    func predict(tokens: [String]) -> SentimentPrediction
}

extension SentimentClassifier {
    /// Classifies `text`. The score is `(1 − w)·(P(pos) − P(neg)) + w·compound`,
    /// where `compound` is the VADER-normalised lexicon sum and `w` is
    /// `lexiconScoreWeight`; it always lies in [−1, 1]. Complexity: O(tokens).
    public func predict(_ text: String) -> SentimentPrediction {
        var tokens = TweetTokens()
        featurizer.tokenizer.tokenize(text, into: &tokens)
        return prediction(of: tokens)
    }

    /// Classifies an already tokenized tweet.
    public func predict(tokens: [String]) -> SentimentPrediction {
        prediction(of: TweetTokens(tokens))
    }

    /// Classifies a token buffer through `analyze` and `probabilities`.
    func prediction(of tokens: TweetTokens) -> SentimentPrediction {
        let (f, scores) = featurizer.analyze(tokens)
        let p = probabilities(f)
        let compound = lexiconScoreWeight == 0 ? 0 : scores.compound
        return Self.prediction(probabilities: p, compound: compound, weight: lexiconScoreWeight)
    }

    /// Combines probabilities and a compound score into a prediction.
    static func prediction(probabilities p: [Double], compound: Double, weight: Double) -> SentimentPrediction {
        var best = 0
        for k in 1..<min(3, p.count) where p[k] > p[best] { best = k }
        let polarity = p.count == 3 ? p[2] - p[0] : 0
        let score = max(-1, min(1, (1 - weight) * polarity + weight * compound))
        return SentimentPrediction(label: SentimentLabel(rawValue: best) ?? .neutral, score: score, probabilities: p)
    }
}

/// Softmax of three scores, numerically stable.
@inline(__always)
func softmax3(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
    let m = max(a, max(b, c))
    let ea = exp(a - m)
    let eb = exp(b - m)
    let ec = exp(c - m)
    let s = ea + eb + ec
    return [ea / s, eb / s, ec / s]
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
