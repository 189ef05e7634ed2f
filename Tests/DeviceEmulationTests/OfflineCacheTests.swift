import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import DeviceEmulation

@Suite("Offline cache (SKY-R1)")
struct OfflineCacheTests {
    /// A fresh database path in a new temporary folder.
    static func temporaryDatabasePath() throws -> String {
        let folder = TemporaryFiles.url("fieldtest-cache")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("cache.sqlite").path
    }

    static let payload = Data("{\"cloud\":42}".utf8)

    /// The emulated phone's cache never syncs the host disk; an entry still survives a reopen.
    @Test("the cache database is synchronous OFF and an entry survives closing and reopening it")
    func emulatedStorageDoesNotSyncTheHostDisk() throws {
        let path = try Self.temporaryDatabasePath()
        let cache = try OfflineCache(path: path)
        let queue = try #require(cache.queue)
        #expect(try queue.read { try $0.fetchValue(Int.self, "PRAGMA synchronous") } == 0)
        try cache.store(CacheEntry(key: "k", payload: Self.payload, fetchedAt: 0, timeToLiveSeconds: 60))
        try cache.close()
        #expect(try OfflineCache(path: path).entry(forKey: "k")?.payload == Self.payload)
    }

    @Test("expiry boundaries: fresh before fetch + TTL, expired from it; expired served only offline")
    func expiryBoundaries() throws {
        let cache = try OfflineCache(path: Self.temporaryDatabasePath())
        try cache.store(CacheEntry(key: "weather/Rota", payload: Self.payload, fetchedAt: 1000, timeToLiveSeconds: 300))
        #expect(
            try cache.lookup(key: "weather/Rota", at: 1000, isOnline: true)
                == .hit(payload: Self.payload, ageSeconds: 0))
        let nearlyExpired = try cache.lookup(key: "weather/Rota", at: 1299.5, isOnline: true)
        #expect(nearlyExpired == .hit(payload: Self.payload, ageSeconds: 299.5))
        #expect(try cache.lookup(key: "weather/Rota", at: 1300, isOnline: true) == .miss(expiredAgeSeconds: 300))
        #expect(
            try cache.lookup(key: "weather/Rota", at: 1300, isOnline: false)
                == .expiredUse(payload: Self.payload, ageSeconds: 300))
        #expect(try cache.lookup(key: "weather/Lincoln", at: 1300, isOnline: false) == .miss(expiredAgeSeconds: nil))
        // A zero TTL is expired at once.
        try cache.store(CacheEntry(key: "zero", payload: Self.payload, fetchedAt: 5, timeToLiveSeconds: 0))
        #expect(try cache.lookup(key: "zero", at: 5, isOnline: true) == .miss(expiredAgeSeconds: 0))
    }

    @Test("a lookup before the fetch time is a clock error")
    func clockGoingBackwards() throws {
        let cache = try OfflineCache(path: Self.temporaryDatabasePath())
        try cache.store(CacheEntry(key: "k", payload: Self.payload, fetchedAt: 1000, timeToLiveSeconds: 10))
        #expect(throws: DeviceEmulationError.self) { try cache.lookup(key: "k", at: 999, isOnline: true) }
        #expect(
            throws: DeviceEmulationError.invalidParameter(
                name: "timeToLiveSeconds", value: -1, expected: "a finite number >= 0")
        ) {
            try cache.store(CacheEntry(key: "k", payload: Self.payload, fetchedAt: 0, timeToLiveSeconds: -1))
        }
    }

    @Test("entries survive an emulated restart (close and reopen the same file)")
    func restart() throws {
        let path = try Self.temporaryDatabasePath()
        let cache = try OfflineCache(path: path)
        let entries = [
            CacheEntry(key: "a", payload: Data([0, 1, 2, 255]), fetchedAt: 10.25, timeToLiveSeconds: 300),
            CacheEntry(key: "b'; DROP TABLE cache_entry; --", payload: Data(), fetchedAt: 20, timeToLiveSeconds: 60),
            CacheEntry(key: "weather/Pretoria", payload: Self.payload, fetchedAt: 30, timeToLiveSeconds: 3600),
        ]
        for entry in entries { try cache.store(entry) }
        _ = try cache.lookup(key: "a", at: 11, isOnline: true)
        try cache.close()
        #expect(
            throws: DeviceEmulationError.cacheStorage(
                path: path, reason: "the cache is closed (emulated power-off); reopen it first")
        ) {
            try cache.count()
        }
        let reopened = try OfflineCache(path: path, statistics: cache.statistics)
        #expect(try reopened.allEntries() == entries.sorted { $0.key < $1.key })
        #expect(try reopened.count() == 3)
        #expect(
            try reopened.lookup(key: "weather/Pretoria", at: 100, isOnline: false)
                == .hit(payload: Self.payload, ageSeconds: 70))
        #expect(reopened.statistics.hits == 2)
    }

    @Test("replacing, removing and purging entries")
    func maintenance() throws {
        let cache = try OfflineCache(path: Self.temporaryDatabasePath())
        try cache.store(CacheEntry(key: "k", payload: Data([1]), fetchedAt: 0, timeToLiveSeconds: 10))
        try cache.store(CacheEntry(key: "k", payload: Data([2]), fetchedAt: 50, timeToLiveSeconds: 10))
        #expect(try cache.entry(forKey: "k")?.payload == Data([2]))
        try cache.store(CacheEntry(key: "old", payload: Data([3]), fetchedAt: 0, timeToLiveSeconds: 10))
        #expect(try cache.purgeExpired(at: 10) == 1)
        #expect(try cache.remove(key: "k"))
        #expect(try !cache.remove(key: "k"))
        #expect(try cache.count() == 0)
    }

    @Test("statistics: hits, misses, expired uses and the age-at-use distribution")
    func statistics() throws {
        let cache = try OfflineCache(path: Self.temporaryDatabasePath())
        try cache.store(CacheEntry(key: "w", payload: Self.payload, fetchedAt: 0, timeToLiveSeconds: 300))
        // Ages 0, 60, …, 540 s, online at even steps: five fresh hits (ages 0…240), then five expired
        // lookups: offline at ages 300, 420, 540 (served, expired uses), online at 360, 480 (misses).
        for step in 0..<10 {
            _ = try cache.lookup(key: "w", at: Double(step) * 60, isOnline: step % 2 == 0)
        }
        _ = try cache.lookup(key: "nothing", at: 0, isOnline: true)
        let stats = cache.statistics
        #expect(stats.hits == 5)  // ages 0, 60, 120, 180, 240
        #expect(stats.misses == 3)  // ages 360 and 480 online, plus the unknown key
        #expect(stats.expiredUses == 3)  // ages 300, 420, 540 offline
        #expect(stats.lookups == 11)
        #expect(stats.agesAtUseSeconds == [0, 60, 120, 180, 240, 300, 420, 540])
        #expect(abs(stats.hitRate - 5.0 / 11.0) < 1e-12)
        #expect(abs((stats.ageAtUseQuantile(0.5) ?? -1) - 210) < 1e-9)
        #expect(abs(stats.maximumAgeAtUseSeconds - 540) < 1e-9)
        #expect(CacheStatistics().ageAtUseQuantile(0.5) == nil)
    }

    @Test("a database in a missing folder is a clear storage error")
    func unopenable() {
        let path = "/nonexistent-folder-\(UUID().uuidString)/cache.sqlite"
        do {
            _ = try OfflineCache(path: path)
            Issue.record("opening \(path) should fail")
        } catch {
            guard case let .cacheStorage(errorPath, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(errorPath == path)
            #expect(error.description.hasPrefix("offline cache database '\(path)' failed: "))
        }
    }
}
