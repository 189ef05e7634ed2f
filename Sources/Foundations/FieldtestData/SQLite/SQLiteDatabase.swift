import CSQLite
import Foundation

/// One open connection, handed to the closures of ``SQLiteDatabase/read(_:)`` and
/// ``SQLiteDatabase/write(_:)``; use it only inside that closure (the database's lock is held).
public struct SQLiteConnection {
    let handle: OpaquePointer

    /// Runs `sql` with `arguments` bound to its parameters. Without arguments `sql` may hold several
    /// statements separated by `;` (a schema script); with arguments it must be one statement.
    public func execute(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws(SQLiteError) {
        if !arguments.isEmpty { return try prepare(sql).execute(arguments) }
        var failure: SQLiteError?
        sql.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                var code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
                if code == SQLITE_OK, let statement, sqlite3_bind_parameter_count(statement) > 0 {
                    // A parameter left unbound would silently be NULL.
                    failure = .argumentCount(
                        expected: Int(sqlite3_bind_parameter_count(statement)), given: 0,
                        sql: SQLiteError.prefix(of: String(cString: current)))
                    sqlite3_finalize(statement)
                    return
                }
                if code == SQLITE_OK, let statement {
                    repeat { code = sqlite3_step(statement) } while code == SQLITE_ROW
                    if code == SQLITE_DONE { code = SQLITE_OK }
                }
                if code != SQLITE_OK {
                    // Read before finalizing, which may reset the connection's message.
                    failure = .failed(
                        code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
                        sql: SQLiteError.prefix(of: String(cString: current)))
                }
                sqlite3_finalize(statement)
                if failure != nil { return }
                cursor = tail  // nil statement: only a comment or white space was left
            }
        }
        if let failure { throw failure }
    }

    /// Prepares one statement for repeated use.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: handle, sql: sql)
    }

    /// Every row `sql` returns.
    public func fetchAll(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws(SQLiteError) -> [SQLiteRow] {
        try prepare(sql).rows(arguments)
    }

    /// The first row `sql` returns, or nil.
    public func fetchOne(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws(SQLiteError) -> SQLiteRow? {
        try prepare(sql).rows(arguments, limit: 1).first
    }

    /// The first column of the first row as `T`, or nil when there is no row or the value is `NULL`.
    public func fetchValue<T: SQLiteColumnDecodable>(
        _ type: T.Type, _ sql: String, _ arguments: [any SQLiteBindable] = []
    ) throws(SQLiteError) -> T? {
        guard let row = try fetchOne(sql, arguments) else { return nil }
        return try row.get(0, as: T?.self)
    }

    /// The first column of every row as `T`.
    public func fetchValues<T: SQLiteColumnDecodable>(
        _ type: T.Type, _ sql: String, _ arguments: [any SQLiteBindable] = []
    ) throws(SQLiteError) -> [T] {
        try fetchAll(sql, arguments).map { (row) throws(SQLiteError) in try row.get(0, as: T.self) }
    }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last successful `INSERT`.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The schema version the store's migrations record (`PRAGMA user_version`).
    public func userVersion() throws(SQLiteError) -> Int { try fetchValue(Int.self, "PRAGMA user_version") ?? 0 }
}

/// A schema step of a store, applied once, in order (see ``SQLiteDatabase/migrate(_:)``).
public struct SQLiteMigration: Sendable {
    /// A stable name of the step.
    public let identifier: String
    /// The step's SQL script.
    public let sql: String

    /// A step named `identifier` running `sql`.
    public init(_ identifier: String, sql: String) {
        self.identifier = identifier
        self.sql = sql
    }
}

/// An SQLite database over the system library: one connection, behind a lock.
///
/// Every access runs inside ``read(_:)`` (statements as they come) or ``write(_:)`` (one
/// transaction: committed when the closure returns, rolled back when it throws), holding the
/// database's lock, so one value may be shared by tasks: their accesses run one after another.
/// Foreign keys are enforced and a locked file is retried for ``Options/busyTimeoutMilliseconds``.
public final class SQLiteDatabase: @unchecked Sendable {
    /// How a connection is set up when it opens.
    public struct Options: Sendable {
        /// Whether the file may be created, or must exist.
        public var create: Bool
        /// Open read-only.
        public var readOnly: Bool
        /// Write-ahead logging (`PRAGMA journal_mode = WAL`) instead of SQLite's rollback journal.
        public var writeAheadLog: Bool
        /// How long a statement waits for another connection's lock before failing, milliseconds.
        public var busyTimeoutMilliseconds: Int
        /// Statements run after opening, in order (e.g. `PRAGMA synchronous = OFF`); constants only.
        public var pragmas: [String]

        /// Options; defaults create a file with a rollback journal and a 5 s busy timeout.
        public init(
            create: Bool = true, readOnly: Bool = false, writeAheadLog: Bool = false,
            busyTimeoutMilliseconds: Int = 5_000, pragmas: [String] = []
        ) {
            self.create = create
            self.readOnly = readOnly
            self.writeAheadLog = writeAheadLog
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.pragmas = pragmas
        }
    }

    /// The file, or ":memory:".
    public let path: String
    private var handle: OpaquePointer?
    // Recursive: a read inside a write's closure on the same thread does not deadlock.
    private let lock = NSRecursiveLock()

    /// Opens (by default creating) the database at `path`; `":memory:"` opens a private in-memory one.
    /// - Throws: ``SQLiteError/cannotOpen(path:code:message:)``, or ``SQLiteError/failed(code:message:sql:)``
    ///   when a setting fails.
    public init(path: String, options: Options = Options()) throws(SQLiteError) {
        self.path = path
        var flags = options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if options.create && !options.readOnly { flags |= SQLITE_OPEN_CREATE }
        // The lock serialises access, so SQLite's own connection mutex is not needed.
        flags |= SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? SQLiteLibrary.errorString(code)
            sqlite3_close_v2(db)
            throw .cannotOpen(path: path, code: code, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: options.busyTimeoutMilliseconds))
        do {
            let connection = SQLiteConnection(handle: db)
            try connection.execute("PRAGMA foreign_keys = ON")
            if options.writeAheadLog && !options.readOnly { try connection.execute("PRAGMA journal_mode = WAL") }
            for pragma in options.pragmas { try connection.execute(pragma) }
        } catch {
            sqlite3_close_v2(db)
            handle = nil
            throw error
        }
    }

    /// A private database in memory, gone when closed.
    public static func inMemory(options: Options = Options()) throws(SQLiteError) -> SQLiteDatabase {
        try SQLiteDatabase(path: ":memory:", options: options)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Closes the connection; later accesses throw ``SQLiteError/closed(path:)``. Closing twice does nothing.
    public func close() throws(SQLiteError) {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else { return }
        let code = sqlite3_close(handle)
        guard code == SQLITE_OK else {
            throw .failed(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: "close")
        }
        self.handle = nil
    }

    /// Runs `body` with the connection, holding the lock, outside any transaction.
    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else { throw SQLiteError.closed(path: path) }
        return try body(SQLiteConnection(handle: handle))
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`), holding the lock: committed when `body`
    /// returns, rolled back when it throws (the error is rethrown).
    public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try read { connection in
            try connection.execute("BEGIN IMMEDIATE")
            let result: T
            do {
                result = try body(connection)
                try connection.execute("COMMIT")
            } catch {
                // After some errors SQLite has already rolled back; then there is nothing left to undo.
                if sqlite3_get_autocommit(connection.handle) == 0 { try? connection.execute("ROLLBACK") }
                throw error
            }
            return result
        }
    }

    /// Runs `sql` (see ``SQLiteConnection/execute(_:_:)``) outside a transaction.
    public func execute(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws {
        try read { connection in try connection.execute(sql, arguments) }
    }

    /// Applies the steps of `migrations` not yet applied, in one transaction, recording their count
    /// in `PRAGMA user_version`. A database whose steps were recorded by GRDB's migrator (table
    /// `grdb_migrations`) counts the steps listed there as applied.
    public func migrate(_ migrations: [SQLiteMigration]) throws {
        try write { connection in
            var applied = try connection.userVersion()
            if applied == 0,
                try connection.fetchValue(
                    Int.self, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'")
                    == 1
            {
                let recorded = Set(try connection.fetchValues(String.self, "SELECT identifier FROM grdb_migrations"))
                applied = migrations.prefix { recorded.contains($0.identifier) }.count
            }
            guard applied < migrations.count else { return }
            for migration in migrations[applied...] { try connection.execute(migration.sql) }
            // PRAGMA takes no parameters; the value is an integer made here.
            try connection.execute("PRAGMA user_version = \(migrations.count)")
        }
    }
}
