/// The three sentiment classes used by every labelled tweet dataset and by the
/// classifiers. Raw values follow TweetEval's `mapping.txt` (0 negative, 1 neutral,
/// 2 positive) so they double as class indices.
public enum SentimentLabel: Int, Sendable, CaseIterable, Codable, Hashable, CustomStringConvertible {
    /// Negative sentiment.
    case negative = 0
    /// No or mixed sentiment.
    case neutral = 1
    /// Positive sentiment.
    case positive = 2

    /// The lower-case name (`negative`, `neutral`, `positive`).
    public var name: String {
        switch self {
        case .negative: return "negative"
        case .neutral: return "neutral"
        case .positive: return "positive"
        }
    }

    /// Parses a lower-case class name; nil for anything else.
    public init?(name: String) {
        switch name {
        case "negative": self = .negative
        case "neutral": self = .neutral
        case "positive": self = .positive
        default: return nil
        }
    }

    /// Same as `name`.
    public var description: String { name }
}

/// A tweet text with its class and the 1-based line of the file it came from.
public struct LabelledTweet: Sendable, Equatable {
    /// The tweet text as stored in the file (entities not decoded).
    public var text: String
    /// The class.
    public var label: SentimentLabel
    /// 1-based line of the record in its file (first line for multi-line CSV records).
    public var line: Int

    /// Creates a labelled tweet.
    public init(text: String, label: SentimentLabel, line: Int) {
        self.text = text
        self.label = label
        self.line = line
    }
}
