import Foundation

/// One tweet of a SemEval "Sentiment Analysis in Twitter" message-polarity file
/// (Subtask A, 2013–2017) in the `id TAB label TAB text` layout with a header line.
public struct SemEvalTweet: Sendable, Equatable {
    /// Twitter status ID.
    public var id: UInt64
    /// The class.
    public var label: SentimentLabel
    /// Tweet text (entities not decoded).
    public var text: String
    /// 1-based line in the file.
    public var line: Int

    /// Creates a tweet.
    public init(id: UInt64, label: SentimentLabel, text: String, line: Int) {
        self.id = id
        self.label = label
        self.text = text
        self.line = line
    }

    /// The labelled tweet (ID dropped).
    public var labelled: LabelledTweet { LabelledTweet(text: text, label: label, line: line) }

    /// The UTC calendar year the tweet was posted, read from its ID: IDs issued since
    /// November 2010 ("Snowflake" IDs) hold milliseconds since `snowflakeEpochMilliseconds`
    /// in their bits above the lowest 22. Nil for older, sequential IDs (below 2^42), whose
    /// value carries no time. Used to hold out the tweets of one year as a development set.
    public var postedYear: Int? {
        guard id >= 1 << 42 else { return nil }
        let milliseconds = Double(id >> 22) + Double(Self.snowflakeEpochMilliseconds)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: Date(timeIntervalSince1970: milliseconds / 1000))
    }

    /// Start of Twitter's Snowflake ID clock: 2010-11-04 01:42:54.657 UTC, in milliseconds since 1970.
    public static let snowflakeEpochMilliseconds: UInt64 = 1_288_834_974_657
}

/// Loader of SemEval Twitter sentiment files re-issued with text: UTF-8, a header
/// `id TAB label TAB text`, then one tweet per line with a decimal status ID and a label
/// of `negative`, `neutral` or `positive`. Complexity: O(n) in the file's bytes.
public enum SemEvalTweetsLoader {
    /// The header line the layout starts with.
    public static let header = "id\tlabel\ttext"

    /// Whether `bytes` start with `header` (then a line break).
    public static func looksLikeSemEval(_ bytes: [UInt8]) -> Bool {
        let h = Array(header.utf8)
        guard bytes.count > h.count, Array(bytes.prefix(h.count)) == h else { return false }
        return bytes[h.count] == 0x0A || bytes[h.count] == 0x0D
    }

    /// Parses the file: the header, then `id TAB label TAB text` rows; IDs must be unique
    /// and texts non-empty. Under `.lenient` bad rows are skipped and counted.
    public static func parse(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError) -> Loaded<
        SemEvalTweet
    > {
        guard looksLikeSemEval(bytes) else {
            throw .badLayout(file: file, line: 1, reason: "expected the header 'id<TAB>label<TAB>text'")
        }
        var seen = Set<UInt64>()
        var loaded = try TabSeparatedLines.load(bytes, file: file, policy: policy, expectedFields: 3) {
            (line: TextLine, f: [Substring]) throws(DataError) -> SemEvalTweet? in
            if line.number == 1 { return nil }
            guard let id = UInt64(f[0]) else {
                throw .invalidField(
                    file: file, line: line.number, field: "id", value: String(f[0]),
                    reason: "expected a decimal tweet ID")
            }
            guard let label = SentimentLabel(name: String(f[1])) else {
                throw .invalidField(
                    file: file, line: line.number, field: "label", value: String(f[1]),
                    reason: "expected negative, neutral or positive")
            }
            let text = String(f[2])
            guard !text.allSatisfy({ $0 == " " }) else {
                throw .invalidField(
                    file: file, line: line.number, field: "text", value: text, reason: "empty tweet text")
            }
            guard seen.insert(id).inserted else {
                throw .invalidField(
                    file: file, line: line.number, field: "id", value: String(id), reason: "duplicate tweet ID")
            }
            return SemEvalTweet(id: id, label: label, text: text, line: line.number)
        }
        // The header is not a record.
        loaded.report.rowsLoaded -= 1
        return Loaded(records: loaded.records.compactMap { $0 }, report: loaded.report)
    }

    /// Loads a file.
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<SemEvalTweet>
    {
        let name = displayName ?? url.path
        return try parse(try readFileBytes(url, displayName: name), file: name, policy: policy)
    }
}
