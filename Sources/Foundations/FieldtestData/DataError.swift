import Foundation

/// A problem found while reading a dataset or input file.
///
/// Every case names the file and, where it applies, the 1-based line and the
/// field, so the message can be rendered compiler-style
/// (`Datasets/x.csv:12: error: field 'latitude': ...`) and the user can go
/// straight to the offending cell.
public enum DataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(file: String, reason: String)
    /// An output file could not be written (the previous file, if any, is left as it was).
    case unwritable(file: String, reason: String)
    /// The file holds no header or no data where some is required.
    case empty(file: String)
    /// A byte sequence on the line is not valid UTF-8.
    case invalidUTF8(file: String, line: Int, field: String?)
    /// The header lacks a column the loader needs.
    case missingColumn(file: String, column: String)
    /// A row has a different number of fields than the header.
    case wrongColumnCount(file: String, line: Int, expected: Int, found: Int)
    /// A field holds a value that cannot be parsed or is out of range.
    case invalidField(file: String, line: Int, field: String, value: String, reason: String)
    /// A quoted field is never closed.
    case unterminatedQuote(file: String, line: Int)
    /// The file as a whole does not match the expected layout.
    case badLayout(file: String, line: Int, reason: String)

    /// The file the error refers to.
    public var file: String {
        switch self {
        case .unreadable(let f, _), .unwritable(let f, _), .empty(let f), .invalidUTF8(let f, _, _),
            .missingColumn(let f, _),
            .wrongColumnCount(let f, _, _, _), .invalidField(let f, _, _, _, _),
            .unterminatedQuote(let f, _), .badLayout(let f, _, _):
            return f
        }
    }

    /// The 1-based line of the error, when it has one.
    public var line: Int? {
        switch self {
        case .unreadable, .unwritable, .empty, .missingColumn: return nil
        case .invalidUTF8(_, let l, _), .wrongColumnCount(_, let l, _, _), .invalidField(_, let l, _, _, _),
            .unterminatedQuote(_, let l), .badLayout(_, let l, _):
            return l
        }
    }

    /// The same error with its line moved down by `offset` lines: for an error found while
    /// parsing a slice of a file that starts on line `offset + 1`.
    public func linesShifted(by offset: Int) -> DataError {
        switch self {
        case .unreadable, .unwritable, .empty, .missingColumn: return self
        case let .invalidUTF8(f, l, field): return .invalidUTF8(file: f, line: l + offset, field: field)
        case let .wrongColumnCount(f, l, e, n):
            return .wrongColumnCount(file: f, line: l + offset, expected: e, found: n)
        case let .invalidField(f, l, field, v, r):
            return .invalidField(file: f, line: l + offset, field: field, value: v, reason: r)
        case let .unterminatedQuote(f, l): return .unterminatedQuote(file: f, line: l + offset)
        case let .badLayout(f, l, r): return .badLayout(file: f, line: l + offset, reason: r)
        }
    }

    public var description: String {
        let location = line.map { "\(file):\($0)" } ?? file
        switch self {
        case .unreadable(_, let reason):
            return "\(location): error: cannot read file: \(reason)"
        case .unwritable(_, let reason):
            return "\(location): error: cannot write file: \(reason)"
        case .empty:
            return "\(location): error: file is empty; expected a header and at least one data row"
        case .invalidUTF8(_, _, let field):
            let which = field.map { " in field '\($0)'" } ?? ""
            return "\(location): error: invalid UTF-8\(which); re-encode the file as UTF-8"
        case .missingColumn(_, let column):
            return "\(location): error: missing column '\(column)' in the header"
        case .wrongColumnCount(_, _, let expected, let found):
            return "\(location): error: expected \(expected) fields, found \(found); check quoting and separators"
        case .invalidField(_, _, let field, let value, let reason):
            return "\(location): error: field '\(field)': \(reason) (value '\(DataError.clip(value))')"
        case .unterminatedQuote:
            return "\(location): error: quoted field is never closed; add the closing '\"'"
        case .badLayout(_, _, let reason):
            return "\(location): error: \(reason)"
        }
    }

    static func clip(_ value: String) -> String {
        value.count > 40 ? String(value.prefix(40)) + "…" : value
    }
}

/// How a loader treats a row that fails validation.
public enum LoadPolicy: Sendable, Equatable {
    /// The first bad row stops the load with its `DataError`.
    case strict
    /// Bad rows are skipped and counted in the `LoadReport`.
    case lenient
}

/// What a load did: rows accepted, rows skipped and the first few reasons.
public struct LoadReport: Sendable, Equatable {
    /// Data rows accepted.
    public var rowsLoaded: Int = 0
    /// Data rows skipped under `LoadPolicy.lenient`.
    public var rowsSkipped: Int = 0
    /// The first skipped rows' errors (at most `maxKeptIssues`).
    public var issues: [DataError] = []
    /// How many issues are kept for display.
    public static let maxKeptIssues = 20

    public init() {}

    public mutating func record(_ error: DataError) {
        rowsSkipped += 1
        if issues.count < Self.maxKeptIssues { issues.append(error) }
    }
}

/// A loaded dataset: its typed records and the report of the load.
public struct Loaded<Record: Sendable>: Sendable {
    /// The accepted records, in file order.
    public var records: [Record]
    /// Counts of loaded and skipped rows.
    public var report: LoadReport

    public init(records: [Record], report: LoadReport) {
        self.records = records
        self.report = report
    }
}
