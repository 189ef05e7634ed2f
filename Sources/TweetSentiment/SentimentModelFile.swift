import FieldtestData
import Foundation

/// Reading and writing model files, and finding the shipped default model.
public enum SentimentModelFile {
    /// File name of the shipped default model inside `Datasets/models/`.
    public static let defaultFileName = "sentiment-default.ftsm"

    /// Loads and validates a model file.
    public static func load(_ url: URL, displayName: String? = nil) throws(SentimentError) -> SentimentModel {
        let name = displayName ?? url.path
        let bytes: [UInt8]
        do throws(DataError) { bytes = try readFileBytes(url, displayName: name) } catch { throw .data(error) }
        return try SentimentModelCodec.decode(bytes, file: name)
    }

    /// Writes a model atomically (never a half-written file).
    public static func save(_ model: SentimentModel, to url: URL) throws(SentimentError) {
        do throws(DataError) { try AtomicFile.write(Data(SentimentModelCodec.encode(model)), to: url) } catch { throw .data(error) }
    }
}

/// Classifies an `id,text` CSV (RFC 4180, header required) into `id,label,score`.
public enum SentimentCSV {
    /// Classifies every row of `bytes`; a row without the two columns, or with
    /// invalid UTF-8, is a located `DataError`. Scores have 4 decimals. Each label is the most
    /// probable of `classes` (`SentimentPrediction.label(among:)`; all three by default).
    /// Complexity: O(total tokens).
    public static func classify(_ bytes: [UInt8], file: String, model: SentimentModel,
                                classes: Set<SentimentLabel> = Set(SentimentLabel.allCases)) throws(DataError) -> String {
        let table = try CSVTable(bytes: bytes, file: file)
        try table.require(["id", "text"])
        let rows = try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> (String, String)? in
            (try row.string("id"), try row.string("text"))
        }
        let records = rows.records
        var w = CSVWriter(capacity: 16 + records.count * 24)  // about "id,negative,-0.1234\n" per row
        w.row(["id", "label", "score"])
        var scorer = SentimentScorer(model: model)
        // The batch path pipelines tokenizing one tweet with scoring the one before (same predictions).
        scorer.predictAll(records.map(\.1)) { i, p in
            w.row([records[i].0, p.label(among: classes).name, CSVWriter.fixed(p.score, decimals: 4)])
        }
        return w.text
    }
}
