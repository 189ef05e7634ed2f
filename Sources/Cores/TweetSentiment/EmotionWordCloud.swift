import FieldtestData

/// One word of the cloud.
public struct CloudTerm: Sendable, Equatable {
    /// The lexicon term (tokenizer form, without any `not_` prefix).
    public var term: String
    /// Occurrences in tweets of the class.
    public var count: Int
    /// `count / largest count` of the list, in (0, 1]: the display size is proportional to occurrence (Func_18).
    public var weight: Double
}

/// The word cloud of emotion-bearing terms (MIC-16–18, MIC-21): tokens of the
/// classified tweets that are VADER or AFINN lexicon terms with non-zero
/// valence (the "terms that express emotion", Func_17), counted per tweet class
/// (the three class buttons of Func_21). Negated tokens (`not_good`) count as
/// their term; every occurrence counts (a tweet saying "love love" adds 2).
///
/// Kept incrementally over a rolling window: `add` the tweets of a batch and
/// `remove` those a `CityMood` evicts. `add`/`remove`: O(tokens of the tweet);
/// `top`: O(terms · log terms).
public struct EmotionWordCloud: Sendable, Equatable {
    /// Term counts per class, indexed by `SentimentLabel.rawValue`.
    public private(set) var counts: [[String: Int]] = [[:], [:], [:]]
    /// The lexicon deciding what is emotion-bearing.
    public let lexicon: SentimentLexicon

    /// An empty cloud using `lexicon` to decide what is emotion-bearing.
    public init(lexicon: SentimentLexicon) {
        self.lexicon = lexicon
    }

    /// The cloud of `tweets`.
    public init(tweets: some Sequence<ClassifiedTweet>, lexicon: SentimentLexicon) {
        self.init(lexicon: lexicon)
        for t in tweets { add(t) }
    }

    /// The emotion-bearing terms of a token list, in order, repeats kept (negation prefix removed).
    public func emotionTerms(_ tokens: [String]) -> [String] {
        tokens.compactMap { token in
            let base = Self.base(token)
            return (lexicon.vader[base] ?? 0) != 0 || (lexicon.afinn[base] ?? 0) != 0 ? base : nil
        }
    }

    /// Counts the emotion terms of `tweet` under its class.
    public mutating func add(_ tweet: ClassifiedTweet) {
        for term in emotionTerms(tweet.tokens) { counts[tweet.label.rawValue][term, default: 0] += 1 }
    }

    /// Uncounts a tweet previously added (terms whose count reaches 0 leave the cloud).
    public mutating func remove(_ tweet: ClassifiedTweet) {
        for term in emotionTerms(tweet.tokens) {
            let n = counts[tweet.label.rawValue][term, default: 0] - 1
            counts[tweet.label.rawValue][term] = n > 0 ? n : nil
        }
    }

    /// Counts every tweet of a batch.
    public mutating func add(_ tweets: some Sequence<ClassifiedTweet>) {
        for t in tweets { add(t) }
    }

    /// Uncounts every tweet of a sequence.
    public mutating func remove(_ tweets: some Sequence<ClassifiedTweet>) {
        for t in tweets { remove(t) }
    }

    static func base(_ token: String) -> String {
        token.hasPrefix(TweetTokenizer.negationPrefix)
            ? String(token.dropFirst(TweetTokenizer.negationPrefix.count)) : token
    }

    /// The `k` most frequent terms of `label` (all classes when nil), by count
    /// descending then term ascending, weighted relative to the largest count.
    public func top(_ k: Int, of label: SentimentLabel? = nil) -> [CloudTerm] {
        var merged: [String: Int] = [:]
        for (i, table) in counts.enumerated() where label == nil || label?.rawValue == i {
            for (term, n) in table { merged[term, default: 0] += n }
        }
        let sorted = merged.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(max(k, 0))
        guard let maxCount = sorted.first?.value, maxCount > 0 else { return [] }
        return sorted.map { CloudTerm(term: $0.key, count: $0.value, weight: Double($0.value) / Double(maxCount)) }
    }

    /// Number of distinct terms of `label` (all classes when nil).
    public func distinctTerms(of label: SentimentLabel? = nil) -> Int {
        var seen = Set<String>()
        for (i, table) in counts.enumerated() where label == nil || label?.rawValue == i { seen.formUnion(table.keys) }
        return seen.count
    }
}
