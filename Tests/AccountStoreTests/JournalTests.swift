import FieldtestData
import Foundation
import Testing

@testable import AccountStore

@Suite("Journal entries, prompts and filters")
struct JournalTests {
    let t0 = Fixture.t0

    static func store() throws -> (JournalStore, URL) {
        let dir = try Fixture.temporaryDirectory()
        return (
            try JournalStore(
                path: dir.appendingPathComponent("journal.sqlite").path, keys: Fixture.keys,
                randomness: SeededGenerator(seed: 5)), dir
        )
    }

    func entry(_ n: Int, type: EntryType, category: String, at seconds: Double, user: String = "u1") -> JournalEntry {
        var rng = SeededGenerator(seed: UInt64(n + 1000))
        return JournalEntry(
            id: AccountRandomness.uuid(using: &rng), userID: user, title: "Title \(n)", body: "Body \(n)",
            savedAt: t0.addingTimeInterval(seconds), category: category,
            prompt: PromptCatalogue.bundled.prompts(in: category).first, type: type,
            photoReference: type == .pictureDiary ? "IMG_\(n).heic" : nil)
    }

    @Test("BTD-J1: an entry round-trips with every field; a second save bumps the revision")
    func roundTrip() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let e = entry(1, type: .pictureDiary, category: "Travel", at: 0)
        let stored = try store.save(e)
        #expect(stored.revision == 1)
        #expect(try store.entry(id: e.id) == stored)
        var edited = stored
        edited.body = "Changed"
        #expect(try store.save(edited).revision == 2)
        #expect(try store.entry(id: e.id)?.body == "Changed")
        #expect(try store.outboxCount() == 1)  // edits coalesce in the outbox
        #expect(try store.entry(id: UUID()) == nil)
    }

    @Test("An entry belongs to the user who saved it: another user cannot overwrite it, on the phone or the server")
    func entriesKeepTheirOwner() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mine = try store.save(entry(7, type: .journal, category: "Daily", at: 0, user: "owner"))
        var stolen = mine
        stolen.userID = "intruder"
        stolen.body = "overwritten"
        #expect(throws: AccountStoreError.entryOwnedByAnotherUser(mine.id)) { try store.save(stolen) }
        #expect(try store.entry(id: mine.id)?.userID == "owner")
        #expect(try store.entry(id: mine.id)?.body == mine.body)
        let server = try EmulatedJournalServer()
        _ = try server.receive([mine], now: t0)
        stolen.revision = mine.revision + 5
        #expect(throws: AccountStoreError.entryOwnedByAnotherUser(mine.id)) { try server.receive([stolen], now: t0) }
        #expect(try server.allEntries().map(\.userID) == ["owner"])
        #expect(try server.allEntries().map(\.body) == [mine.body])
    }

    @Test("BTD-J3: filters by type, category and half-open date range")
    func filters() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let entries = [
            entry(0, type: .journal, category: "Travel", at: 0),
            entry(1, type: .pictureDiary, category: "Travel", at: 3_600),
            entry(2, type: .journal, category: "Gratitude", at: 7_200),
            entry(3, type: .pictureDiary, category: "Nature", at: 86_400),
            entry(4, type: .journal, category: "Travel", at: 90_000, user: "u2"),
        ]
        for e in entries { try store.save(e) }
        let ids = { (f: JournalFilter) throws -> [String] in try store.entries(userID: "u1", filter: f).map(\.title) }
        #expect(try ids(JournalFilter()) == ["Title 3", "Title 2", "Title 1", "Title 0"])
        #expect(try ids(JournalFilter(type: .pictureDiary)) == ["Title 3", "Title 1"])
        #expect(try ids(JournalFilter(category: "Travel")) == ["Title 1", "Title 0"])
        #expect(try ids(JournalFilter(type: .journal, category: "Travel")) == ["Title 0"])
        #expect(
            try ids(JournalFilter(savedFrom: t0.addingTimeInterval(3_600), savedBefore: t0.addingTimeInterval(86_400)))
                == ["Title 2", "Title 1"])
        #expect(try ids(JournalFilter(category: "Travel'; DROP TABLE entries;--")) == [])
        #expect(try store.entryCount() == 5)
    }

    @Test("BTD-P1: recommended prompts are grouped by category")
    func prompts() {
        var rng = SeededGenerator(seed: 3)
        let catalogue = PromptCatalogue.bundled
        #expect(catalogue.categories == ["Gratitude", "Travel", "Reflection", "Goals", "Memories", "Nature"])
        #expect(catalogue.groups.allSatisfy { $0.prompts.count == 5 })
        #expect(Set(catalogue.groups.flatMap(\.prompts)).count == 30)
        #expect(catalogue.category(of: "What was the sky like today?") == "Nature")
        let picks = catalogue.recommended(in: "travel", count: 3, using: &rng)
        #expect(picks.count == 3 && Set(picks).count == 3)
        #expect(picks.allSatisfy { catalogue.category(of: $0) == "Travel" })
        #expect(catalogue.prompts(in: "Unknown").isEmpty)
    }

    @Test(
        "Hostile titles and bodies are stored and read back intact",
        arguments: [
            ("O'Brien \"quoted\"", "Robert'); DROP TABLE entries;-- "),
            ("NUL\u{0}inside", "before\u{0}after\u{0}"),
            (
                "\u{1F305}\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} emoji",
                "e\u{301} combining, \u{FEFF}BOM, RTL \u{202E}text"
            ),
            ("", "%_ LIKE wildcards \\ backslash ? placeholders :name $1"),
        ])
    func hostileText(title: String, body: String) throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        var e = entry(9, type: .journal, category: "Reflection", at: 0)
        e.title = title
        e.body = body
        try store.save(e)
        let back = try store.entry(id: e.id)
        #expect(back.map { Array($0.title.utf8) } == Array(title.utf8))
        #expect(back.map { Array($0.body.utf8) } == Array(body.utf8))
        #expect(try store.entryCount() == 1)
    }

    @Test("A 1 MB body round-trips; bodies over 4 MiB and control characters in categories are refused")
    func sizeLimits() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        var e = entry(10, type: .journal, category: "Memories", at: 0)
        e.body = String(repeating: "Sunset ☀️ ", count: 1_000_000 / 14)
        #expect(e.body.utf8.count > 990_000)
        try store.save(e)
        #expect(try store.entry(id: e.id)?.body == e.body)
        e.body = String(repeating: "x", count: JournalLimits.bodyBytes + 1)
        #expect(
            throws: AccountStoreError.textTooLong(
                field: "body", byteCount: JournalLimits.bodyBytes + 1, limitBytes: JournalLimits.bodyBytes)
        ) {
            try store.save(e)
        }
        e.body = "ok"
        e.category = "Tra\u{0}vel"
        #expect(
            throws: AccountStoreError.invalidText(field: "category", reason: "it contains the control character U+0")
        ) {
            try store.save(e)
        }
    }
}

@Suite("Journal synchronisation (BTD-S1)")
struct JournalSyncTests {
    let t0 = Fixture.t0

    @Test("Back-off doubles from 1 s to a 300 s cap with equal jitter")
    func backoff() {
        var rng = SeededGenerator(seed: 5)
        let policy = BackoffPolicy.standard
        for failures in 1...12 {
            let ceiling = min(300, pow(2, Double(failures - 1)))
            for _ in 0..<20 {
                let d = policy.delaySeconds(afterFailures: failures, using: &rng)
                #expect(d >= ceiling / 2 && d <= ceiling)
            }
        }
    }

    @Test("The server is idempotent by UUID and keeps the highest revision")
    func serverIdempotent() throws {
        let server = try EmulatedJournalServer()
        var e = JournalEntry(
            id: UUID(), userID: "u", title: "t", body: "b", savedAt: t0, category: "Travel", type: .journal)
        _ = try server.receive([e, e], now: t0)
        _ = try server.receive([e], now: t0)
        e.revision = 3
        e.body = "newer"
        _ = try server.receive([e], now: t0)
        var older = e
        older.revision = 2
        older.body = "older"
        let acks = try server.receive([older], now: t0)
        #expect(acks == [SyncAck(id: e.id, revision: 3)])
        let stats = try server.statistics()
        #expect(stats.rows == 1 && stats.distinctIDs == 1 && stats.deliveries == 5)
        #expect(try server.allEntries() == [e])
    }

    @Test("A crash between send and acknowledgement leads to a resend, not a loss or duplicate")
    func crashThenResend() throws {
        var rng = SeededGenerator(seed: 6)
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("j.sqlite").path
        let server = try EmulatedJournalServer()
        var client = try JournalSyncClient(store: JournalStore(path: path, keys: Fixture.keys), now: t0)
        let e = JournalEntry(
            id: UUID(), userID: "u", title: "t", body: "b", savedAt: t0, category: "Travel", type: .journal)
        try client.store.save(e)
        client.noteLocalChange(now: t0)
        var crashing = FlakyTransport(
            server: server, requestLossProbability: 0, responseLossProbability: 0,
            crashProbability: 1, rng: SeededGenerator(seed: 1))
        #expect(try client.step(now: t0, transport: &crashing, using: &rng) == .crashed)
        #expect(try server.statistics().rows == 1)  // the server got it…
        let reopened = try JournalStore(path: path, keys: Fixture.keys)  // …but the relaunched app still has it queued
        #expect(try reopened.outboxCount() == 1)
        var relaunched = try JournalSyncClient(store: reopened, now: t0.addingTimeInterval(5))
        var direct = DirectTransport(server: server)
        #expect(
            try relaunched.step(now: t0.addingTimeInterval(5), transport: &direct, using: &rng)
                == .acknowledged(count: 1, remaining: 0))
        let stats = try server.statistics()
        #expect(stats.rows == 1 && stats.deliveries == 2)
        #expect(try reopened.outboxCount() == 0)
        #expect(relaunched.nextAttemptAt == nil)
    }

    @Test("Offline: the push fails, backs off, and succeeds when connectivity returns")
    func offlineBackoff() throws {
        var rng = SeededGenerator(seed: 7)
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try EmulatedJournalServer()
        var client = try JournalSyncClient(
            store: JournalStore(path: dir.appendingPathComponent("j.sqlite").path, keys: Fixture.keys), now: t0)
        var transport = FlakyTransport(
            server: server, isOnline: false, requestLossProbability: 0,
            responseLossProbability: 0, crashProbability: 0, rng: SeededGenerator(seed: 2))
        for i in 0..<120 {
            try client.store.save(
                JournalEntry(
                    id: UUID(), userID: "u", title: "\(i)", body: "", savedAt: t0,
                    category: "Goals", type: .journal))
        }
        client.noteLocalChange(now: t0)
        guard case .failed(.offline, let retry) = try client.step(now: t0, transport: &transport, using: &rng) else {
            Issue.record("expected an offline failure")
            return
        }
        #expect(retry.timeIntervalSince(t0) >= 0.5 && retry.timeIntervalSince(t0) <= 1)
        #expect(try client.step(now: t0, transport: &transport, using: &rng) == .idle)  // still backing off
        transport.isOnline = true
        client.connectivityRestored(now: t0.addingTimeInterval(2))
        #expect(
            try client.step(now: t0.addingTimeInterval(2), transport: &transport, using: &rng)
                == .acknowledged(count: 50, remaining: 70))
        #expect(
            try client.step(now: t0.addingTimeInterval(2), transport: &transport, using: &rng)
                == .acknowledged(count: 50, remaining: 20))
        #expect(
            try client.step(now: t0.addingTimeInterval(2), transport: &transport, using: &rng)
                == .acknowledged(count: 20, remaining: 0))
        #expect(try server.statistics().rows == 120)
    }
}
