import Capabilities
import FieldtestData

/// A deliberately small sentiment system: counts positive and negative cue words. It stands for
/// the classifier a team writes in Swift and wants to measure inside Fieldtest's scenarios.
public struct KeywordSentiment: SentimentSystem {
    /// Words that make a tweet more positive.
    public var positive: Set<String> = ["good", "great", "love", "thanks", "thank", "awesome", "best", "amazing"]
    /// Words that make a tweet more negative.
    public var negative: Set<String> = ["bad", "late", "delayed", "worst", "hate", "cancelled", "lost", "never"]

    /// The default word lists.
    public init() {}

    /// One answer per text: the sign of (positive − negative) cue words; score that difference over 3, clamped.
    public func classify(_ texts: [String]) -> [SentimentAnswer?] {
        texts.map { text in
            let words = text.lowercased().split { !$0.isLetter }.map(String.init)
            let balance = words.filter(positive.contains).count - words.filter(negative.contains).count
            let label: SentimentLabel = balance > 0 ? .positive : balance < 0 ? .negative : .neutral
            return SentimentAnswer(label: label, score: max(-1, min(1, Double(balance) / 3)))
        }
    }
}
