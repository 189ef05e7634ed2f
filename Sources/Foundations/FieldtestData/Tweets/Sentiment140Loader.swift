import Foundation

/// Loader of the Sentiment140 sample (Go, Bhayani & Huang 2009): one tweet text per
/// line, the class given by the file (`positive.txt` / `negative.txt`).
public enum Sentiment140Loader {
    /// Loads `url`, labelling every tweet `label`.
    public static func load(
        url: URL, label: SentimentLabel, displayName: String? = nil,
        policy: LoadPolicy = .strict
    ) throws(DataError) -> Loaded<LabelledTweet> {
        let name = displayName ?? url.path
        return try parse(try readFileBytes(url, displayName: name), file: name, label: label, policy: policy)
    }

    /// Parses file bytes. Blank lines are ignored; a line of only spaces or an
    /// invalid UTF-8 line is a located error (skipped and counted under `.lenient`).
    public static func parse(
        _ bytes: [UInt8], file: String, label: SentimentLabel,
        policy: LoadPolicy = .strict
    ) throws(DataError) -> Loaded<LabelledTweet> {
        var report = LoadReport()
        let lines = try TextLines.read(bytes, file: file, policy: policy, report: &report)
        var out: [LabelledTweet] = []
        out.reserveCapacity(lines.count)
        for line in lines where !line.text.isEmpty {
            if line.text.allSatisfy(\.isWhitespace) {
                let e = DataError.invalidField(
                    file: file, line: line.number, field: "text", value: line.text,
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

extension Sentiment140Loader {
    /// Column count of the original Sentiment140 CSV layout.
    static let originalColumns = 6

    /// Whether `bytes` look like the original Sentiment140 CSV layout (Go, Bhayani & Huang
    /// 2009: `training.1600000.processed.noemoticon.csv`, `testdata.manual.2009.06.14.csv`):
    /// no header, six fields `polarity,id,date,query,user,text`, polarity `0`, `2` or `4`.
    /// Only the first record is inspected.
    public static func looksLikeOriginalCSV(_ bytes: [UInt8]) -> Bool {
        let firstLine = Array(bytes.prefix { $0 != UInt8(ascii: "\n") }.prefix(64 * 1024))
        guard let record = try? CSVReader(fileName: "").records(latin1IfNotUTF8(firstLine)).first else { return false }
        return record.fields.count == originalColumns && label(polarity: record.fields[0]) != nil
    }

    /// Parses the original Sentiment140 CSV layout (see `looksLikeOriginalCSV`): polarity 0 is
    /// negative, 2 neutral, 4 positive. The published files are Latin-1, so a file that is not
    /// valid UTF-8 is read as Latin-1. A record with another field count, another polarity or
    /// white-space-only text is a located error (skipped and counted under `.lenient`).
    public static func parseOriginalCSV(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<LabelledTweet>
    {
        var report = LoadReport()
        var out: [LabelledTweet] = []
        do throws(DataError) {
            try CSVReader(fileName: file).forEachRecord(latin1IfNotUTF8(bytes)) {
                (record: CSVRecord) throws(DataError) in
                let problem: DataError?
                if record.fields.count != originalColumns {
                    problem = .wrongColumnCount(
                        file: file, line: record.line, expected: originalColumns, found: record.fields.count)
                } else if label(polarity: record.fields[0]) == nil {
                    problem = .invalidField(
                        file: file, line: record.line, field: "polarity", value: record.fields[0],
                        reason: "expected 0 (negative), 2 (neutral) or 4 (positive)")
                } else if record.fields[5].allSatisfy(\.isWhitespace) {
                    problem = .invalidField(
                        file: file, line: record.line, field: "text", value: record.fields[5],
                        reason: "tweet text is empty or only white space")
                } else {
                    problem = nil
                }
                if let problem {
                    guard policy == .lenient else { throw problem }
                    report.record(problem)
                    return
                }
                out.append(
                    LabelledTweet(text: record.fields[5], label: label(polarity: record.fields[0])!, line: record.line))
                report.rowsLoaded += 1
            }
        } catch {
            // The file has no header; the reader's numbered fields (#6) are named by the layout's columns.
            throw CSVHeader(["polarity", "id", "date", "query", "user", "text"]).namingColumns(in: error)
        }
        return Loaded(records: out, report: report)
    }

    /// The class of a Sentiment140 polarity field.
    static func label(polarity: String) -> SentimentLabel? {
        switch polarity {
        case "0": .negative
        case "2": .neutral
        case "4": .positive
        default: nil
        }
    }

    /// `bytes` when they are valid UTF-8, else the UTF-8 encoding of `bytes` read as Latin-1 (ISO 8859-1).
    static func latin1IfNotUTF8(_ bytes: [UInt8]) -> [UInt8] {
        if String(validating: bytes, as: UTF8.self) != nil { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for b in bytes {
            if b < 0x80 {
                out.append(b)
            } else {
                out.append(0xC0 | b >> 6)
                out.append(0x80 | b & 0x3F)
            }
        }
        return out
    }
}
