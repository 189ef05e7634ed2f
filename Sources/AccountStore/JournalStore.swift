import Foundation
import GRDB

/// Filters for listing entries (BTD-J3; BeenThereDoneThat 5.2.1.2 filter button, 5.2.3.2).
/// `nil` means "any". The date range is half-open: `savedFrom ≤ savedAt < savedBefore`.
public struct JournalFilter: Sendable, Equatable {
    /// Only this type.
    public var type: EntryType?
    /// Only this category (exact match).
    public var category: String?
    /// Saved at or after this time (UTC).
    public var savedFrom: Date?
    /// Saved strictly before this time (UTC).
    public var savedBefore: Date?

    /// Creates a filter.
    public init(type: EntryType? = nil, category: String? = nil, savedFrom: Date? = nil, savedBefore: Date? = nil) {
        self.type = type
        self.category = category
        self.savedFrom = savedFrom
        self.savedBefore = savedBefore
    }
}

/// Column codec shared by the device store and the emulated server. Title and body are
/// stored as BLOBs of UTF-8 so NUL characters survive (SQLite TEXT read back through C
/// strings would stop at the first NUL).
enum JournalCodec {
    static let columns = "id, user_id, title, body, saved_at, category, prompt, type, photo_reference, revision"

    static func arguments(_ e: JournalEntry) -> StatementArguments {
        [e.id.uuidString, e.userID, Data(e.title.utf8), Data(e.body.utf8), e.savedAt.timeIntervalSince1970,
         e.category, e.prompt.map { Data($0.utf8) }, e.type.rawValue, e.photoReference, e.revision]
    }

    static func decode(_ row: Row) throws -> JournalEntry {
        let idText: String = row["id"]
        guard let id = UUID(uuidString: idText) else {
            throw AccountStoreError.storageCorrupted("journal entry ID '\(idText)' is not a UUID")
        }
        guard let type = EntryType(rawValue: row["type"]) else {
            throw AccountStoreError.storageCorrupted("journal entry \(idText) has unknown type")
        }
        let prompt: Data? = row["prompt"]
        return JournalEntry(
            id: id, userID: row["user_id"], title: String(decoding: row["title"] as Data, as: UTF8.self),
            body: String(decoding: row["body"] as Data, as: UTF8.self),
            savedAt: Date(timeIntervalSince1970: row["saved_at"]), category: row["category"],
            prompt: prompt.map { String(decoding: $0, as: UTF8.self) }, type: type,
            photoReference: row["photo_reference"], revision: row["revision"])
    }

    static let tableSQL = """
        CREATE TABLE entries (
            id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL,
            title BLOB NOT NULL,
            body BLOB NOT NULL,
            saved_at REAL NOT NULL,
            category TEXT NOT NULL,
            prompt BLOB,
            type TEXT NOT NULL,
            photo_reference TEXT,
            revision INTEGER NOT NULL
        );
        CREATE INDEX entries_user_saved ON entries(user_id, saved_at);
        """
}

/// The device's journal: entries committed locally at once, with an outbox of changes
/// waiting to reach the server (offline-first, BTD-J2 and BTD-S1).
///
/// `save` writes the entry and its outbox row in one SQLite transaction, so after a crash
/// either both exist or neither. The database is in WAL mode with `synchronous = NORMAL`:
/// a committed entry survives an application crash (the emulated failure); a power loss may
/// drop the last transactions. All SQL is parameterised.
public struct JournalStore: Sendable {
    let database: DatabasePool
    /// The file the store lives in.
    public let path: String

    /// Opens (creating if needed) the journal at `path`.
    public init(path: String) throws(AccountStoreError) {
        self.path = path
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            database = try DatabasePool(path: path, configuration: config)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1-journal") { db in
                try db.execute(sql: JournalCodec.tableSQL)
                try db.execute(sql: """
                    CREATE TABLE outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        entry_id TEXT NOT NULL UNIQUE REFERENCES entries(id) ON DELETE CASCADE,
                        revision INTEGER NOT NULL
                    );
                    """)
            }
            try migrator.migrate(database)
        } catch {
            throw .database("cannot open journal at \(path): \(error)")
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(AccountStoreError) -> T {
        do { return try database.write(body) } catch let error as AccountStoreError { throw error } catch {
            throw .database("\(error)")
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(AccountStoreError) -> T {
        do { return try database.read(body) } catch let error as AccountStoreError { throw error } catch {
            throw .database("\(error)")
        }
    }

    /// Saves a new entry or a new version of an existing one and queues it for sync.
    ///
    /// A new entry is stored with revision 1; saving an existing ID stores revision + 1
    /// (the `revision` passed in is ignored). Returns the entry as read back from the store.
    /// - Throws: ``AccountStoreError/textTooLong(field:byteCount:limitBytes:)`` or
    ///   ``AccountStoreError/invalidText(field:reason:)`` for oversize or malformed fields.
    @discardableResult
    public func save(_ entry: JournalEntry) throws(AccountStoreError) -> JournalEntry {
        try JournalLimits.validate(entry)
        return try write { db in
            let current = try Int.fetchOne(db, sql: "SELECT revision FROM entries WHERE id = ?", arguments: [entry.id.uuidString])
            var stored = entry
            stored.revision = (current ?? 0) + 1
            try db.execute(sql: """
                INSERT INTO entries (\(JournalCodec.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET user_id = excluded.user_id, title = excluded.title, body = excluded.body,
                    saved_at = excluded.saved_at, category = excluded.category, prompt = excluded.prompt,
                    type = excluded.type, photo_reference = excluded.photo_reference, revision = excluded.revision
                """, arguments: JournalCodec.arguments(stored))
            try db.execute(sql: """
                INSERT INTO outbox (entry_id, revision) VALUES (?, ?)
                ON CONFLICT(entry_id) DO UPDATE SET revision = excluded.revision
                """, arguments: [stored.id.uuidString, stored.revision])
            // Return the entry as stored: the time goes through a REAL column, and `Date`
            // conversions to and from 1970-based seconds may move it by one ulp.
            guard let row = try Row.fetchOne(db, sql: "SELECT \(JournalCodec.columns) FROM entries WHERE id = ?",
                                             arguments: [stored.id.uuidString]) else {
                throw AccountStoreError.unknownEntry(stored.id)
            }
            return try JournalCodec.decode(row)
        }
    }

    /// The entry with `id`, or `nil`.
    public func entry(id: UUID) throws(AccountStoreError) -> JournalEntry? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(JournalCodec.columns) FROM entries WHERE id = ?", arguments: [id.uuidString])
                .map(JournalCodec.decode)
        }
    }

    /// The entries of `userID` matching `filter`, newest first (ties by ID). O(log n + k) with the index.
    public func entries(userID: String, filter: JournalFilter = JournalFilter()) throws(AccountStoreError) -> [JournalEntry] {
        var sql = "SELECT \(JournalCodec.columns) FROM entries WHERE user_id = ?"
        var arguments: StatementArguments = [userID]
        if let type = filter.type { sql += " AND type = ?"; arguments += [type.rawValue] }
        if let category = filter.category { sql += " AND category = ?"; arguments += [category] }
        if let from = filter.savedFrom { sql += " AND saved_at >= ?"; arguments += [from.timeIntervalSince1970] }
        if let before = filter.savedBefore { sql += " AND saved_at < ?"; arguments += [before.timeIntervalSince1970] }
        sql += " ORDER BY saved_at DESC, id"
        let finalSQL = sql
        let finalArguments = arguments
        return try read { db in
            try Row.fetchAll(db, sql: finalSQL, arguments: finalArguments).map(JournalCodec.decode)
        }
    }

    /// The oldest `limit` queued entries, at their current revision.
    public func pendingChanges(limit: Int) throws(AccountStoreError) -> [JournalEntry] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(JournalCodec.columns.split(separator: ",").map { "e." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                FROM outbox o JOIN entries e ON e.id = o.entry_id ORDER BY o.seq LIMIT ?
                """, arguments: [max(0, limit)]).map(JournalCodec.decode)
        }
    }

    /// Removes acknowledged changes from the outbox. A change saved again after it was sent
    /// (higher revision) stays queued. Returns how many rows were removed.
    @discardableResult
    public func acknowledge(_ acks: [SyncAck]) throws(AccountStoreError) -> Int {
        try write { db in
            var removed = 0
            for ack in acks {
                try db.execute(sql: "DELETE FROM outbox WHERE entry_id = ? AND revision <= ?",
                               arguments: [ack.id.uuidString, ack.revision])
                removed += db.changesCount
            }
            return removed
        }
    }

    /// Number of changes waiting to be sent.
    public func outboxCount() throws(AccountStoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 }
    }

    /// Number of stored entries.
    public func entryCount() throws(AccountStoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries") ?? 0 }
    }
}
