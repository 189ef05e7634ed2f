import Foundation

/// One row of the Crowdflower Twitter US Airline Sentiment CSV (Feb 2015).
public struct AirlineTweet: Sendable, Equatable {
    /// The 18-digit tweet ID.
    public var tweetID: UInt64
    /// The crowd-sourced class.
    public var sentiment: SentimentLabel
    /// The complaint category of a negative tweet (nil for other classes).
    public var negativeReason: String?
    /// The airline addressed.
    public var airline: String
    /// The tweet text (may span lines; entities not decoded).
    public var text: String
    /// Creation time as written (`M/D/YYYY H:MM`, local time of the source, zone not stated).
    public var created: String
    /// 1-based line on which the record starts.
    public var line: Int

    /// The tweet as a labelled example.
    public var labelled: LabelledTweet { LabelledTweet(text: text, label: sentiment, line: line) }
}

/// Loader of `airline_Tweets.csv` (RFC 4180; quoted fields may hold line breaks).
///
/// Every row is validated: a numeric tweet ID, `airline_sentiment` ∈
/// {negative, neutral, positive}, a reason only on negative rows, a non-blank
/// airline and text, and a `M/D/YYYY H:MM` creation time.
public enum AirlineTweetsLoader {
    /// The columns the loader needs.
    public static let columns = ["tweet_id", "airline_sentiment", "negativereason", "airline", "text", "tweet_created"]

    /// Loads `url`.
    public static func load(
        url: URL, displayName: String? = nil,
        policy: LoadPolicy = .strict
    ) throws(DataError) -> Loaded<AirlineTweet> {
        let name = displayName ?? url.path
        return try parse(try readFileBytes(url, displayName: name), file: name, policy: policy)
    }

    /// Parses file bytes.
    public static func parse(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError) -> Loaded<
        AirlineTweet
    > {
        let table = try CSVTable(bytes: bytes, file: file)
        try table.require(columns)
        return try table.load(policy: policy) { (row: CSVRow) throws(DataError) -> AirlineTweet? in
            let idText = try row.string("tweet_id").trimmingCharacters(in: .whitespaces)
            guard !idText.isEmpty, idText.allSatisfy(\.isASCII), let id = UInt64(idText) else {
                throw row.invalid("tweet_id", "expected a positive integer tweet ID")
            }
            let labelText = try row.string("airline_sentiment")
            guard let label = SentimentLabel(name: labelText) else {
                throw row.invalid("airline_sentiment", "expected negative, neutral or positive")
            }
            let reason = row.optionalString("negativereason")
            if reason != nil && label != .negative {
                throw row.invalid("negativereason", "a reason is only allowed on negative tweets")
            }
            guard let airline = row.optionalString("airline") else {
                throw row.invalid("airline", "airline is missing")
            }
            let text = try row.string("text")
            guard !text.allSatisfy(\.isWhitespace) else { throw row.invalid("text", "tweet text is empty") }
            let created = try row.string("tweet_created")
            guard isTimestamp(created) else { throw row.invalid("tweet_created", "expected M/D/YYYY H:MM") }
            return AirlineTweet(
                tweetID: id, sentiment: label, negativeReason: reason, airline: airline,
                text: text, created: created, line: row.line)
        }
    }

    /// True for `M/D/YYYY H:MM` with month 1–12, day 1–31, hour 0–23, minute 0–59.
    static func isTimestamp(_ s: String) -> Bool {
        let parts = s.split(separator: " ")
        guard parts.count == 2 else { return false }
        let date = parts[0].split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, time.count == 2, time[1].count == 2,
            let m = date[0], let d = date[1], let y = date[2],
            let h = Int(time[0]), let mi = Int(time[1])
        else { return false }
        return (1...12).contains(m) && (1...31).contains(d) && (1000...9999).contains(y)
            && (0...23).contains(h) && (0...59).contains(mi)
    }
}
