import FieldtestData

/// One word of the cloud.
public struct CloudTerm: Sendable, Equatable {
    /// The lexicon term (tokenizer form, without any `not_` prefix).
    public var term: String
    /// Occurrences in tweets of the class.
    public var count: Int
    /// `count / largest count` of the list, in (0, 1]: the display size is proportional to occurrence.
    public var weight: Double
}

/// The word cloud of emotion-bearing terms (MIC-16–18, MIC-21): tokens of the
/// classified tweets that are VADER or AFINN lexicon terms with non-zero
/// valence, counted per tweet class. Negated tokens (`not_good`) count as
/// their term. Building: O(total tokens); `top`: O(terms · log terms).
public struct EmotionWordCloud: Sendable, Equatable {
    /// Term counts per class, indexed by `SentimentLabel.rawValue`.
    public private(set) var counts: [[String: Int]] = [[:], [:], [:]]

    /// Builds the cloud of `tweets` using `lexicon` to decide what is emotion-bearing.
    public init(tweets: [ClassifiedTweet], lexicon: SentimentLexicon) {
        for t in tweets {
            for token in t.tokens {
                let base = Self.base(token)
                if (lexicon.vader[base] ?? 0) != 0 || (lexicon.afinn[base] ?? 0) != 0 {
                    counts[t.label.rawValue][base, default: 0] += 1
                }
            }
        }
    }

    static func base(_ token: String) -> String {
        token.hasPrefix(TweetTokenizer.negationPrefix) ? String(token.dropFirst(TweetTokenizer.negationPrefix.count)) : token
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
}

/// Listing tweets by class or by word (MIC-25–28).
public enum TweetListing {
    /// Tweets of class `label`, in the given order.
    public static func tweets(_ tweets: [ClassifiedTweet], in label: SentimentLabel) -> [ClassifiedTweet] {
        tweets.filter { $0.label == label }
    }

    /// Tweets containing `word` as a token (after the same normalisation as
    /// tweets; a negated occurrence counts), in the given order.
    public static func tweets(_ tweets: [ClassifiedTweet], containing word: String) -> [ClassifiedTweet] {
        let tokens = TweetTokenizer(marksNegation: false).tokenize(word)
        guard tokens.count == 1, let key = tokens.first else { return [] }
        return tweets.filter { $0.tokens.contains { EmotionWordCloud.base($0) == key } }
    }
}
