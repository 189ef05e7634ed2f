import FieldtestData
import Foundation
import TweetSentiment

/// Classifies an `id,text` CSV (RFC 4180, header required) into `id,label,score`.
public enum SentimentCSV {
    /// Classifies every row of `bytes`; a row without the two columns, or with
    /// invalid UTF-8, is a located `DataError`. Scores have 4 decimals. Each label is the most
    /// probable of `classes` (`SentimentPrediction.label(among:)`; all three by default).
    /// With `jobs` > 1 the rows are split into up to `jobs` contiguous runs of at least
    /// `rowsPerJob` rows, each classified on its own thread by its own `SentimentScorer`; the
    /// output is the same, byte for byte, whatever `jobs` (predictions never depend on what a
    /// scorer classified before). Complexity: O(total tokens).
    public static func classify(
        _ bytes: [UInt8], file: String, model: SentimentModel,
        classes: Set<SentimentLabel> = Set(SentimentLabel.allCases), jobs: Int = 1
    ) throws(DataError) -> String {
        var w = CSVWriter()
        w.row(outputHeader)
        guard let columns = CSVByteColumns.scan(bytes, columns: ["id", "text"]) else {
            return try classifyReadingTable(bytes, file: file, model: model, classes: classes, jobs: jobs)
        }
        w.append(records: rows(columns, of: bytes, model: model, classes: classes, jobs: jobs))
        return w.text
    }

    /// `classify` through `CSVTable`: any file it reads, and the located error for any it rejects.
    static func classifyReadingTable(
        _ bytes: [UInt8], file: String, model: SentimentModel, classes: Set<SentimentLabel>, jobs: Int
    ) throws(DataError) -> String {
        var w = CSVWriter()
        w.row(outputHeader)
        w.append(records: try rows(try CSVTable(bytes: bytes, file: file), model: model, classes: classes, jobs: jobs))
        return w.text
    }

    /// The output header.
    public static let outputHeader = ["id", "label", "score"]

    /// The output rows (no header) of `table`, read through `CSVTable`: any file it reads, and the
    /// located error for any it rejects.
    static func rows(
        _ table: CSVTable, model: SentimentModel, classes: Set<SentimentLabel>, jobs: Int
    ) throws(DataError) -> CSVWriter {
        try table.require(["id", "text"])
        let rows = try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> (String, String)? in
            (try row.string("id"), try row.string("text"))
        }
        let records = rows.records
        let texts = records.map(\.1)
        var w = CSVWriter(capacity: records.count * 24)  // about "id,negative,-0.1234\n" per row
        /// Rows `range` classified by one scorer (the batch path pipelines tokenizing one tweet with scoring the one before).
        @Sendable func part(_ range: Range<Int>) -> CSVWriter {
            var out = CSVWriter(capacity: range.count * 24)
            var scorer = SentimentScorer(model: model)
            scorer.predictAll(Array(texts[range])) { i, p in
                out.row([
                    records[range.lowerBound + i].0, p.label(among: classes).name,
                    CSVWriter.fixedUnsignedZero(p.score, decimals: 4),
                ])
            }
            return out
        }
        let parts = max(1, min(jobs, records.count / rowsPerJob))
        if parts == 1 {
            w.append(records: part(0..<records.count))
        } else {
            let results = PartResults(count: parts)
            DispatchQueue.concurrentPerform(iterations: parts) { k in
                results.set(k, part(records.count * k / parts..<records.count * (k + 1) / parts))
            }
            for r in results.parts { w.append(records: r!) }
        }
        return w
    }

    /// The output rows of a file `CSVByteColumns` could read (the common case): the same rows, byte
    /// for byte, without a `String` per field or per ASCII text.
    static func rows(
        _ columns: CSVByteColumns, of bytes: [UInt8], model: SentimentModel, classes: Set<SentimentLabel>, jobs: Int
    ) -> CSVWriter {
        let count = columns.rowCount
        var w = CSVWriter(capacity: count * 24)  // about "id,negative,-0.1234\n" per row
        /// Rows `range` classified by one scorer, as in `classify(_:file:model:classes:jobs:)`.
        @Sendable func part(_ range: Range<Int>) -> CSVWriter {
            var out = CSVWriter(capacity: range.count * 24)
            var scorer = SentimentScorer(model: model)
            let ids = columns.columns[0]
            let texts = columns.columns[1]
            bytes.withUnsafeBufferPointer { all in
                columns.unescaped.withUnsafeBufferPointer { unescaped in
                    func field(_ f: CSVFieldBytes) -> UnsafeBufferPointer<UInt8> {
                        UnsafeBufferPointer(rebasing: (f.isUnescaped ? unescaped : all)[f.start..<f.end])
                    }
                    scorer.predictAll(count: range.count, utf8: { field(texts[range.lowerBound + $0]) }) { i, p in
                        out.field(utf8: field(ids[range.lowerBound + i]))
                        out.field(p.label(among: classes).name)
                        out.field(CSVWriter.fixedUnsignedZero(p.score, decimals: 4))
                        out.endRecord()
                    }
                }
            }
            return out
        }
        let parts = max(1, min(jobs, count / rowsPerJob))
        if parts == 1 {
            w.append(records: part(0..<count))
        } else {
            let results = PartResults(count: parts)
            DispatchQueue.concurrentPerform(iterations: parts) { k in
                results.set(k, part(count * k / parts..<count * (k + 1) / parts))
            }
            for r in results.parts { w.append(records: r!) }
        }
        return w
    }

    /// Fewest rows worth a thread of their own in `classify`.
    public static let rowsPerJob = 5_000

    /// The writers of `classify`'s parallel runs, filled from their threads.
    private final class PartResults: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var parts: [CSVWriter?]
        init(count: Int) { parts = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ w: CSVWriter) {
            lock.lock()
            parts[k] = w
            lock.unlock()
        }
    }
}
