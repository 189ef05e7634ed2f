import Foundation

/// Loader of the TweetEval sentiment task (Barbieri et al. 2020; SemEval-2017
/// Task 4A tweets): `*_text.txt` (one tweet per line), `*_labels.txt` (one class
/// index per line) and `mapping.txt` (`index TAB name`).
public enum TweetEvalLoader {
    /// The mapping TweetEval publishes: 0 negative, 1 neutral, 2 positive.
    public static let expectedMapping: [Int: SentimentLabel] = [0: .negative, 1: .neutral, 2: .positive]

    /// Parses `mapping.txt`; each line must be `index TAB name` and the whole
    /// must equal `expectedMapping` (the class indices of `SentimentLabel`).
    public static func parseMapping(_ bytes: [UInt8], file: String) throws(DataError) -> [Int: SentimentLabel] {
        var seen: [Int: SentimentLabel] = [:]
        let loaded = try TabSeparatedLines.load(bytes, file: file, policy: .strict, expectedFields: 2) {
            (line: TextLine, fields: [Substring]) throws(DataError) -> (Int, SentimentLabel) in
            let index = try FieldParser.int(String(fields[0]), field: "index", in: 0...2, file: file, line: line.number)
            let name = String(fields[1]).trimmingCharacters(in: .whitespaces)
            guard let label = SentimentLabel(name: name), label.rawValue == index else {
                throw .invalidField(
                    file: file, line: line.number, field: "name", value: name,
                    reason: "expected '\(expectedMapping[index]?.name ?? "?")' for index \(index)")
            }
            guard seen[index] == nil else {
                throw .invalidField(
                    file: file, line: line.number, field: "index", value: String(index), reason: "duplicate index")
            }
            seen[index] = label
            return (index, label)
        }
        guard loaded.records.count == 3 else {
            throw .badLayout(
                file: file, line: loaded.records.count + 1,
                reason: "expected 3 classes (0 negative, 1 neutral, 2 positive)")
        }
        return seen
    }

    /// Loads a mapping file.
    public static func loadMapping(url: URL, displayName: String? = nil) throws(DataError) -> [Int: SentimentLabel] {
        let name = displayName ?? url.path
        return try parseMapping(try readFileBytes(url, displayName: name), file: name)
    }

    /// Parses a labels file: one class index (0, 1 or 2) per non-blank line.
    public static func parseLabels(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<(line: Int, label: SentimentLabel?)>
    {
        // Lines are kept (label nil when invalid under .lenient) so that they stay aligned with the texts.
        var report = LoadReport()
        let lines = try TextLines.read(bytes, file: file, policy: .strict, report: &report)
        var out: [(line: Int, label: SentimentLabel?)] = []
        for line in lines where !line.text.isEmpty {
            do throws(DataError) {
                let v = try FieldParser.int(line.text, field: "label", in: 0...2, file: file, line: line.number)
                out.append((line.number, SentimentLabel(rawValue: v)))
                report.rowsLoaded += 1
            } catch {
                guard policy == .lenient else { throw error }
                report.record(error)
                out.append((line.number, nil))
            }
        }
        return Loaded(records: out, report: report)
    }

    /// Parses a text file: one tweet per non-blank line.
    public static func parseTexts(_ bytes: [UInt8], file: String) throws(DataError) -> [TextLine] {
        var report = LoadReport()
        return try TextLines.read(bytes, file: file, policy: .strict, report: &report).filter { !$0.text.isEmpty }
    }

    /// Joins texts and labels line by line. The two files must have the same
    /// number of non-blank lines (a `badLayout` error otherwise, under any policy);
    /// under `.lenient` a bad label skips its tweet and is counted.
    public static func parse(
        text: [UInt8], textFile: String, labels: [UInt8], labelsFile: String,
        policy: LoadPolicy = .strict
    ) throws(DataError) -> Loaded<LabelledTweet> {
        let texts = try parseTexts(text, file: textFile)
        let labelled = try parseLabels(labels, file: labelsFile, policy: policy)
        guard texts.count == labelled.records.count else {
            throw .badLayout(
                file: labelsFile, line: min(texts.count, labelled.records.count) + 1,
                reason:
                    "\(labelled.records.count) labels for \(texts.count) tweets in \(textFile); the files must have one line each per tweet"
            )
        }
        var out: [LabelledTweet] = []
        out.reserveCapacity(texts.count)
        var report = labelled.report
        report.rowsLoaded = 0
        for (t, l) in zip(texts, labelled.records) {
            guard let label = l.label else { continue }
            out.append(LabelledTweet(text: t.text, label: label, line: t.number))
            report.rowsLoaded += 1
        }
        return Loaded(records: out, report: report)
    }

    /// Loads a text file and its labels file (and checks `mapping` when given).
    public static func load(
        text: URL, labels: URL, mapping: URL? = nil, displayName: (URL) -> String = { $0.path },
        policy: LoadPolicy = .strict
    ) throws(DataError) -> Loaded<LabelledTweet> {
        if let mapping { _ = try loadMapping(url: mapping, displayName: displayName(mapping)) }
        return try parse(
            text: try readFileBytes(text, displayName: displayName(text)), textFile: displayName(text),
            labels: try readFileBytes(labels, displayName: displayName(labels)), labelsFile: displayName(labels),
            policy: policy)
    }

    /// The labels file beside a text file: `x_text.txt` → `x_labels.txt`.
    public static func labelsURL(forText url: URL) -> URL? {
        let name = url.lastPathComponent
        guard name.contains("_text") else { return nil }
        return url.deletingLastPathComponent().appendingPathComponent(
            name.replacingOccurrences(of: "_text", with: "_labels"))
    }
}
