import Foundation

/// What went wrong in an SQLite call. Messages carry SQLite's result code and message and the
/// first words of the statement.
public enum SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file could not be opened.
    case cannotOpen(path: String, code: Int32, message: String)
    /// SQLite refused a statement (while preparing, binding or stepping it): `code` is its extended
    /// result code, `message` its explanation, `sql` the statement's first words.
    case failed(code: Int32, message: String, sql: String)
    /// A statement was given a number of arguments other than its number of parameters.
    case argumentCount(expected: Int, given: Int, sql: String)
    /// A result has no column of that name.
    case noSuchColumn(name: String, sql: String)
    /// A column's value does not convert to the Swift type asked for.
    case typeMismatch(column: String, expected: String, found: String, sql: String)
    /// The database was closed.
    case closed(path: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, code, message):
            "SQLite error \(code) (\(Self.codeName(code))): cannot open database at \(path): \(message)"
        case let .failed(code, message, sql):
            "SQLite error \(code) (\(Self.codeName(code))): \(message) — in `\(sql)`"
        case let .argumentCount(expected, given, sql):
            "statement `\(sql)` has \(expected) parameters but was given \(given) arguments"
        case let .noSuchColumn(name, sql):
            "no column '\(name)' in the result of `\(sql)`"
        case let .typeMismatch(column, expected, found, sql):
            "column '\(column)' holds \(found), which does not read as \(expected), in the result of `\(sql)`"
        case let .closed(path):
            "the database at \(path) is closed"
        }
    }

    /// SQLite's English name of a primary result code (the low byte of `code`).
    static func codeName(_ code: Int32) -> String {
        SQLiteLibrary.errorString(code)
    }

    /// The first words of `sql` (white space collapsed, at most about 60 characters), for messages.
    static func prefix(of sql: String) -> String {
        let words = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard words.count > 60 else { return words }
        return String(words.prefix(60)) + "…"
    }
}
