import FieldtestData
import Foundation

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

/// Column codec shared by the device store and the emulated server.
///
/// With a cipher (the device store), title, body, prompt and photo reference are stored
/// AES-256-GCM encrypted (``FieldCipher``), each bound to its column, entry and user
/// (`entries.body:<id>:<user id>`), so a ciphertext moved to another row, column or user
/// fails authentication. ID, user ID, time, category and type stay in clear: the store
/// filters and orders by them. Without a cipher (the emulated server, whose database lives
/// only in memory) the same columns hold UTF-8 bytes. Either way they are BLOBs, so NUL
/// characters survive (SQLite TEXT read back through C strings would stop at the first NUL).
struct JournalCodec {
    static let columns = "id, user_id, title, body, saved_at, category, prompt, type, photo_reference, revision"

    /// The cipher of the private columns; nil stores them as UTF-8.
    let cipher: FieldCipher?
    /// Where AES-GCM nonces come from (shared by the tasks using the store).
    let nonces: NonceSource?

    static let plain = JournalCodec(cipher: nil, nonces: nil)

    private func context(_ column: String, _ e: (id: String, user: String)) -> String {
        "entries.\(column):\(e.id):\(e.user)"
    }

    private func seal(_ text: String, _ column: String, _ e: (id: String, user: String)) throws(AccountStoreError)
        -> Data
    {
        guard let cipher, let nonces else { return Data(text.utf8) }
        return try nonces.withGenerator { (rng) throws(AccountStoreError) in
            try cipher.seal(Array(text.utf8), context: context(column, e), using: &rng)
        }
    }

    private func open(_ stored: Data, _ column: String, _ e: (id: String, user: String)) throws(AccountStoreError)
        -> String
    {
        guard let cipher else { return String(decoding: stored, as: UTF8.self) }
        return String(decoding: try cipher.open(stored, context: context(column, e)), as: UTF8.self)
    }

    func arguments(_ e: JournalEntry) throws(AccountStoreError) -> [any SQLiteBindable] {
        let key = (id: e.id.uuidString, user: e.userID)
        let prompt: Data? = try e.prompt.map { (p) throws(AccountStoreError) in try seal(p, "prompt", key) }
        let photo: Data? = try e.photoReference.map { (p) throws(AccountStoreError) in
            try seal(p, "photo_reference", key)
        }
        return [
            e.id.uuidString, e.userID, try seal(e.title, "title", key), try seal(e.body, "body", key),
            e.savedAt.timeIntervalSince1970,
            e.category, prompt, e.type.rawValue, photo, e.revision,
        ]
    }

    func decode(_ row: SQLiteRow) throws -> JournalEntry {
        let idText: String = try row["id"]
        guard let id = UUID(uuidString: idText) else {
            throw AccountStoreError.storageCorrupted("journal entry ID '\(idText)' is not a UUID")
        }
        guard let type = EntryType(rawValue: try row["type"]) else {
            throw AccountStoreError.storageCorrupted("journal entry \(idText) has unknown type")
        }
        let key = (id: idText, user: try row["user_id"] as String)
        let prompt: Data? = try row["prompt"]
        let photo: Data? = try row["photo_reference"]
        return try JournalEntry(
            id: id, userID: key.user, title: open(row["title"], "title", key),
            body: try open(row["body"], "body", key),
            savedAt: Date(timeIntervalSince1970: row["saved_at"]), category: row["category"],
            prompt: try prompt.map { try open($0, "prompt", key) }, type: type,
            photoReference: try photo.map { try open($0, "photo_reference", key) }, revision: row["revision"])
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
            photo_reference BLOB,
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
/// drop the last transactions. With ``HostDurability/emulated`` (an emulated phone's journal)
/// it is `synchronous = OFF`: the host disk is never synced, and a committed entry still
/// survives the process dying. All SQL is parameterised.
///
/// Entries are private: title, body, prompt and photo reference are stored AES-256-GCM
/// encrypted with a key derived from the ``KeyProvider`` (see ``JournalCodec``), the file
/// holds only a key check value, and `secure_delete` overwrites replaced versions. An entry
/// belongs to the user who first saved it: saving its ID as another user is refused.
public struct JournalStore: Sendable {
    let database: SQLiteDatabase
    let codec: JournalCodec
    /// The file the store lives in.
    public let path: String

    /// Opens (creating if needed) the journal at `path`, encrypted with `keys`; AES-GCM nonces
    /// come from `randomness` (the operating system's generator by default; a seeded generator
    /// only in tests and scenarios, see ``AccountRandomness``). `durability` `.emulated` stops
    /// commits from syncing the host disk (for an emulated phone's journal in a temporary folder).
    /// - Throws: ``AccountStoreError/keyUnavailable(_:)`` when the journal was created with
    ///   another key; ``AccountStoreError/database(_:)`` when SQLite fails.
    public init(
        path: String, keys: KeyProvider,
        randomness: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        durability: HostDurability = .durable
    ) throws(AccountStoreError) {
        self.path = path
        codec = JournalCodec(cipher: FieldCipher(key: keys.journalEncryptionKey), nonces: NonceSource(randomness))
        let options = SQLiteDatabase.Options(
            writeAheadLog: true,
            pragmas: [durability.sqlitePragma ?? "PRAGMA synchronous = NORMAL", "PRAGMA secure_delete = ON"])
        do {
            try PrivateFiles.prepareFile(atPath: path)
            database = try SQLiteDatabase(path: path, options: options)
            try database.migrate([
                SQLiteMigration(
                    "v1-journal",
                    sql: """
                        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
                        \(JournalCodec.tableSQL)
                        CREATE TABLE outbox (
                            seq INTEGER PRIMARY KEY AUTOINCREMENT,
                            entry_id TEXT NOT NULL UNIQUE REFERENCES entries(id) ON DELETE CASCADE,
                            revision INTEGER NOT NULL
                        );
                        """)
            ])
        } catch {
            throw .database("cannot open journal at \(path): \(error)")
        }
        try write { db in try keys.verifyKeyCheck(in: db, store: "the journal at \(path)") }
    }

    func write<T>(_ body: (SQLiteConnection) throws -> T) throws(AccountStoreError) -> T {
        do { return try database.write(body) } catch let error as AccountStoreError { throw error } catch {
            throw .database("\(error)")
        }
    }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws(AccountStoreError) -> T {
        do { return try database.read(body) } catch let error as AccountStoreError { throw error } catch {
            throw .database("\(error)")
        }
    }

    /// Saves a new entry or a new version of an existing one and queues it for sync.
    ///
    /// A new entry is stored with revision 1; saving an existing ID stores revision + 1
    /// (the `revision` passed in is ignored). Returns the entry as read back from the store.
    /// - Throws: ``AccountStoreError/textTooLong(field:byteCount:limitBytes:)`` or
    ///   ``AccountStoreError/invalidText(field:reason:)`` for oversize or malformed fields;
    ///   ``AccountStoreError/entryOwnedByAnotherUser(_:)`` when the ID is another user's entry.
    @discardableResult
    public func save(_ entry: JournalEntry) throws(AccountStoreError) -> JournalEntry {
        try JournalLimits.validate(entry)
        let codec = codec
        return try write { db in
            let current = try db.fetchOne("SELECT revision, user_id FROM entries WHERE id = ?", [entry.id.uuidString])
            if let current, try current["user_id"] as String != entry.userID {
                throw AccountStoreError.entryOwnedByAnotherUser(entry.id)
            }
            var stored = entry
            stored.revision = (try current?["revision"] as Int? ?? 0) + 1
            try db.execute(
                """
                INSERT INTO entries (\(JournalCodec.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET title = excluded.title, body = excluded.body,
                    saved_at = excluded.saved_at, category = excluded.category, prompt = excluded.prompt,
                    type = excluded.type, photo_reference = excluded.photo_reference, revision = excluded.revision
                """, try codec.arguments(stored))
            try db.execute(
                """
                INSERT INTO outbox (entry_id, revision) VALUES (?, ?)
                ON CONFLICT(entry_id) DO UPDATE SET revision = excluded.revision
                """, [stored.id.uuidString, stored.revision])
            // Return the entry as stored: the time goes through a REAL column, and `Date`
            // conversions to and from 1970-based seconds may move it by one ulp.
            guard
                let row = try db.fetchOne(
                    "SELECT \(JournalCodec.columns) FROM entries WHERE id = ?", [stored.id.uuidString])
            else {
                throw AccountStoreError.unknownEntry(stored.id)
            }
            return try codec.decode(row)
        }
    }

    /// The entry with `id`, or `nil`.
    public func entry(id: UUID) throws(AccountStoreError) -> JournalEntry? {
        let codec = codec
        return try read { db in
            try db.fetchOne(
                "SELECT \(JournalCodec.columns) FROM entries WHERE id = ?", [id.uuidString]
            )
            .map(codec.decode)
        }
    }

    /// The entries of `userID` matching `filter`, newest first (ties by ID). O(log n + k) with the index.
    public func entries(userID: String, filter: JournalFilter = JournalFilter()) throws(AccountStoreError)
        -> [JournalEntry]
    {
        var sql = "SELECT \(JournalCodec.columns) FROM entries WHERE user_id = ?"
        var arguments: [any SQLiteBindable] = [userID]
        if let type = filter.type {
            sql += " AND type = ?"
            arguments += [type.rawValue]
        }
        if let category = filter.category {
            sql += " AND category = ?"
            arguments += [category]
        }
        if let from = filter.savedFrom {
            sql += " AND saved_at >= ?"
            arguments += [from.timeIntervalSince1970]
        }
        if let before = filter.savedBefore {
            sql += " AND saved_at < ?"
            arguments += [before.timeIntervalSince1970]
        }
        sql += " ORDER BY saved_at DESC, id"
        let finalSQL = sql
        let finalArguments = arguments
        let codec = codec
        return try read { db in
            try db.fetchAll(finalSQL, finalArguments).map(codec.decode)
        }
    }

    /// The oldest `limit` queued entries, at their current revision.
    public func pendingChanges(limit: Int) throws(AccountStoreError) -> [JournalEntry] {
        let codec = codec
        return try read { db in
            try db.fetchAll(
                """
                SELECT \(JournalCodec.columns.split(separator: ",").map { "e." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                FROM outbox o JOIN entries e ON e.id = o.entry_id ORDER BY o.seq LIMIT ?
                """, [max(0, limit)]
            ).map(codec.decode)
        }
    }

    /// Removes acknowledged changes from the outbox. A change saved again after it was sent
    /// (higher revision) stays queued. Returns how many rows were removed.
    @discardableResult
    public func acknowledge(_ acks: [SyncAck]) throws(AccountStoreError) -> Int {
        try write { db in
            var removed = 0
            for ack in acks {
                try db.execute(
                    "DELETE FROM outbox WHERE entry_id = ? AND revision <= ?", [ack.id.uuidString, ack.revision])
                removed += db.changes
            }
            return removed
        }
    }

    /// Number of changes waiting to be sent.
    public func outboxCount() throws(AccountStoreError) -> Int {
        try read { db in try db.fetchValue(Int.self, "SELECT COUNT(*) FROM outbox") ?? 0 }
    }

    /// Number of stored entries.
    public func entryCount() throws(AccountStoreError) -> Int {
        try read { db in try db.fetchValue(Int.self, "SELECT COUNT(*) FROM entries") ?? 0 }
    }
}

/// A random generator shared by the tasks that use one store (AES-GCM nonces), behind a lock.
final class NonceSource: @unchecked Sendable {
    private let lock = NSLock()
    private var generator: any RandomNumberGenerator & Sendable

    init(_ generator: some RandomNumberGenerator & Sendable) { self.generator = generator }

    /// Runs `body` with the generator, holding the lock.
    func withGenerator<T>(_ body: (inout any RandomNumberGenerator & Sendable) throws(AccountStoreError) -> T)
        throws(AccountStoreError) -> T
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&generator)
    }
}
