import FieldtestData
import Foundation
import Testing

@testable import AccountStore

@Suite("Encryption at rest (SKY-SEC)")
struct EncryptionAtRestTests {
    let t0 = Fixture.t0

    /// Every byte SQLite wrote for the database: the main file and any journal or WAL.
    static func rawBytes(of path: String) -> [UInt8] {
        ["", "-journal", "-wal", "-shm"].flatMap { suffix -> [UInt8] in
            (FileManager.default.contents(atPath: path + suffix)).map { [UInt8]($0) } ?? []
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard !n.isEmpty, haystack.count >= n.count else { return false }
        for start in 0...(haystack.count - n.count) where haystack[start] == n[0] {
            if haystack[start..<(start + n.count)].elementsEqual(n) { return true }
        }
        return false
    }

    @Test("The SQLite file holds no plaintext email, password or key")
    func noPlaintextInFile() throws {
        var rng = SeededGenerator(seed: 31)
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("accounts.sqlite").path
        let keyText = (0..<32).map { String(format: "%02x", UInt8($0 * 7 + 3)) }.joined()
        let keys = try KeyProvider.parse(keyText, source: "test")
        let registry = try Fixture.registry(.skyScapeRegistration, path: path, keys: keys)
        let email = "Alice.Sunset@Example.org"
        let password = "Golden#Hour2024"
        let form = RegistrationForm(username: "alice", email: email, password: password, passwordConfirmation: password)
        guard case .pendingVerification(let d) = try registry.register(form, now: t0, using: &rng) else {
            Issue.record("expected a pending verification")
            return
        }
        let user = try registry.verifyEmail(pendingID: d.pendingID, code: d.code, now: t0)
        _ = try registry.login(identifier: email, password: password, now: t0, using: &rng)
        #expect(throws: AccountStoreError.incorrectCredentials) {
            try registry.login(identifier: "alice", password: "Wrong#Guess1", now: t0, using: &rng)
        }

        let bytes = Self.rawBytes(of: path)
        #expect(bytes.count > 4096)
        #expect(Self.contains(bytes, "alice"))  // control: the scan does find stored plaintext (the public username)
        for secret in [
            email, email.lowercased(), "Alice.Sunset", "alice.sunset", "Example.org", "example.org",
            password, "Wrong#Guess1", keyText,
        ] {
            #expect(!Self.contains(bytes, secret), "plaintext '\(secret)' found in the database file")
        }
        // Neither the raw key nor the derived subkeys appear.
        let keyBytes = (0..<32).map { UInt8($0 * 7 + 3) }
        for needle in [
            keyBytes, keys.fieldEncryptionKey.withUnsafeBytes { Array($0) },
            keys.indexKey.withUnsafeBytes { Array($0) },
        ] {
            let found = bytes.indices.dropLast(needle.count).contains {
                bytes[$0..<($0 + needle.count)].elementsEqual(needle)
            }
            #expect(!found)
        }
        // The application still reads everything back with the key.
        #expect(try registry.account(id: user.id).email == email)
    }

    @Test("Opening the database with another key fails clearly; tampered ciphertext is detected")
    func wrongKeyAndTampering() throws {
        var rng = SeededGenerator(seed: 32)
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("accounts.sqlite").path
        let registry = try Fixture.registry(.beenThereDoneThat, path: path)
        guard
            case .created(let a) = try registry.register(
                RegistrationForm(email: "a@example.org", password: "journaling"),
                now: t0, using: &rng),
            case .created(let b) = try registry.register(
                RegistrationForm(email: "b@example.org", password: "journaling"),
                now: t0, using: &rng)
        else { return }
        let other = try KeyProvider(keyBytes: [UInt8](repeating: 9, count: 32))
        #expect(throws: AccountStoreError.keyUnavailable("the database was created with a different key")) {
            try Fixture.registry(.beenThereDoneThat, path: path, keys: other)
        }
        // Copying b's ciphertext into a's row fails authentication (bound to the row by AAD).
        try registry.write { db in
            try db.execute(
                "UPDATE users SET email_cipher = (SELECT email_cipher FROM users WHERE id = ?) WHERE id = ?",
                [b.id, a.id])
        }
        #expect(throws: AccountStoreError.self) { try registry.account(id: a.id) }
        #expect(try registry.account(id: b.id).email == "b@example.org")
    }

    @Test("Keys are parsed from 64 hex digits; malformed key text is refused clearly")
    func keyProvider() throws {
        #expect(throws: AccountStoreError.keyUnavailable("test holds 6 characters, expected 64 hex digits")) {
            try KeyProvider.parse("abcdef", source: "test")
        }
        #expect(throws: AccountStoreError.keyUnavailable("test holds a non-hexadecimal character")) {
            try KeyProvider.parse(String(repeating: "zz", count: 32), source: "test")
        }
        // 64 bytes of UTF-8 that are not 64 characters, and a sign: errors, not a crash or a key.
        for text in [String(repeating: "a", count: 62) + "é", "+f" + String(repeating: "0", count: 62)] {
            #expect(throws: AccountStoreError.keyUnavailable("test holds a non-hexadecimal character")) {
                try KeyProvider.parse(text, source: "test")
            }
        }
        #expect(
            try KeyProvider.parse(String(repeating: "aB", count: 32), source: "test").keyCheckValue
                == KeyProvider(keyBytes: [UInt8](repeating: 0xAB, count: 32)).keyCheckValue)
    }

    @Test("BTD journal: the file holds no entry title, body, prompt or photo reference; the app reads them back")
    func journalHoldsNoPlaintext() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("journal.sqlite").path
        let store = try JournalStore(path: path, keys: Fixture.keys, randomness: SeededGenerator(seed: 41))
        var rng = SeededGenerator(seed: 42)
        let entry = JournalEntry(
            id: AccountRandomness.uuid(using: &rng), userID: "user-1", title: "Secret Trip Plans",
            body: "We met at the Lighthouse Cafe and talked until midnight", savedAt: t0, category: "Travel",
            prompt: "Where did you wander today?", type: .pictureDiary, photoReference: "IMG_PRIVATE_0042.heic")
        var stored = try store.save(entry)
        stored.body = "An edited body that replaces the first"
        stored = try store.save(stored)
        let bytes = Self.rawBytes(of: path)
        #expect(Self.contains(bytes, "Travel"))  // control: the clear category is found by the scan
        for secret in [
            "Secret Trip Plans", "Lighthouse Cafe", "An edited body", "Where did you wander", "IMG_PRIVATE_0042",
        ] {
            #expect(!Self.contains(bytes, secret), "plaintext '\(secret)' found in the journal file")
        }
        #expect(try store.entry(id: entry.id)?.body == "An edited body that replaces the first")
        #expect(try store.entry(id: entry.id)?.photoReference == "IMG_PRIVATE_0042.heic")
        // Reopened with the same key it reads back; with another key it refuses to open.
        #expect(try JournalStore(path: path, keys: Fixture.keys).entry(id: entry.id)?.title == "Secret Trip Plans")
        let other = try KeyProvider(keyBytes: [UInt8](repeating: 9, count: 32))
        #expect(throws: AccountStoreError.keyUnavailable("the journal at \(path) was created with a different key")) {
            try JournalStore(path: path, keys: other)
        }
    }

    @Test("BTD journal: a body moved to another entry's row fails authentication")
    func journalTamperingIsDetected() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("journal.sqlite").path
        let store = try JournalStore(path: path, keys: Fixture.keys)
        var rng = SeededGenerator(seed: 43)
        let a = try store.save(
            JournalEntry(
                id: AccountRandomness.uuid(using: &rng), userID: "u", title: "A", body: "first body",
                savedAt: t0, category: "Daily", prompt: nil, type: .journal, photoReference: nil))
        let b = try store.save(
            JournalEntry(
                id: AccountRandomness.uuid(using: &rng), userID: "u", title: "B", body: "second body",
                savedAt: t0, category: "Daily", prompt: nil, type: .journal, photoReference: nil))
        let queue = try SQLiteDatabase(path: path)
        try queue.write { db in
            let body = try db.fetchValue(Data.self, "SELECT body FROM entries WHERE id = ?", [a.id.uuidString])
            try db.execute("UPDATE entries SET body = ? WHERE id = ?", [body, b.id.uuidString])
        }
        try queue.close()
        #expect(try store.entry(id: a.id)?.body == "first body")
        #expect(
            throws: AccountStoreError.storageCorrupted(
                "entries.body:\(b.id.uuidString):u does not decrypt (wrong key or modified data)")
        ) {
            try store.entry(id: b.id)
        }
    }
}
