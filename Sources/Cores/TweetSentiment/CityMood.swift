import FieldtestData

/// The city's emotion at one moment (MIC-15, MIC-20): the prevailing class with a confidence.
public struct MoodReading: Sendable, Equatable {
    /// The majority class in the window. Ties: neutral wins any tie it is part of; a
    /// negative–positive tie goes to negative. Neutral when the window is empty.
    public var label: SentimentLabel
    /// Share of the window's tweets that carry `label`, 0 … 1 (0 when empty).
    public var confidence: Double
    /// Tweets per class in the window, indexed by `SentimentLabel.rawValue` (negative, neutral, positive).
    public var counts: [Int]
    /// (positive − negative) / total, −1 … 1 (0 when empty). The input of `GameDifficulty`.
    public var netPolarity: Double
    /// Mean classifier score of the window's tweets, −1 … 1 (0 when empty).
    public var meanScore: Double

    /// The reading of a window holding `counts` tweets per class (negative, neutral, positive;
    /// missing entries count 0) whose classifier scores sum to `scoreSum`.
    public init(counts: [Int], scoreSum: Double) {
        let c = (0..<3).map { $0 < counts.count ? max(0, counts[$0]) : 0 }
        self.counts = c
        let total = c[0] + c[1] + c[2]
        guard total > 0 else {
            label = .neutral
            confidence = 0
            netPolarity = 0
            meanScore = 0
            return
        }
        var best = SentimentLabel.neutral
        for l in [SentimentLabel.negative, .positive] where c[l.rawValue] > c[best.rawValue] { best = l }
        label = best
        confidence = Double(c[best.rawValue]) / Double(total)
        netPolarity = Double(c[SentimentLabel.positive.rawValue] - c[SentimentLabel.negative.rawValue]) / Double(total)
        meanScore = max(-1, min(1, scoreSum / Double(total)))
    }
}

/// The city's mood over a rolling window of virtual time, updated with every
/// classified batch (MIC-15, MIC-20): the tweets classified in
/// `(now − windowSeconds, now]`, their class counts and score sum.
///
/// Counts are kept incrementally: adding a batch is O(batch) (O(window) only when
/// a batch arrives out of time order), eviction is amortised O(1) per tweet, and
/// `reading` is O(1). The score sum is a running sum, so `meanScore` may differ
/// from a fresh sum by rounding (about 1e-15 per tweet that passed through).
public struct CityMood: Sendable, Equatable {
    /// Window length in seconds; tweets with `timeSeconds ≤ now − windowSeconds` drop out.
    public let windowSeconds: Double
    /// Storage; the window is `storage[head...]`, oldest first.
    private var storage: [ClassifiedTweet] = []
    private var head = 0
    private var counts = [0, 0, 0]
    private var scoreSum = 0.0

    /// An empty mood with the given window, seconds (e.g. 3,600).
    public init(windowSeconds: Double) {
        self.windowSeconds = windowSeconds
    }

    /// Tweets inside the window, oldest first.
    public var tweets: ArraySlice<ClassifiedTweet> { storage[head...] }

    /// Adds a batch classified at `nowSeconds` and evicts expired tweets; returns
    /// the evicted tweets (oldest first) so that a companion `EmotionWordCloud` can
    /// drop them too. Tweets of the batch that are already outside the window are
    /// returned among the evicted ones.
    @discardableResult
    public mutating func update(with batch: [ClassifiedTweet], at nowSeconds: Double) -> [ClassifiedTweet] {
        let inOrder =
            (storage.last.map { last in batch.allSatisfy { $0.timeSeconds >= last.timeSeconds } } ?? true)
            && zip(batch, batch.dropFirst()).allSatisfy { $0.timeSeconds <= $1.timeSeconds }
        storage += batch
        if !inOrder {
            var window = Array(storage[head...])
            window.sort { $0.timeSeconds < $1.timeSeconds }
            storage = window
            head = 0
        }
        for t in batch {
            counts[t.label.rawValue] += 1
            scoreSum += t.score
        }
        return evict(at: nowSeconds)
    }

    /// Drops tweets with `timeSeconds ≤ nowSeconds − windowSeconds`; returns them, oldest first.
    @discardableResult
    public mutating func evict(at nowSeconds: Double) -> [ClassifiedTweet] {
        let cutoff = nowSeconds - windowSeconds
        let start = head
        while head < storage.count, storage[head].timeSeconds <= cutoff {
            let t = storage[head]
            counts[t.label.rawValue] -= 1
            scoreSum -= t.score
            head += 1
        }
        let evicted = Array(storage[start..<head])
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
            scoreSum = 0
        } else if head > 1_024, head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return evicted
    }

    /// The reading over the current window. O(1).
    public var reading: MoodReading { MoodReading(counts: counts, scoreSum: scoreSum) }

    /// Equal when the windows hold the same tweets (storage layout aside).
    public static func == (a: CityMood, b: CityMood) -> Bool {
        a.windowSeconds == b.windowSeconds && a.tweets.elementsEqual(b.tweets)
    }
}
