import Foundation

/// One SQLite value: what a parameter binds and what a column holds.
public enum SQLiteValue: Sendable, Equatable {
    /// `INTEGER`, a 64-bit signed integer.
    case integer(Int64)
    /// `REAL`, a 64-bit IEEE float.
    case real(Double)
    /// `TEXT`, UTF-8.
    case text(String)
    /// `BLOB`, raw bytes (possibly empty).
    case blob(Data)
    /// `NULL`.
    case null

    /// SQLite's name of the value's storage class, for error messages.
    public var typeName: String {
        switch self {
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        case .null: "NULL"
        }
    }
}

/// A Swift value that binds to a statement parameter. Values are always bound, never written into SQL text.
public protocol SQLiteBindable {
    /// The value to bind.
    var sqliteValue: SQLiteValue { get }
}

/// A Swift value read from a result column.
public protocol SQLiteColumnDecodable {
    /// The Swift value of `value`, or nil when the storage class does not convert to this type.
    static func decode(sqlite value: SQLiteValue) -> Self?
}

extension Int64: SQLiteBindable, SQLiteColumnDecodable {
    public var sqliteValue: SQLiteValue { .integer(self) }
    /// An integer, or a real with an exact 64-bit integer value.
    public static func decode(sqlite value: SQLiteValue) -> Int64? {
        switch value {
        case .integer(let v): v
        case .real(let d): Int64(exactly: d)
        default: nil
        }
    }
}

extension Int: SQLiteBindable, SQLiteColumnDecodable {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    /// An integer (or exact real) that fits `Int`.
    public static func decode(sqlite value: SQLiteValue) -> Int? {
        Int64.decode(sqlite: value).flatMap { Int(exactly: $0) }
    }
}

extension Bool: SQLiteBindable, SQLiteColumnDecodable {
    /// Stored as the integer 1 or 0, as SQLite's own boolean expressions are.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    /// Non-zero integers are true.
    public static func decode(sqlite value: SQLiteValue) -> Bool? {
        Int64.decode(sqlite: value).map { $0 != 0 }
    }
}

extension Double: SQLiteBindable, SQLiteColumnDecodable {
    public var sqliteValue: SQLiteValue { .real(self) }
    /// A real, or an integer converted.
    public static func decode(sqlite value: SQLiteValue) -> Double? {
        switch value {
        case .real(let d): d
        case .integer(let v): Double(v)
        default: nil
        }
    }
}

extension String: SQLiteBindable, SQLiteColumnDecodable {
    public var sqliteValue: SQLiteValue { .text(self) }
    /// Text, or a blob read as UTF-8.
    public static func decode(sqlite value: SQLiteValue) -> String? {
        switch value {
        case .text(let s): s
        case .blob(let d): String(decoding: d, as: UTF8.self)
        default: nil
        }
    }
}

extension Data: SQLiteBindable, SQLiteColumnDecodable {
    public var sqliteValue: SQLiteValue { .blob(self) }
    /// A blob, or the UTF-8 bytes of text.
    public static func decode(sqlite value: SQLiteValue) -> Data? {
        switch value {
        case .blob(let d): d
        case .text(let s): Data(s.utf8)
        default: nil
        }
    }
}

extension SQLiteValue: SQLiteBindable, SQLiteColumnDecodable {
    public var sqliteValue: SQLiteValue { self }
    public static func decode(sqlite value: SQLiteValue) -> SQLiteValue? { value }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    /// `nil` binds `NULL`.
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}

extension Optional: SQLiteColumnDecodable where Wrapped: SQLiteColumnDecodable {
    /// `NULL` reads as `nil`; any other value as `Wrapped` would.
    public static func decode(sqlite value: SQLiteValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.decode(sqlite: value).map { .some($0) }
    }
}

/// One result row, read out of the statement (it stays valid after the statement moves on).
public struct SQLiteRow: Sendable, Equatable {
    /// Column names, in result order.
    public let columns: [String]
    /// Values, in result order.
    public let values: [SQLiteValue]
    /// The first words of the statement, for error messages.
    let sqlPrefix: String

    /// The value of the column named `name` (case-insensitive, as SQLite names are) as `T`.
    /// - Throws: ``SQLiteError/noSuchColumn(name:sql:)`` or ``SQLiteError/typeMismatch(column:expected:found:sql:)``
    ///   (e.g. `NULL` read as a non-optional type).
    public func get<T: SQLiteColumnDecodable>(_ name: String, as type: T.Type = T.self) throws(SQLiteError) -> T {
        guard let index = columns.firstIndex(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else {
            throw .noSuchColumn(name: name, sql: sqlPrefix)
        }
        return try get(index, as: type, name: name)
    }

    /// The value of the column named `name` as `T` (``get(_:as:)-(String,_)``).
    public subscript<T: SQLiteColumnDecodable>(_ name: String) -> T {
        get throws(SQLiteError) { try get(name, as: T.self) }
    }

    /// The value of column `index` (0-based) as `T`.
    public func get<T: SQLiteColumnDecodable>(_ index: Int, as type: T.Type = T.self) throws(SQLiteError) -> T {
        guard values.indices.contains(index) else { throw .noSuchColumn(name: "#\(index)", sql: sqlPrefix) }
        return try get(index, as: type, name: columns[index])
    }

    private func get<T: SQLiteColumnDecodable>(_ index: Int, as type: T.Type, name: String) throws(SQLiteError) -> T {
        guard let value = T.decode(sqlite: values[index]) else {
            throw .typeMismatch(column: name, expected: "\(T.self)", found: values[index].typeName, sql: sqlPrefix)
        }
        return value
    }
}
