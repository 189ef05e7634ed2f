import FieldtestData
import Foundation

/// The server's receipt for one entry: it holds `id` at `revision` or newer.
public struct SyncAck: Sendable, Equatable, Hashable {
    /// The entry.
    public let id: UUID
    /// The revision the server now holds (at least the one sent).
    public let revision: Int

    /// Creates a receipt.
    public init(id: UUID, revision: Int) {
        self.id = id
        self.revision = revision
    }
}

/// The emulated journal back end (standing in for BeenThereDoneThat's Firestore): an
/// in-memory SQLite database that stores entries idempotently by their client-generated UUID.
/// It never touches the disk, so entries are kept in clear (``JournalCodec/plain``); an entry
/// belongs to the user who first sent it, and a batch sending another user's entry ID is refused.
///
/// Receiving the same entry again never creates a second row (`id` is the primary key); a
/// newer revision replaces an older one and an older or equal one changes nothing, so
/// retries and replays after a crash are harmless. Counters record how often that happened.
public struct EmulatedJournalServer: Sendable {
    let database: SQLiteDatabase

    /// A fresh, empty server.
    public init() throws(AccountStoreError) {
        do {
            database = try SQLiteDatabase.inMemory()
            try database.write { db in
                try db.execute(JournalCodec.tableSQL)
                try db.execute(
                    """
                    CREATE TABLE receipts (id TEXT PRIMARY KEY NOT NULL, deliveries INTEGER NOT NULL, first_received_at REAL NOT NULL);
                    """)
            }
        } catch {
            throw .database("cannot create the emulated server: \(error)")
        }
    }

    /// Stores `batch` at `now` and returns one receipt per entry. O(b log n).
    public func receive(_ batch: [JournalEntry], now: Date) throws(AccountStoreError) -> [SyncAck] {
        do {
            return try database.write { db in
                for entry in batch {
                    let owner = try db.fetchValue(
                        String.self, "SELECT user_id FROM entries WHERE id = ?", [entry.id.uuidString])
                    if let owner, owner != entry.userID { throw AccountStoreError.entryOwnedByAnotherUser(entry.id) }
                }
                return try batch.map { entry in
                    try db.execute(
                        """
                        INSERT INTO entries (\(JournalCodec.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET title = excluded.title,
                            body = excluded.body, saved_at = excluded.saved_at, category = excluded.category,
                            prompt = excluded.prompt, type = excluded.type, photo_reference = excluded.photo_reference,
                            revision = excluded.revision
                        WHERE excluded.revision > entries.revision
                        """, try JournalCodec.plain.arguments(entry))
                    try db.execute(
                        """
                        INSERT INTO receipts (id, deliveries, first_received_at) VALUES (?, 1, ?)
                        ON CONFLICT(id) DO UPDATE SET deliveries = deliveries + 1
                        """, [entry.id.uuidString, now.timeIntervalSince1970])
                    let held =
                        try db.fetchValue(Int.self, "SELECT revision FROM entries WHERE id = ?", [entry.id.uuidString])
                        ?? entry.revision
                    return SyncAck(id: entry.id, revision: held)
                }
            }
        } catch let error as AccountStoreError {
            throw error
        } catch {
            throw .database("emulated server failed: \(error)")
        }
    }

    /// Every stored entry, ordered by ID.
    public func allEntries() throws(AccountStoreError) -> [JournalEntry] {
        do {
            return try database.read { db in
                try db.fetchAll("SELECT \(JournalCodec.columns) FROM entries ORDER BY id").map(
                    JournalCodec.plain.decode)
            }
        } catch { throw .database("\(error)") }
    }

    /// Delivery statistics: rows stored, distinct IDs stored, total deliveries, and the
    /// time (UTC) each entry first arrived.
    public func statistics() throws(AccountStoreError) -> (
        rows: Int, distinctIDs: Int, deliveries: Int, firstReceived: [UUID: Date]
    ) {
        do {
            return try database.read { db in
                let rows = try db.fetchValue(Int.self, "SELECT COUNT(*) FROM entries") ?? 0
                let distinct = try db.fetchValue(Int.self, "SELECT COUNT(DISTINCT id) FROM entries") ?? 0
                let deliveries = try db.fetchValue(Int.self, "SELECT COALESCE(SUM(deliveries), 0) FROM receipts") ?? 0
                var first: [UUID: Date] = [:]
                for row in try db.fetchAll("SELECT id, first_received_at FROM receipts") {
                    if let id = UUID(uuidString: try row["id"]) {
                        first[id] = Date(timeIntervalSince1970: try row["first_received_at"])
                    }
                }
                return (rows, distinct, deliveries, first)
            }
        } catch { throw .database("\(error)") }
    }
}

/// Why a push did not complete.
public enum SyncTransportError: Error, Sendable, Equatable {
    /// No connectivity: nothing was sent.
    case offline
    /// The request was lost on the way; the server never saw it.
    case requestLost
    /// The server stored the batch but its response was lost (looks like a timeout).
    case responseLost
    /// The application died after sending and before handling the response: the server
    /// may hold the batch, the device never records the acknowledgement.
    case crashedAfterSend
}

/// A way to push a batch of entries to the server.
public protocol JournalTransport {
    /// Sends `batch` at `now`; returns the server's receipts or throws what went wrong.
    mutating func push(_ batch: [JournalEntry], now: Date) throws(SyncTransportError) -> [SyncAck]
}

/// A perfect connection straight to an ``EmulatedJournalServer``.
public struct DirectTransport: JournalTransport {
    /// The server.
    public let server: EmulatedJournalServer

    /// A transport to `server`.
    public init(server: EmulatedJournalServer) {
        self.server = server
    }

    /// Delivers `batch`; a server failure is reported as a lost response.
    public mutating func push(_ batch: [JournalEntry], now: Date) throws(SyncTransportError) -> [SyncAck] {
        do { return try server.receive(batch, now: now) } catch { throw .responseLost }
    }
}

/// A seeded unreliable connection to an ``EmulatedJournalServer``: offline periods, lost
/// requests, lost responses, and crashes between send and acknowledgement.
public struct FlakyTransport<Generator: RandomNumberGenerator>: JournalTransport {
    /// The server.
    public let server: EmulatedJournalServer
    /// Whether the device is online.
    public var isOnline: Bool
    /// Probability that a request is lost before the server sees it.
    public var requestLossProbability: Double
    /// Probability that the server stores the batch but the response is lost.
    public var responseLossProbability: Double
    /// Probability that the app crashes after the server stored the batch, before the ack is handled.
    public var crashProbability: Double
    /// The seeded source of the failures.
    public var rng: Generator
    /// Counts of each outcome so far.
    public private(set) var counts: [String: Int] = [:]

    /// Creates a transport.
    public init(
        server: EmulatedJournalServer, isOnline: Bool = true, requestLossProbability: Double,
        responseLossProbability: Double, crashProbability: Double, rng: Generator
    ) {
        self.server = server
        self.isOnline = isOnline
        self.requestLossProbability = requestLossProbability
        self.responseLossProbability = responseLossProbability
        self.crashProbability = crashProbability
        self.rng = rng
    }

    /// Delivers `batch` unless a failure is drawn.
    public mutating func push(_ batch: [JournalEntry], now: Date) throws(SyncTransportError) -> [SyncAck] {
        guard isOnline else {
            counts["offline", default: 0] += 1
            throw .offline
        }
        if Double.random(in: 0..<1, using: &rng) < requestLossProbability {
            counts["requestLost", default: 0] += 1
            throw .requestLost
        }
        let acks: [SyncAck]
        do { acks = try server.receive(batch, now: now) } catch {
            counts["responseLost", default: 0] += 1
            throw .responseLost
        }
        let draw = Double.random(in: 0..<1, using: &rng)
        if draw < crashProbability {
            counts["crashedAfterSend", default: 0] += 1
            throw .crashedAfterSend
        }
        if draw < crashProbability + responseLossProbability {
            counts["responseLost", default: 0] += 1
            throw .responseLost
        }
        counts["delivered", default: 0] += 1
        return acks
    }
}
