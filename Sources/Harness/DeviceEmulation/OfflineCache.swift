import FieldtestData
import Foundation

/// One cached response.
public struct CacheEntry: Sendable, Equatable {
    /// Lookup key (e.g. "weather/Rota").
    public var key: String
    /// Cached bytes.
    public var payload: Data
    /// When the data was fetched, seconds (UTC epoch, virtual clock).
    public var fetchedAt: Double
    /// How long the data stays fresh, seconds; fresh during `[fetchedAt, fetchedAt + timeToLiveSeconds)`.
    public var timeToLiveSeconds: Double

    /// Creates an entry; times in seconds.
    public init(key: String, payload: Data, fetchedAt: Double, timeToLiveSeconds: Double) {
        self.key = key
        self.payload = payload
        self.fetchedAt = fetchedAt
        self.timeToLiveSeconds = timeToLiveSeconds
    }

    /// The instant the entry expires, seconds.
    public var expiresAt: Double { fetchedAt + timeToLiveSeconds }
}

/// Answer to a cache lookup.
public enum CacheLookup: Sendable, Equatable {
    /// Fresh data; `ageSeconds` = lookup time − fetch time.
    case hit(payload: Data, ageSeconds: Double)
    /// Expired data served because the phone is offline (counted as an expired use).
    case expiredUse(payload: Data, ageSeconds: Double)
    /// Nothing usable: no entry, or an expired one while online (`expiredAgeSeconds` is its age then).
    case miss(expiredAgeSeconds: Double?)

    /// The payload served, if any.
    public var payload: Data? {
        switch self {
        case let .hit(payload, _), let .expiredUse(payload, _): payload
        case .miss: nil
        }
    }
}

/// The emulated phone's offline cache: an SQLite database (``SQLiteDatabase``) that survives an emulated restart.
///
/// Storage: one table `cache_entry(key TEXT PRIMARY KEY, payload BLOB, fetched_at REAL, ttl_seconds REAL)`
/// created by a versioned migration; every statement is parameterised. Closing the cache and opening the
/// same file again gives back the same entries (SKY-R1). The database never syncs the host disk
/// (``HostDurability/emulated``, `synchronous = OFF`): the file lives in a run's temporary folder, and a
/// committed entry still survives the emulated restart and the process dying. Statistics live in memory for the run; pass them to
/// `init(path:statistics:)` to carry them across a restart.
///
/// Rules: an entry is fresh while `fetchedAt ≤ t < fetchedAt + ttl` (a hit); from `fetchedAt + ttl` on it is
/// expired, and expired data is served only when offline, counted as an expired use; online, an expired entry
/// is a miss (the app must refetch). Lookups are O(log n) (primary-key index).
///
/// Not thread-safe for statistics: use one cache per emulated device, from one task.
public final class OfflineCache {
    /// Database file path (":memory:"-like paths are not used; tests use temporary files).
    public let path: String
    /// Statistics of the lookups made through this instance.
    public private(set) var statistics: CacheStatistics
    private(set) var queue: SQLiteDatabase?

    /// Opens (creating if needed) the cache database at `path`; throws `.cacheStorage` when it cannot.
    public init(path: String, statistics: CacheStatistics = CacheStatistics()) throws(DeviceEmulationError) {
        self.path = path
        self.statistics = statistics
        do {
            try PrivateFiles.prepareFile(atPath: path)
            let queue = try SQLiteDatabase(
                path: path,
                options: SQLiteDatabase.Options(pragmas: HostDurability.emulated.sqlitePragma.map { [$0] } ?? []))
            try queue.migrate([
                SQLiteMigration(
                    "v1-cache-entry",
                    sql: """
                        CREATE TABLE cache_entry (
                            key TEXT PRIMARY KEY NOT NULL,
                            payload BLOB NOT NULL,
                            fetched_at REAL NOT NULL,
                            ttl_seconds REAL NOT NULL
                        )
                        """)
            ])
            self.queue = queue
        } catch {
            throw .cacheStorage(path: path, reason: String(describing: error))
        }
    }

    /// Closes the database (an emulated power-off); later calls throw `.cacheStorage`.
    public func close() throws(DeviceEmulationError) {
        guard let queue else { return }
        do {
            try queue.close()
        } catch {
            throw .cacheStorage(path: path, reason: String(describing: error))
        }
        self.queue = nil
    }

    /// Stores (or replaces) an entry. Throws `.invalidParameter` for a non-finite fetch time or a
    /// negative TTL, `.cacheStorage` on a database failure.
    public func store(_ entry: CacheEntry) throws(DeviceEmulationError) {
        guard entry.fetchedAt.isFinite else {
            throw .invalidParameter(name: "fetchedAt", value: entry.fetchedAt, expected: "a finite time in seconds")
        }
        try DeviceEmulationError.requireNonNegative(entry.timeToLiveSeconds, "timeToLiveSeconds")
        try withQueue { queue in
            try queue.write { db in
                try db.execute(
                    """
                    INSERT INTO cache_entry (key, payload, fetched_at, ttl_seconds) VALUES (?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET payload = excluded.payload,
                        fetched_at = excluded.fetched_at, ttl_seconds = excluded.ttl_seconds
                    """, [entry.key, entry.payload, entry.fetchedAt, entry.timeToLiveSeconds])
            }
        }
    }

    /// The stored entry for `key`, without touching statistics.
    public func entry(forKey key: String) throws(DeviceEmulationError) -> CacheEntry? {
        try withQueue { queue in
            try queue.read { db in
                try db.fetchOne(
                    "SELECT key, payload, fetched_at, ttl_seconds FROM cache_entry WHERE key = ?", [key]
                ).map(Self.entry(from:))
            }
        }
    }

    /// Every stored entry, ordered by key.
    public func allEntries() throws(DeviceEmulationError) -> [CacheEntry] {
        try withQueue { queue in
            try queue.read { db in
                try db.fetchAll("SELECT key, payload, fetched_at, ttl_seconds FROM cache_entry ORDER BY key")
                    .map(Self.entry(from:))
            }
        }
    }

    /// Looks `key` up at `time` (seconds) and records the outcome in `statistics`.
    ///
    /// `isOnline` says whether the phone can currently reach the network (expired data is served only when it
    /// cannot). Throws `.invalidParameter` when `time` is before the entry's fetch time (a clock error).
    public func lookup(key: String, at time: Double, isOnline: Bool) throws(DeviceEmulationError) -> CacheLookup {
        guard let entry = try entry(forKey: key) else {
            statistics.misses += 1
            return .miss(expiredAgeSeconds: nil)
        }
        let age = time - entry.fetchedAt
        guard age >= 0 else {
            throw .invalidParameter(
                name: "lookup time", value: time,
                expected: "a time not before the entry's fetch time \(entry.fetchedAt) s (virtual clock went backwards)"
            )
        }
        if age < entry.timeToLiveSeconds {
            statistics.hits += 1
            statistics.agesAtUseSeconds.append(age)
            return .hit(payload: entry.payload, ageSeconds: age)
        }
        if isOnline {
            statistics.misses += 1
            return .miss(expiredAgeSeconds: age)
        }
        statistics.expiredUses += 1
        statistics.agesAtUseSeconds.append(age)
        return .expiredUse(payload: entry.payload, ageSeconds: age)
    }

    /// Removes the entry for `key`; returns whether one existed.
    @discardableResult
    public func remove(key: String) throws(DeviceEmulationError) -> Bool {
        try withQueue { queue in
            try queue.write { db in
                try db.execute("DELETE FROM cache_entry WHERE key = ?", [key])
                return db.changes > 0
            }
        }
    }

    /// Deletes every entry expired at `time` (seconds); returns how many were deleted.
    @discardableResult
    public func purgeExpired(at time: Double) throws(DeviceEmulationError) -> Int {
        try withQueue { queue in
            try queue.write { db in
                try db.execute("DELETE FROM cache_entry WHERE fetched_at + ttl_seconds <= ?", [time])
                return db.changes
            }
        }
    }

    /// Number of stored entries.
    public func count() throws(DeviceEmulationError) -> Int {
        try withQueue { queue in
            try queue.read { db in try db.fetchValue(Int.self, "SELECT COUNT(*) FROM cache_entry") ?? 0 }
        }
    }

    private static func entry(from row: SQLiteRow) throws -> CacheEntry {
        try CacheEntry(
            key: row["key"], payload: row["payload"], fetchedAt: row["fetched_at"],
            timeToLiveSeconds: row["ttl_seconds"])
    }

    /// Runs `body` on the open queue, turning any failure into `.cacheStorage`.
    private func withQueue<T>(_ body: (SQLiteDatabase) throws -> T) throws(DeviceEmulationError) -> T {
        guard let queue else {
            throw .cacheStorage(path: path, reason: "the cache is closed (emulated power-off); reopen it first")
        }
        do {
            return try body(queue)
        } catch {
            throw .cacheStorage(path: path, reason: String(describing: error))
        }
    }
}
