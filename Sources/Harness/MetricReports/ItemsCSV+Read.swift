import FieldtestData
import Foundation

/// One row of `items.csv` read back: the case it belongs to and its record.
public struct ItemsCSVRow: Sendable, Equatable {
    /// The case label (the `scenario` column of `metrics.csv`).
    public var caseLabel: String
    /// The requirement, metric and outcome.
    public var record: ItemRecord
    /// 1-based line of the row in its file.
    public var line: Int

    /// A row; see the properties.
    public init(caseLabel: String, record: ItemRecord, line: Int) {
        self.caseLabel = caseLabel
        self.record = record
        self.line = line
    }
}

extension ItemsCSV {
    /// Parses an `items.csv` written by `fieldtest run`; every problem is a located `DataError`
    /// (a header other than `columns`, a `correct` other than `true`/`false`/empty, an `error`
    /// that is not a number).
    public static func parse(bytes: [UInt8], file: String) throws(DataError) -> [ItemsCSVRow] {
        let table = try CSVTable(bytes: bytes, file: file)
        try checkHeader(table, file: file)
        return try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> ItemsCSVRow? in
            try Self.row(row)
        }.records
    }

    /// Calls `body` with each row of the `items.csv` at `url`, reading about 2 MiB at a time, so memory
    /// holds only what `body` keeps; errors as `parse`.
    public static func forEachRow(_ url: URL, _ body: (ItemsCSVRow) throws -> Void) throws {
        try CSVChunkReader(fileName: url.path).forEachTable(path: url.path) { table in
            if table.header.names != columns { try checkHeader(table, file: url.path) }
            _ = try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> Int? in
                let parsed = try Self.row(row)
                do { try body(parsed) } catch let e as DataError { throw e } catch {
                    throw DataError.unreadable(file: url.path, reason: "\(error)")
                }
                return nil
            }
        }
    }

    static func checkHeader(_ table: CSVTable, file: String) throws(DataError) {
        guard table.header.names == columns else {
            throw .badLayout(file: file, line: 1, reason: "header must be exactly '\(columns.joined(separator: ","))'")
        }
    }

    /// One row of an `items.csv` table.
    static func row(_ row: CSVRow) throws(DataError) -> ItemsCSVRow {
        let correct: Bool?
        switch try row.string("correct") {
        case "true": correct = true
        case "false": correct = false
        case "": correct = nil
        default: throw row.invalid("correct", "expected true, false or empty")
        }
        let outcome = ItemOutcome(
            item: try row.string("item"), expected: try row.string("expected"), answer: try row.string("answer"),
            correct: correct, error: try row.optionalDouble("error"))
        return ItemsCSVRow(
            caseLabel: try row.string("case"),
            record: ItemRecord(
                requirement: try row.string("requirement"), metric: try row.string("metric"), outcome: outcome),
            line: row.line)
    }

    /// Reads an `items.csv` from disk (`displayName` names it in errors).
    public static func read(_ url: URL, displayName: String? = nil) throws(DataError) -> [ItemsCSVRow] {
        let name = displayName ?? url.path
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .unreadable(file: name, reason: "cannot be read; give the items.csv of a run folder")
        }
        return try parse(bytes: [UInt8](data), file: name)
    }
}
