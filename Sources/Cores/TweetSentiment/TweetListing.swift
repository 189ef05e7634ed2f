import FieldtestData

/// Listing tweets by class or by word (MIC-25–28, Func_25–28): the "twitter
/// emotion" page after a class button or a click on a word of the cloud.
///
/// A tweet is found by the distinct words of its tokens (`searchWords`): the
/// negation prefix removed, placeholders such as `<url>` and `<user>` dropped.
/// A query word goes through the same tokenizer normalisation (`searchKey`), so
/// "GOOD" finds "good" and "not good". Listing is O(tweets · tokens).
public enum TweetListing {
    /// Tweets of class `label`, in the given order.
    public static func tweets(_ tweets: some Sequence<ClassifiedTweet>, in label: SentimentLabel) -> [ClassifiedTweet] {
        tweets.filter { $0.label == label }
    }

    /// Tweets containing `word` (see `searchKey`), in the given order; none when the
    /// word is not a single token.
    public static func tweets(_ tweets: some Sequence<ClassifiedTweet>, containing word: String) -> [ClassifiedTweet] {
        guard let key = searchKey(word) else { return [] }
        return tweets.filter { t in t.tokens.contains { isSearchable($0) && EmotionWordCloud.base($0) == key } }
    }

    /// The normalised form of a query word (lower-cased, elongations shortened, as
    /// `TweetTokenizer` writes tokens), or nil when it is not exactly one token.
    public static func searchKey(_ word: String) -> String? {
        let tokens = TweetTokenizer(marksNegation: false).tokenize(word)
        guard tokens.count == 1, let key = tokens.first, isSearchable(key) else { return nil }
        return key
    }

    /// The distinct words a tweet with these tokens is found by, in first-occurrence order.
    public static func searchWords(_ tokens: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for t in tokens where isSearchable(t) {
            let base = EmotionWordCloud.base(t)
            if seen.insert(base).inserted { out.append(base) }
        }
        return out
    }

    static func isSearchable(_ token: String) -> Bool {
        let base = EmotionWordCloud.base(token)
        return !(base.hasPrefix("<") && base.hasSuffix(">"))
    }
}
