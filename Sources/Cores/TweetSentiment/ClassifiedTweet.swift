import FieldtestData

/// A tweet after classification, stamped with virtual time.
public struct ClassifiedTweet: Sendable, Equatable {
    /// Tweet identifier.
    public var id: String
    /// The text.
    public var text: String
    /// Tokens from `TweetTokenizer` (kept for the word cloud and word queries).
    public var tokens: [String]
    /// The predicted class.
    public var label: SentimentLabel
    /// Polarity in [−1, 1].
    public var score: Double
    /// Virtual time of classification, seconds (any fixed origin, e.g. the scenario start or 1970 UTC;
    /// a `CityMood` only compares these times with each other).
    public var timeSeconds: Double

    /// Creates a classified tweet.
    public init(id: String, text: String, tokens: [String], label: SentimentLabel, score: Double, timeSeconds: Double) {
        self.id = id
        self.text = text
        self.tokens = tokens
        self.label = label
        self.score = score
        self.timeSeconds = timeSeconds
    }

    /// Classifies `text` with `model` at virtual time `timeSeconds`.
    public static func classify(id: String, text: String, model: some SentimentClassifier, at timeSeconds: Double)
        -> ClassifiedTweet
    {
        let tokens = model.featurizer.tokenizer.tokenize(text)
        let p = model.predict(tokens: tokens)
        return ClassifiedTweet(
            id: id, text: text, tokens: tokens, label: p.label, score: p.score, timeSeconds: timeSeconds)
    }
}
