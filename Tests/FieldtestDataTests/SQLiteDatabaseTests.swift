import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@Suite("SQLite database layer")
struct SQLiteDatabaseTests {
    static func memory() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase.inMemory()
        try db.execute(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB);
            CREATE TABLE u (name TEXT UNIQUE NOT NULL);
            """)
        return db
    }

    @Test("each type binds and reads back, NULL and empty values included")
    func bindAndRead() throws {
        let db = try Self.memory()
        let blob = Data([0, 1, 2, 255])
        try db.write { (c) throws -> Void in
            try c.execute("INSERT INTO t (i, r, s, b) VALUES (?, ?, ?, ?)", [Int64.min, 0.1, "a\u{0}é", blob])
            try c.execute("INSERT INTO t (i, r, s, b) VALUES (?, ?, ?, ?)", [Int?.none, Double?.none, "", Data()])
            #expect(c.lastInsertRowID == 2)
            #expect(c.changes == 1)
        }
        let rows = try db.read { c in try c.fetchAll("SELECT i, r, s, b FROM t ORDER BY id") }
        #expect(rows.count == 2)
        #expect(try rows[0].get("i") as Int64 == Int64.min)
        #expect(try rows[0]["r"] as Double == 0.1)
        #expect(try rows[0]["S"] as String == "a\u{0}é")
        #expect(try rows[0]["b"] as Data == blob)
        #expect(try rows[1]["i"] as Int? == nil)
        #expect(try rows[1]["r"] as Double? == nil)
        #expect(rows[1].values[2] == .text(""))
        #expect(rows[1].values[3] == .blob(Data()))
        #expect(throws: SQLiteError.self) { try rows[1]["i"] as Int }
        #expect(throws: SQLiteError.noSuchColumn(name: "nope", sql: "SELECT i, r, s, b FROM t ORDER BY id")) {
            try rows[0]["nope"] as Int
        }
        let flags = try db.read { c in try c.fetchValues(Bool.self, "SELECT i IS NULL FROM t ORDER BY id") }
        #expect(flags == [false, true])
    }

    @Test("a throwing transaction is rolled back; a returning one commits")
    func transactionRollback() throws {
        let db = try Self.memory()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.write { c in
                try c.execute("INSERT INTO u (name) VALUES (?)", ["a"])
                throw Stop()
            }
        }
        #expect(try db.read { c in try c.fetchValue(Int.self, "SELECT COUNT(*) FROM u") } == 0)
        try db.write { c in try c.execute("INSERT INTO u (name) VALUES (?)", ["a"]) }
        #expect(try db.read { c in try c.fetchValue(Int.self, "SELECT COUNT(*) FROM u") } == 1)
    }

    @Test("a constraint violation names SQLite's code, message and the statement")
    func constraintMessage() throws {
        let db = try Self.memory()
        try db.execute("INSERT INTO u (name) VALUES (?)", ["a"])
        do {
            try db.execute("INSERT INTO u (name) VALUES (?)", ["a"])
            Issue.record("a duplicate was accepted")
        } catch let error as SQLiteError {
            let text = error.description
            #expect(text.contains("SQLite error 2067"))  // SQLITE_CONSTRAINT_UNIQUE
            #expect(text.contains("UNIQUE constraint failed: u.name"))
            #expect(text.contains("INSERT INTO u (name)"))
        }
        #expect(throws: SQLiteError.argumentCount(expected: 1, given: 2, sql: "INSERT INTO u (name) VALUES (?)")) {
            try db.execute("INSERT INTO u (name) VALUES (?)", ["b", "c"])
        }
        // A script's failing statement is named too.
        do {
            try db.execute("INSERT INTO u (name) VALUES ('z'); INSERT INTO u (name) VALUES (NULL);")
            Issue.record("NULL was accepted into a NOT NULL column")
        } catch let error as SQLiteError {
            #expect(error.description.contains("NOT NULL constraint failed: u.name"))
            #expect(error.description.contains("in `INSERT INTO u (name) VALUES (NULL);`"))
        }
        #expect(throws: SQLiteError.argumentCount(expected: 1, given: 0, sql: "INSERT INTO u (name) VALUES (?)")) {
            try db.execute("INSERT INTO u (name) VALUES (?)")
        }
    }

    @Test("a parameter that looks like SQL stays data")
    func injectionStaysData() throws {
        let db = try Self.memory()
        let hostile = "x'); DROP TABLE u; --"
        try db.execute("INSERT INTO u (name) VALUES (?)", [hostile])
        let names = try db.read { c in try c.fetchValues(String.self, "SELECT name FROM u WHERE name = ?", [hostile]) }
        #expect(names == [hostile])
        #expect(try db.read { c in try c.fetchValue(Int.self, "SELECT COUNT(*) FROM u") } == 1)
    }

    @Test("a prepared statement runs many times; rows can be iterated and stopped early")
    func preparedStatements() throws {
        let db = try Self.memory()
        try db.write { c in
            let insert = try c.prepare("INSERT INTO t (i) VALUES (?)")
            for k in 1...5 { try insert.execute([k]) }
        }
        var seen: [Int] = []
        try db.read { c in
            try c.prepare("SELECT i FROM t ORDER BY i").forEachRow { row in
                seen.append(try row.get(0))
                return seen.count < 3
            }
        }
        #expect(seen == [1, 2, 3])
    }

    @Test("a file database keeps its settings, migrations run once, and a closed one refuses access")
    func fileSettingsAndMigrations() throws {
        let folder = TemporaryFiles.url("fieldtest-sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        let options = SQLiteDatabase.Options(writeAheadLog: true, pragmas: ["PRAGMA synchronous = OFF"])
        let migrations = [
            SQLiteMigration("one", sql: "CREATE TABLE a (x INTEGER)"),
            SQLiteMigration("two", sql: "CREATE TABLE b (y INTEGER REFERENCES a(x))"),
        ]
        let db = try SQLiteDatabase(path: path, options: options)
        try db.migrate(migrations)
        try db.migrate(migrations)  // already applied: nothing runs again
        try db.read { (c) throws -> Void in
            #expect(try c.fetchValue(String.self, "PRAGMA journal_mode") == "wal")
            #expect(try c.fetchValue(Int.self, "PRAGMA synchronous") == 0)
            #expect(try c.fetchValue(Int.self, "PRAGMA foreign_keys") == 1)
            #expect(try c.userVersion() == 2)
        }
        try db.close()
        #expect(throws: SQLiteError.closed(path: path)) { try db.execute("SELECT 1") }
        #expect(throws: SQLiteError.self) {
            try SQLiteDatabase(
                path: folder.appendingPathComponent("missing.sqlite").path, options: .init(create: false))
        }
    }

    @Test("steps recorded by GRDB's migrator count as applied; only later steps run")
    func grdbMigrationsAreHonoured() throws {
        let db = try SQLiteDatabase.inMemory()
        try db.execute(
            """
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1');
            CREATE TABLE a (x INTEGER);
            """)
        try db.migrate([
            SQLiteMigration("v1", sql: "CREATE TABLE a (x INTEGER)"),  // would fail if run again
            SQLiteMigration("v2", sql: "ALTER TABLE a ADD COLUMN y INTEGER"),
        ])
        try db.read { (c) throws -> Void in
            #expect(try c.userVersion() == 2)
            #expect(try c.fetchValues(String.self, "SELECT name FROM pragma_table_info('a')") == ["x", "y"])
        }
    }
}
