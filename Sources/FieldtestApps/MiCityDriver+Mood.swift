import FieldtestData
import TweetSentiment

/// The city's emotion over a rolling window (Func_15, Func_20).
struct CityMood: Equatable, Sendable {
    /// Tweets per class in the window (negative, neutral, positive).
    var counts: [Int]
    /// The prevailing class: the most frequent; ties go to neutral, then negative.
    var label: SentimentLabel
    /// Share of the prevailing class, 0…1.
    var confidence: Double
    /// (positive − negative) / total, −1…1 (0 without tweets).
    var score: Double
    /// Virtual time of the batch that produced it, seconds since 1970 UTC.
    var updatedAt: Double

    /// The mood of `counts` at `time`.
    init(counts: [Int], at time: Double) {
        self.counts = counts
        let total = counts.reduce(0, +)
        var best = SentimentLabel.neutral
        for l in [SentimentLabel.negative, .positive] where counts[l.rawValue] > counts[best.rawValue] { best = l }
        label = best
        confidence = total == 0 ? 0 : Double(counts[best.rawValue]) / Double(total)
        score = total == 0 ? 0 : Double(counts[SentimentLabel.positive.rawValue] - counts[SentimentLabel.negative.rawValue]) / Double(total)
        updatedAt = time
    }

    /// Game difficulty (Func_55), 1 (easiest) … 5: a happier city makes a harder
    /// game, `1 + ⌊4·(score + 1)/2⌋` clamped to 1…5. Monotone non-decreasing in `score`.
    static func difficulty(score: Double) -> Int {
        let s = max(-1, min(1, score.isNaN ? 0 : score))
        return max(1, min(5, 1 + Int((4 * (s + 1) / 2).rounded(.down))))
    }
}

/// Rolling-window aggregation of classified tweets: class counts for the city
/// mood and emotion-term counts per class for the word cloud (Func_16–18),
/// updated incrementally per batch (additions, then evictions of tweets older
/// than the window). Emotion terms are tokens (negation prefix removed) found in
/// the VADER or AFINN lexicon. O(batch tokens + evicted tokens) per batch.
struct MoodAggregator {
    struct Entry {
        var time: Double
        var label: SentimentLabel
        var terms: [String]
    }

    let window: Double
    private var entries: [Entry] = []
    private var head = 0
    private(set) var counts = [0, 0, 0]
    /// Term → count, per class.
    private(set) var terms: [[String: Int]] = [[:], [:], [:]]

    init(window: Double) { self.window = window }

    /// Emotion terms of a token list, in order (repeats kept).
    static func emotionTerms(_ tokens: [String], lexicon: SentimentLexicon) -> [String] {
        tokens.compactMap { t in
            let base = t.hasPrefix(TweetTokenizer.negationPrefix) ? String(t.dropFirst(TweetTokenizer.negationPrefix.count)) : t
            return lexicon.vader[base] != nil || lexicon.afinn[base] != nil ? base : nil
        }
    }

    /// Adds a batch classified at `time` and evicts what left the window; returns the new mood.
    mutating func add(_ batch: [(label: SentimentLabel, terms: [String])], at time: Double) -> CityMood {
        for b in batch {
            entries.append(Entry(time: time, label: b.label, terms: b.terms))
            counts[b.label.rawValue] += 1
            for t in b.terms { terms[b.label.rawValue][t, default: 0] += 1 }
        }
        return expire(at: time)
    }

    /// Evicts the tweets that left the window by `time` (a view opened between
    /// batches shows the window as of its own time); returns the mood.
    mutating func expire(at time: Double) -> CityMood {
        while head < entries.count, entries[head].time <= time - window {
            let e = entries[head]
            counts[e.label.rawValue] -= 1
            for t in e.terms {
                let n = terms[e.label.rawValue][t, default: 0] - 1
                terms[e.label.rawValue][t] = n > 0 ? n : nil
            }
            head += 1
        }
        return CityMood(counts: counts, at: time)
    }

    /// The `k` most frequent terms of a class (or of all classes), count descending then term ascending.
    func top(_ k: Int, label: SentimentLabel?) -> [(term: String, count: Int)] {
        var merged: [String: Int] = [:]
        for l in SentimentLabel.allCases where label == nil || label == l {
            for (t, n) in terms[l.rawValue] { merged[t, default: 0] += n }
        }
        return merged.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(k).map { ($0.key, $0.value) }
    }
}
