import CSQLite
import Foundation

/// Thin access to the SQLite C library's global functions.
enum SQLiteLibrary {
    /// SQLite's English text for a result code.
    static func errorString(_ code: Int32) -> String { String(cString: sqlite3_errstr(code)) }

    /// Tells SQLite to copy bound bytes (they belong to Swift and may move after the call).
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A prepared statement of one ``SQLiteConnection``: bind arguments, step, read typed columns.
///
/// Prepare a statement once and run it many times (e.g. inside a loop of inserts). Values are
/// always bound as parameters (`?`); SQL text is never built from values. Use it only inside
/// the `read`/`write` closure that gave its connection.
public final class SQLiteStatement {
    let handle: OpaquePointer
    let connection: OpaquePointer
    /// The statement's first words, for error messages.
    public let sqlPrefix: String

    init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        sqlPrefix = SQLiteError.prefix(of: sql)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw .failed(code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sqlPrefix)
        }
        handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Number of `?` parameters.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    func failure(_ code: Int32) -> SQLiteError {
        .failed(code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sqlPrefix)
    }

    /// Resets the statement and binds `arguments` to its parameters in order.
    /// - Throws: ``SQLiteError/argumentCount(expected:given:sql:)`` unless there is one argument per parameter.
    public func bind(_ arguments: [any SQLiteBindable]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard arguments.count == parameterCount else {
            throw .argumentCount(expected: parameterCount, given: arguments.count, sql: sqlPrefix)
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument.sqliteValue {
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .real(let d): code = sqlite3_bind_double(handle, index, d)
            case .text(let s):
                // With the byte count, so NUL characters are kept; "" keeps an empty string from binding NULL.
                let bytes = Array(s.utf8)
                code =
                    bytes.isEmpty
                    ? sqlite3_bind_text(handle, index, "", 0, SQLiteLibrary.transient)
                    : bytes.withUnsafeBytes { raw in
                        sqlite3_bind_text(
                            handle, index, raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count),
                            SQLiteLibrary.transient)
                    }
            case .blob(let data):
                // An empty blob bound through a null pointer would be NULL, not a zero-length blob.
                code =
                    data.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : data.withUnsafeBytes { bytes in
                        sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), SQLiteLibrary.transient)
                    }
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    /// Advances to the next row: true when a row is ready to read, false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = failure(sqlite3_extended_errcode(connection))
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Number of result columns.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The current row's value in column `index` (0-based).
    public func value(at index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // With the byte count, so text holding NUL characters is read whole.
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// The current row, read out.
    public func row() -> SQLiteRow {
        let count = columnCount
        return SQLiteRow(
            columns: (0..<count).map { String(cString: sqlite3_column_name(handle, Int32($0))) },
            values: (0..<count).map(value(at:)), sqlPrefix: sqlPrefix)
    }

    /// Binds `arguments` and runs the statement to completion, ignoring any rows.
    public func execute(_ arguments: [any SQLiteBindable] = []) throws(SQLiteError) {
        try bind(arguments)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Binds `arguments` and calls `body` with each result row in order; `body` may stop early by
    /// returning false. Rethrows what `body` throws.
    public func forEachRow(_ arguments: [any SQLiteBindable] = [], _ body: (SQLiteRow) throws -> Bool) throws {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        while try step() {
            guard try body(row()) else { return }
        }
    }

    /// Binds `arguments` and returns the first `limit` result rows (all by default).
    public func rows(_ arguments: [any SQLiteBindable] = [], limit: Int = .max) throws(SQLiteError) -> [SQLiteRow] {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        var rows: [SQLiteRow] = []
        while rows.count < limit, try step() { rows.append(row()) }
        return rows
    }
}
