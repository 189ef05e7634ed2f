import Foundation

/// The layouts of labelled tweet files that replay as a tweet stream, recognised by their
/// content (header or line shape), never by the file's or the dataset's name.
public enum LabelledTweetLayout: String, Sendable, CaseIterable {
    /// Crowdflower Twitter US Airline Sentiment CSV (`airline_sentiment`, `text`, …).
    case airline
    /// A CSV with `text` and `label` columns (`id` optional), labels `negative`, `neutral`,
    /// `positive` or TweetEval's `0`, `1`, `2`: the `tweets-csv` format.
    case labelledCSV
    /// The original Sentiment140 CSV: no header, `polarity,id,date,query,user,text`, polarity 0/2/4.
    case sentiment140CSV
    /// VADER ground truth: `id TAB mean rating (−4…4) TAB text`.
    case vaderGroundTruth
    /// SemEval tweets: `id TAB label TAB text`, with or without that header line, or SemEval-2013's
    /// `id TAB user-id TAB label TAB text` (`SemEvalTweetsLoader`).
    case semEval
    /// TweetEval: one text per line, with its labels file (`…_labels…`, one 0/1/2 per line)
    /// beside it, as TweetEval ships them.
    case tweetEval
}

/// Reads any supported labelled tweet file as a stream of labelled tweets in file order.
public enum LabelledTweetStream {
    /// The layout of the file at `url` whose bytes are `bytes`; nil when none fits.
    public static func layout(of bytes: [UInt8], url: URL) -> LabelledTweetLayout? {
        let first = firstLine(bytes)
        if SemEvalTweetsLoader.looksLikeSemEval(bytes) { return .semEval }
        if Sentiment140Loader.looksLikeOriginalCSV(bytes) { return .sentiment140CSV }
        let tabs = first.split(separator: "\t", omittingEmptySubsequences: false)
        if tabs.count == 3, Int(tabs[0]) != nil, let mean = Double(tabs[1]), (-4...4).contains(mean) {
            return .vaderGroundTruth
        }
        if let header = try? CSVReader(fileName: "").records(Array(first.utf8)).first?.fields {
            let names = Set(header.map { $0.trimmingCharacters(in: .whitespaces) })
            if names.contains("airline_sentiment") && names.contains("text") { return .airline }
            if names.contains("text") && names.contains("label") { return .labelledCSV }
        }
        if let labels = TweetEvalLoader.labelsURL(forText: url), FileManager.default.isReadableFile(atPath: labels.path)
        {
            return .tweetEval
        }
        return nil
    }

    /// Loads `url` as labelled tweets; `DataError.badLayout` names the layouts when none fits.
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .lenient) throws(DataError)
        -> (layout: LabelledTweetLayout, tweets: Loaded<LabelledTweet>)
    {
        let shown = displayName ?? url.path
        let bytes = try readFileBytes(url, displayName: shown)
        guard let layout = layout(of: bytes, url: url) else {
            throw .badLayout(file: shown, line: 1, reason: unknownLayout)
        }
        switch layout {
        case .airline:
            let loaded = try AirlineTweetsLoader.parse(bytes, file: shown, policy: policy)
            return (layout, Loaded(records: loaded.records.map(\.labelled), report: loaded.report))
        case .labelledCSV:
            return (layout, try parseLabelledCSV(bytes, file: shown, policy: policy))
        case .sentiment140CSV:
            return (layout, try Sentiment140Loader.parseOriginalCSV(bytes, file: shown, policy: policy))
        case .vaderGroundTruth:
            let loaded = try VaderTweetsLoader.parseGroundTruth(bytes, file: shown, policy: policy)
            return (
                layout,
                Loaded(
                    records: loaded.records.map { LabelledTweet(text: $0.text, label: $0.label(), line: $0.line) },
                    report: loaded.report)
            )
        case .semEval:
            let loaded = try SemEvalTweetsLoader.parse(bytes, file: shown, policy: policy)
            return (
                layout,
                Loaded(
                    records: loaded.records.map { LabelledTweet(text: $0.text, label: $0.label, line: $0.line) },
                    report: loaded.report)
            )
        case .tweetEval:
            // `layout(of:)` found the labels file beside the texts.
            let labels = TweetEvalLoader.labelsURL(forText: url)!
            return (
                layout,
                try TweetEvalLoader.load(
                    text: url, labels: labels,
                    displayName: { $0 == url ? shown : DatasetManifest.display($0) },
                    policy: policy)
            )
        }
    }

    /// Parses a `tweets-csv` file: a header with `text` and `label` (and any other columns),
    /// labels by name or TweetEval index.
    public static func parseLabelledCSV(_ bytes: [UInt8], file: String, policy: LoadPolicy = .lenient)
        throws(DataError) -> Loaded<LabelledTweet>
    {
        let table = try CSVTable(bytes: bytes, file: file)
        try table.require(["text", "label"])
        return try table.load(policy: policy) { (row: CSVRow) throws(DataError) -> LabelledTweet? in
            let raw = try row.string("label").trimmingCharacters(in: .whitespaces).lowercased()
            guard let label = SentimentLabel(name: raw) ?? Int(raw).flatMap(SentimentLabel.init(rawValue:)) else {
                throw row.invalid("label", "expected negative, neutral or positive (or 0, 1, 2)")
            }
            let text = try row.string("text")
            guard !text.allSatisfy(\.isWhitespace) else { throw row.invalid("text", "tweet text is empty") }
            return LabelledTweet(text: text, label: label, line: row.line)
        }
    }

    /// What a file that fits no layout should be.
    public static let unknownLayout =
        "not a labelled tweet file; use an airline tweets CSV (airline_sentiment, text), a CSV with 'text' and "
        + "'label' columns, the original Sentiment140 CSV (polarity,id,date,query,user,text), a VADER ground truth "
        + "file (id TAB mean TAB text), SemEval rows (id TAB label TAB text, header optional), or TweetEval texts with their "
        + "*_labels* file beside them"

    /// The first line of `bytes` (at most 64 KiB, without a BOM or line end), as text.
    public static func firstLine(_ bytes: [UInt8]) -> String {
        var line = Array(bytes.prefix { $0 != UInt8(ascii: "\n") }.prefix(64 * 1024))
        if line.first == 0xEF, line.count >= 3, line[1] == 0xBB, line[2] == 0xBF { line.removeFirst(3) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
