import FieldtestData
import Foundation
import Testing

@testable import AccountStore

/// An emulated phone's stores never sync the host disk (`synchronous = OFF`); stores opened by a
/// library user keep SQLite's durable settings.
@Suite("Host disk syncs of the stores")
struct HostDurabilityTests {
    static func synchronous(_ db: SQLiteConnection) throws -> Int? { try db.fetchValue(Int.self, "PRAGMA synchronous") }

    @Test("an emulated journal is synchronous OFF, a durable one NORMAL; a saved entry survives reopening")
    func journal() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("emulated.sqlite").path
        let emulated = try JournalStore(path: path, keys: Fixture.keys, durability: .emulated)
        #expect(try emulated.database.read(Self.synchronous) == 0)
        let durable = try JournalStore(path: dir.appendingPathComponent("durable.sqlite").path, keys: Fixture.keys)
        #expect(try durable.database.read(Self.synchronous) == 1)
        var rng = SeededGenerator(seed: 3)
        let entry = JournalEntry(
            id: AccountRandomness.uuid(using: &rng), userID: "u1", title: "T", body: "B", savedAt: Fixture.t0,
            category: "Travel", prompt: nil, type: .journal, photoReference: nil)
        _ = try emulated.save(entry)
        let reopened = try JournalStore(path: path, keys: Fixture.keys, durability: .emulated)
        #expect(try reopened.entry(id: entry.id)?.title == "T")
    }

    @Test("an emulated account registry is synchronous OFF, a durable one FULL")
    func registry() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let configuration = AccountRegistryConfiguration(
            policy: .weatherCities, hashing: .unsafeForTesting(iterations: 1_000))
        let emulated = try AccountRegistry(
            path: dir.appendingPathComponent("e.sqlite").path, keys: Fixture.keys, configuration: configuration,
            durability: .emulated)
        #expect(try emulated.database.read(Self.synchronous) == 0)
        let durable = try AccountRegistry(
            path: dir.appendingPathComponent("d.sqlite").path, keys: Fixture.keys, configuration: configuration)
        #expect(try durable.database.read(Self.synchronous) == 2)
    }
}
