import Foundation

/// Loader of the Sentiment140 sample (Go, Bhayani & Huang 2009): one tweet text per
/// line, the class given by the file (`positive.txt` / `negative.txt`).
public enum Sentiment140Loader {
    /// Loads `url`, labelling every tweet `label`.
    public static func load(url: URL, label: SentimentLabel, displayName: String? = nil,
                            policy: LoadPolicy = .strict) throws(DataError) -> Loaded<LabelledTweet> {
        let name = displayName ?? url.path
        return try parse(try readFileBytes(url, displayName: name), file: name, label: label, policy: policy)
    }

    /// Parses file bytes. Blank lines are ignored; a line of only spaces or an
    /// invalid UTF-8 line is a located error (skipped and counted under `.lenient`).
    public static func parse(_ bytes: [UInt8], file: String, label: SentimentLabel,
                             policy: LoadPolicy = .strict) throws(DataError) -> Loaded<LabelledTweet> {
        var report = LoadReport()
        let lines = try TextLines.read(bytes, file: file, policy: policy, report: &report)
        var out: [LabelledTweet] = []
        out.reserveCapacity(lines.count)
        for line in lines where !line.text.isEmpty {
            if line.text.allSatisfy(\.isWhitespace) {
                let e = DataError.invalidField(file: file, line: line.number, field: "text", value: line.text,
                                               reason: "tweet text is only white space")
                guard policy == .lenient else { throw e }
                report.record(e)
                continue
            }
            out.append(LabelledTweet(text: line.text, label: label, line: line.number))
            report.rowsLoaded += 1
        }
        return Loaded(records: out, report: report)
    }

    /// The class implied by a Sentiment140 file name: it must contain `positive`
    /// or `negative` (e.g. `sentiment140_positive.txt`).
    public static func label(forFileName name: String) -> SentimentLabel? {
        let lower = name.lowercased()
        if lower.contains("positive") && !lower.contains("negative") { return .positive }
        if lower.contains("negative") && !lower.contains("positive") { return .negative }
        return nil
    }
}
