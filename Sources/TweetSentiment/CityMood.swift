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
    /// Virtual time of classification, seconds since the scenario start.
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
    public static func classify(id: String, text: String, model: some SentimentClassifier, at timeSeconds: Double) -> ClassifiedTweet {
        let tokens = model.featurizer.tokenizer.tokenize(text)
        let p = model.predict(tokens: tokens)
        return ClassifiedTweet(id: id, text: text, tokens: tokens, label: p.label, score: p.score, timeSeconds: timeSeconds)
    }
}

/// The city's emotion at one moment (MIC-15, MIC-20).
public struct MoodReading: Sendable, Equatable {
    /// The majority class in the window (ties go to neutral, then to the
    /// lower `SentimentLabel` raw value); neutral when the window is empty.
    public var label: SentimentLabel
    /// Share of the window's tweets that carry `label`, 0 … 1 (0 when empty).
    public var confidence: Double
    /// Tweets per class in the window, indexed by `SentimentLabel.rawValue`.
    public var counts: [Int]
    /// (positive − negative) / total, −1 … 1 (0 when empty).
    public var netPolarity: Double
    /// Mean classifier score of the window's tweets, −1 … 1 (0 when empty).
    public var meanScore: Double
}

/// The city's mood over a rolling window of virtual time, updated with every
/// classified batch. Adding is O(batch); eviction is amortised O(1) per tweet.
public struct CityMood: Sendable, Equatable {
    /// Window length in seconds; tweets older than `now − windowSeconds` drop out.
    public var windowSeconds: Double
    /// Tweets inside the window, oldest first.
    public private(set) var tweets: [ClassifiedTweet] = []

    /// An empty mood with the given window (e.g. 3,600 s).
    public init(windowSeconds: Double) {
        self.windowSeconds = windowSeconds
    }

    /// Adds a batch classified at `nowSeconds` and evicts expired tweets.
    public mutating func update(with batch: [ClassifiedTweet], at nowSeconds: Double) {
        tweets += batch
        tweets.sort { $0.timeSeconds < $1.timeSeconds }
        evict(at: nowSeconds)
    }

    /// Drops tweets with `timeSeconds ≤ nowSeconds − windowSeconds`.
    public mutating func evict(at nowSeconds: Double) {
        let cutoff = nowSeconds - windowSeconds
        if let keep = tweets.firstIndex(where: { $0.timeSeconds > cutoff }) {
            if keep > 0 { tweets.removeFirst(keep) }
        } else {
            tweets.removeAll()
        }
    }

    /// The reading over the current window.
    public var reading: MoodReading {
        var counts = [0, 0, 0]
        var sum = 0.0
        for t in tweets { counts[t.label.rawValue] += 1; sum += t.score }
        let total = tweets.count
        guard total > 0 else { return MoodReading(label: .neutral, confidence: 0, counts: counts, netPolarity: 0, meanScore: 0) }
        var best = SentimentLabel.neutral
        for label in [SentimentLabel.negative, .positive] where counts[label.rawValue] > counts[best.rawValue] { best = label }
        return MoodReading(label: best, confidence: Double(counts[best.rawValue]) / Double(total), counts: counts,
                           netPolarity: Double(counts[2] - counts[0]) / Double(total), meanScore: sum / Double(total))
    }
}

/// Game difficulty as a function of the city's mood (MIC-55, miCity Racer:
/// "the happier the city, the more points you can score").
///
/// `difficulty = 1.5 − 0.5 · netPolarity`, so it runs from 1 (all tweets
/// positive) to 2 (all negative) and is strictly decreasing in the mood's net
/// polarity; `pointsMultiplier = 1.5 + 0.5 · netPolarity` rises from 1 to 2.
/// The game scales traffic density by `difficulty`.
public enum GameDifficulty {
    /// Difficulty factor in [1, 2] for a net polarity in [−1, 1] (clamped).
    public static func difficulty(netPolarity: Double) -> Double {
        1.5 - 0.5 * max(-1, min(1, netPolarity))
    }

    /// Points multiplier in [1, 2] for a net polarity in [−1, 1] (clamped).
    public static func pointsMultiplier(netPolarity: Double) -> Double {
        1.5 + 0.5 * max(-1, min(1, netPolarity))
    }

    /// Difficulty for a mood reading.
    public static func difficulty(for reading: MoodReading) -> Double {
        difficulty(netPolarity: reading.netPolarity)
    }
}
