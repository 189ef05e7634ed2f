import Foundation

/// Maps header names to field positions for a delimited file.
public struct CSVHeader: Sendable {
    /// Column names in file order.
    public let names: [String]
    private let index: [String: Int]

    public init(_ names: [String]) {
        self.names = names.map { $0.trimmingCharacters(in: .whitespaces) }
        var index: [String: Int] = [:]
        for (i, n) in self.names.enumerated() where index[n] == nil { index[n] = i }
        self.index = index
    }

    /// Position of `name`, if present.
    public func position(of name: String) -> Int? { index[name] }

    /// Position of `name`, or `DataError.missingColumn`.
    public func require(_ name: String, file: String) throws(DataError) -> Int {
        guard let i = index[name] else { throw .missingColumn(file: file, column: name) }
        return i
    }

    /// `error` with a field the reader numbered (`#3`, 1-based) named by this header's column
    /// instead; other errors, and numbers beyond the header, are returned as they are.
    public func namingColumns(in error: DataError) -> DataError {
        func name(_ field: String?) -> String? {
            guard let field, field.hasPrefix("#"), let k = Int(field.dropFirst()), names.indices.contains(k - 1),
                !names[k - 1].isEmpty
            else { return field }
            return names[k - 1]
        }
        switch error {
        case let .invalidUTF8(f, l, field): return .invalidUTF8(file: f, line: l, field: name(field))
        case let .invalidField(f, l, field, v, r):
            return .invalidField(file: f, line: l, field: name(field) ?? field, value: v, reason: r)
        default: return error
        }
    }
}

/// A data row with typed, validating accessors whose errors name file, line and field.
public struct CSVRow: Sendable {
    /// File name for messages.
    public let file: String
    /// 1-based line of the row.
    public let line: Int
    /// The raw fields.
    public let fields: [String]
    /// The header the row belongs to.
    public let header: CSVHeader

    public init(file: String, line: Int, fields: [String], header: CSVHeader) {
        self.file = file
        self.line = line
        self.fields = fields
        self.header = header
    }

    /// The raw text of `column`, or `DataError.missingColumn`.
    public func string(_ column: String) throws(DataError) -> String {
        let i = try header.require(column, file: file)
        return i < fields.count ? fields[i] : ""
    }

    /// The text of `column`, or nil when the column is absent or the field blank.
    public func optionalString(_ column: String) -> String? {
        guard let i = header.position(of: column), i < fields.count else { return nil }
        let s = fields[i].trimmedOfWhitespace
        return s.isEmpty ? nil : s
    }

    /// A finite number in `range`; blank, NaN, infinite and out-of-range values are errors.
    public func double(_ column: String, in range: ClosedRange<Double>? = nil) throws(DataError) -> Double {
        let raw = try string(column)
        return try FieldParser.double(raw, field: column, in: range, file: file, line: line)
    }

    /// A number in `range`, or nil when blank or one of `missing` sentinels.
    public func optionalDouble(
        _ column: String, in range: ClosedRange<Double>? = nil,
        missing: Set<String> = []
    ) throws(DataError) -> Double? {
        guard let raw = optionalString(column), !missing.contains(raw) else { return nil }
        return try FieldParser.double(raw, field: column, in: range, file: file, line: line)
    }

    /// An integer in `range`.
    public func int(_ column: String, in range: ClosedRange<Int>? = nil) throws(DataError) -> Int {
        let raw = try string(column)
        return try FieldParser.int(raw, field: column, in: range, file: file, line: line)
    }

    /// A latitude in degrees, −90…90.
    public func latitude(_ column: String = "latitude") throws(DataError) -> Double {
        try double(column, in: -90...90)
    }

    /// A longitude in degrees, −180…180.
    public func longitude(_ column: String = "longitude") throws(DataError) -> Double {
        try double(column, in: -180...180)
    }

    /// An error for `column` with the given reason, located at this row.
    public func invalid(_ column: String, _ reason: String) -> DataError {
        .invalidField(file: file, line: line, field: column, value: optionalString(column) ?? "", reason: reason)
    }
}

/// Locale-independent parsing of numeric fields with located errors.
public enum FieldParser {
    /// Parses a finite decimal number (`.` separator, optional sign and exponent, e.g. `-12.5`,
    /// `1e-3`) within `range`. Hexadecimal (`0x10`), `inf` and `nan` are errors.
    public static func double(
        _ raw: String, field: String, in range: ClosedRange<Double>?,
        file: String, line: Int
    ) throws(DataError) -> Double {
        let s = raw.trimmedOfWhitespace
        guard !s.isEmpty else {
            throw .invalidField(file: file, line: line, field: field, value: raw, reason: "value is missing")
        }
        guard let v = Double(s) else {
            throw .invalidField(file: file, line: line, field: field, value: raw, reason: "not a number")
        }
        guard v.isFinite else {
            throw .invalidField(file: file, line: line, field: field, value: raw, reason: "not a finite number")
        }
        guard s.utf8.allSatisfy(isDecimalNumberByte) else {
            throw .invalidField(
                file: file, line: line, field: field, value: raw,
                reason: "not a decimal number; write it in base 10 (e.g. 16, not 0x10)")
        }
        if let range, !range.contains(v) {
            throw .invalidField(
                file: file, line: line, field: field, value: raw,
                reason: "outside \(format(range.lowerBound))…\(format(range.upperBound))")
        }
        return v
    }

    /// Whether `byte` may appear in a decimal number: a digit, sign, point or exponent letter.
    @inline(__always)
    static func isDecimalNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// Parses a base-10 integer within `range`.
    public static func int(
        _ raw: String, field: String, in range: ClosedRange<Int>?,
        file: String, line: Int
    ) throws(DataError) -> Int {
        let s = raw.trimmedOfWhitespace
        guard let v = Int(s) else {
            throw .invalidField(
                file: file, line: line, field: field, value: raw,
                reason: s.isEmpty ? "value is missing" : "not an integer")
        }
        if let range, !range.contains(v) {
            throw .invalidField(
                file: file, line: line, field: field, value: raw,
                reason: "outside \(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// A delimited file with a header row, read whole and walked row by row.
public struct CSVTable: Sendable {
    /// File name used in messages.
    public let file: String
    /// The header.
    public let header: CSVHeader
    /// The data records (header excluded).
    public let records: [CSVRecord]

    /// Reads `url`; `headerLine` is the 1-based record holding the header
    /// (records before it, such as TMY3's station line, are available in `preamble`).
    public init(
        url: URL, displayName: String? = nil, separator: Character = ",",
        headerRecord: Int = 1
    ) throws(DataError) {
        let name = displayName ?? url.path
        let bytes = try readFileBytes(url, displayName: name)
        try self.init(bytes: bytes, file: name, separator: separator, headerRecord: headerRecord)
    }

    /// Parses `bytes` as a table.
    public init(bytes: [UInt8], file: String, separator: Character = ",", headerRecord: Int = 1) throws(DataError) {
        var all: [CSVRecord] = []
        do throws(DataError) {
            try CSVReader(fileName: file, separator: separator).forEachRecord(bytes) { all.append($0) }
        } catch {
            // The reader numbers fields (#2); below the header, name them by their column.
            throw all.count >= headerRecord ? CSVHeader(all[headerRecord - 1].fields).namingColumns(in: error) : error
        }
        guard all.count >= headerRecord else { throw .empty(file: file) }
        self.file = file
        self.preamble = Array(all.prefix(headerRecord - 1))
        self.header = CSVHeader(all[headerRecord - 1].fields)
        self.records = Array(all.dropFirst(headerRecord))
    }

    /// The records of `bytes`, a run of whole data records cut from a file whose header is
    /// `header` (`CSVChunkReader`); `firstLine` is the file's line number of the run's first byte,
    /// so rows and errors are located as in the whole file.
    public init(header: CSVHeader, bytes: [UInt8], file: String, firstLine: Int) throws(DataError) {
        var all: [CSVRecord] = []
        do throws(DataError) {
            try CSVReader(fileName: file).forEachRecord(bytes, startingLine: firstLine) { all.append($0) }
        } catch {
            throw header.namingColumns(in: error)
        }
        self.file = file
        self.preamble = []
        self.header = header
        self.records = all
    }

    /// Records before the header (e.g. a station metadata line).
    public let preamble: [CSVRecord]

    /// Checks that every column in `columns` is in the header.
    public func require(_ columns: [String]) throws(DataError) {
        for c in columns { _ = try header.require(c, file: file) }
    }

    /// Maps every data row through `transform`, which throws `DataError` for a
    /// bad row. Rows with the wrong number of fields are rejected first.
    /// Under `.lenient` bad rows are skipped and counted; a `nil` result skips
    /// a row silently (e.g. a summary row the loader does not use).
    public func load<Record: Sendable>(
        policy: LoadPolicy,
        checkColumnCount: Bool = true,
        _ transform: (CSVRow) throws(DataError) -> Record?
    ) throws(DataError) -> Loaded<Record> {
        var out: [Record] = []
        out.reserveCapacity(records.count)
        var report = LoadReport()
        for r in records {
            do throws(DataError) {
                if checkColumnCount && r.fields.count != header.names.count {
                    throw .wrongColumnCount(
                        file: file, line: r.line, expected: header.names.count, found: r.fields.count)
                }
                if let rec = try transform(CSVRow(file: file, line: r.line, fields: r.fields, header: header)) {
                    out.append(rec)
                    report.rowsLoaded += 1
                }
            } catch {
                if case .missingColumn = error { throw error }
                guard policy == .lenient else { throw error }
                report.record(error)
            }
        }
        return Loaded(records: out, report: report)
    }
}
