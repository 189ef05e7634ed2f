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

/// Loader of SemEval "Sentiment Analysis in Twitter" message-polarity files (2013–2017), in the
/// layouts they circulate in: UTF-8 lines `id TAB label TAB text`, with or without a header line
/// `id TAB label TAB text` (the organisers' files, such as the SemEval-2017 test gold, have none;
/// re-issues with text often add one), or the SemEval-2013 layout `id TAB user-id TAB label TAB text`.
/// Labels are `negative`, `neutral` or `positive`, in any case and optionally in double quotes;
/// SemEval-2013's `objective` and `objective-OR-neutral` are neutral. Empty fields after the text
/// (a trailing tab) are ignored. Complexity: O(n) in the file's bytes.
public enum SemEvalTweetsLoader {
    /// The optional header line.
    public static let header = "id\tlabel\ttext"

    /// The class a SemEval label names; nil for anything else.
    public static func label(_ field: Substring) -> SentimentLabel? {
        var name = field.trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        switch name.lowercased() {
        case "negative": return .negative
        case "neutral", "objective", "objective-or-neutral": return .neutral
        case "positive": return .positive
        default: return nil
        }
    }

    /// Where the label and the text are in a row's fields: `(1, 2)`, or `(2, 3)` in the SemEval-2013
    /// layout with a user ID; nil when the fields fit neither.
    static func columns(_ f: [Substring]) -> (label: Int, text: Int)? {
        var count = f.count
        while count > 3, f[count - 1].allSatisfy({ $0 == " " }) { count -= 1 }
        if count == 3 { return (1, 2) }
        if count == 4, UInt64(f[1]) != nil, label(f[2]) != nil { return (2, 3) }
        return nil
    }

    /// `bytes` after a UTF-8 byte-order mark, if there is one.
    static func body(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
    }

    /// Whether `bytes` start with the header line.
    static func startsWithHeader(_ bytes: [UInt8]) -> Bool {
        let b = body(bytes)
        let h = Array(header.utf8)
        guard b.count > h.count, b.starts(with: h) else { return false }
        let after = b[b.startIndex + h.count]
        return after == 0x0A || after == 0x0D
    }

    /// Whether `bytes` look like a SemEval file: the header line, or a first line that is a
    /// SemEval row (a decimal ID, then a SemEval label in the label's column).
    public static func looksLikeSemEval(_ bytes: [UInt8]) -> Bool {
        if startsWithHeader(bytes) { return true }
        let b = body(bytes).prefix(4096)
        let end = b.firstIndex { $0 == 0x0A || $0 == 0x0D } ?? b.endIndex
        guard let first = String(validating: b[..<end], as: UTF8.self) else { return false }
        let f = first.split(separator: "\t", omittingEmptySubsequences: false)
        guard let c = columns(f), UInt64(f[0]) != nil else { return false }
        return label(f[c.label]) != nil
    }

    /// Parses the file: an optional header, then rows in one of the layouts above; IDs must be
    /// unique and texts non-empty. Under `.lenient` bad rows are skipped and counted.
    public static func parse(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError) -> Loaded<
        SemEvalTweet
    > {
        guard looksLikeSemEval(bytes) else {
            throw .badLayout(
                file: file, line: 1,
                reason:
                    "expected SemEval rows 'id<TAB>label<TAB>text' (the header line 'id<TAB>label<TAB>text' is optional)"
            )
        }
        let hasHeader = startsWithHeader(bytes)
        var seen = Set<UInt64>()
        var loaded = try TabSeparatedLines.load(bytes, file: file, policy: policy, expectedFields: nil) {
            (line: TextLine, f: [Substring]) throws(DataError) -> SemEvalTweet? in
            if hasHeader, line.number == 1 { return nil }
            guard let c = columns(f) else {
                throw .wrongColumnCount(file: file, line: line.number, expected: 3, found: f.count)
            }
            guard let id = UInt64(f[0]) else {
                throw .invalidField(
                    file: file, line: line.number, field: "id", value: String(f[0]),
                    reason: "expected a decimal tweet ID")
            }
            guard let label = label(f[c.label]) else {
                throw .invalidField(
                    file: file, line: line.number, field: "label", value: String(f[c.label]),
                    reason: "expected negative, neutral or positive")
            }
            let text = String(f[c.text])
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
        if hasHeader { loaded.report.rowsLoaded -= 1 }
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
