import Foundation

/// Typed loaders of the tweets datasets, and their record counts for `datasets verify`.
public enum TweetLoaders {
    /// Loads `url` strictly with the typed loader of `format` and returns its record count.
    /// A TweetEval labels file is counted on its own (the text file's line count is
    /// checked against it when the two are joined for training).
    public static func countRecords(format: DatasetFormat, url: URL, displayName: String) throws(DataError) -> Int {
        let bytes = try readFileBytes(url, displayName: displayName)
        switch format {
        case .tweetLines:
            // The class does not affect the count; it is set by the training corpus from the file name.
            return try Sentiment140Loader.parse(bytes, file: displayName, label: .neutral).records.count
        case .airlineTweets:
            return try AirlineTweetsLoader.parse(bytes, file: displayName).records.count
        case .tweetsCSV:
            return try LabelledTweetStream.parseLabelledCSV(bytes, file: displayName, policy: .strict).records.count
        case .sentiment140CSV:
            return try Sentiment140Loader.parseOriginalCSV(bytes, file: displayName).records.count
        case .tweetevalText:
            return try TweetEvalLoader.parseTexts(bytes, file: displayName).count
        case .tweetevalLabels:
            return try TweetEvalLoader.parseLabels(bytes, file: displayName).records.count
        case .tweetevalMapping:
            return try TweetEvalLoader.parseMapping(bytes, file: displayName).count
        case .semEvalTweets:
            return try SemEvalTweetsLoader.parse(bytes, file: displayName).records.count
        case .vaderGroundTruth:
            return try VaderTweetsLoader.parseGroundTruth(bytes, file: displayName).records.count
        case .vaderRatings:
            return try VaderTweetsLoader.parseRatings(bytes, file: displayName).records.count
        case .vaderLexicon:
            return try LexiconLoaders.parseVader(bytes, file: displayName).records.count
        case .emojiLexicon:
            return try LexiconLoaders.parseEmoji(bytes, file: displayName).records.count
        case .afinn:
            return try LexiconLoaders.parseAFINN(bytes, file: displayName).records.count
        default:
            return try GenericCounts.count(format: format, url: url, displayName: displayName)
        }
    }
}
