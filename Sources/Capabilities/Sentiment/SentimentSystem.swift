import FieldtestData
import TweetSentiment

/// A sentiment system's verdict on one tweet (the `classify` answer: `label`, `score`).
public struct SentimentAnswer: Sendable, Equatable, Decodable {
    /// The class.
    public var label: SentimentLabel
    /// Polarity in [−1, 1], negative to positive.
    public var score: Double
    /// Class probabilities (negative, neutral, positive) when the system gives them.
    public var probabilities: [Double]?

    /// An answer.
    public init(label: SentimentLabel, score: Double, probabilities: [Double]? = nil) {
        self.label = label
        self.score = score
        self.probabilities = probabilities
    }

    enum CodingKeys: String, CodingKey { case label, score, probabilities }

    /// Decodes `{"label":"positive","score":0.4}`; a label other than the three classes, a
    /// score outside [−1, 1] or probabilities that are not three is a wrong answer.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .label)
        guard let label = SentimentLabel.allCases.first(where: { $0.description == name }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .label, in: c, debugDescription: "label must be negative, neutral or positive")
        }
        self.label = label
        score = try c.decode(Double.self, forKey: .score)
        guard (-1...1).contains(score) else {
            throw DecodingError.dataCorruptedError(forKey: .score, in: c, debugDescription: "score must be in [-1, 1]")
        }
        probabilities = try c.decodeIfPresent([Double].self, forKey: .probabilities)
        if let p = probabilities, p.count != 3 {
            throw DecodingError.dataCorruptedError(
                forKey: .probabilities, in: c, debugDescription: "probabilities must be three numbers")
        }
    }

    /// The binary decision (positive or not) the spec's two-class accuracy uses: P(pos) ≥ P(neg)
    /// when probabilities are given, else the label, and for `neutral` the sign of the score.
    public var leansPositive: Bool {
        if let p = probabilities { return p[2] >= p[0] }
        switch label {
        case .positive: return true
        case .negative: return false
        case .neutral: return score >= 0
        }
    }
}

/// Tweet sentiment, as an app needs it: one answer per text, in order.
///
/// The built-in implementation is the shipped model (`SentimentModel`); an external system is
/// reached through `ExternalSentimentSystem`. A nil answer means the system gave none (a fault
/// it has counted); the app counts the tweet as unclassified.
public protocol SentimentSystem: Sendable {
    /// Classifies `texts`; one answer per text, in order.
    func classify(_ texts: [String]) -> [SentimentAnswer?]
}

extension SentimentModel: SentimentSystem {
    /// The model's prediction of each text.
    public func classify(_ texts: [String]) -> [SentimentAnswer?] {
        texts.map {
            let p = predict($0)
            return SentimentAnswer(label: p.label, score: p.score, probabilities: p.probabilities)
        }
    }
}

/// An external sentiment system: `classify` requests `{"id","text"}` answered by
/// `{"id","label","score"}` (optionally `probabilities`), several texts in one batch request.
public final class ExternalSentimentSystem: SentimentSystem, @unchecked Sendable {
    /// The process and its fault counts.
    public let system: ExternalSystem
    private var counter = 0

    /// Wraps a started system (its capability must be `sentiment`).
    public init(_ system: ExternalSystem) {
        precondition(system.capability == .sentiment, "an ExternalSentimentSystem needs a sentiment system")
        self.system = system
    }

    public func classify(_ texts: [String]) -> [SentimentAnswer?] {
        let rows = texts.map { text -> [(String, JSONField)] in
            counter += 1
            return [("id", .string(String(counter))), ("text", .string(text))]
        }
        return system.call(rows, as: SentimentAnswer.self)
    }
}
