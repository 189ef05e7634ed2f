import FieldtestData
import Foundation
import Testing

@testable import AccountStore

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

@Suite("Password hashing")
struct PasswordHasherTests {
    @Test("PBKDF2-HMAC-SHA256 matches the RFC 7914 §11 test vectors")
    func knownAnswers() throws {
        let one = try PasswordHasher.derive("passwd", salt: Array("salt".utf8), iterations: 1, byteCount: 64)
        #expect(
            hex(one)
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
        )
        let many = try PasswordHasher.derive("Password", salt: Array("NaCl".utf8), iterations: 80_000, byteCount: 64)
        #expect(
            hex(many)
                == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"
        )
    }

    /// The only test that pays the full production cost (three 600,000-iteration derivations).
    @Test("Production parameters: format, 600,000 iterations, 16-byte salt, 32-byte hash, verify")
    func production() throws {
        var rng = SystemRandomNumberGenerator()
        let hasher = PasswordHasher(parameters: .production)
        let encoded = try hasher.hash("Sunset#2024", using: &rng)
        #expect(encoded.hasPrefix("$pbkdf2-sha256$i=600000$"))
        let parsed = try PasswordHash(encoded: encoded)
        #expect(parsed.iterations == 600_000)
        #expect(parsed.salt.count == 16)
        #expect(parsed.hash.count == 32)
        #expect(parsed.encoded == encoded)
        #expect(try hasher.verify("Sunset#2024", against: encoded))
        #expect(try !hasher.verify("sunset#2024", against: encoded))
        #expect(!hasher.needsRehash(encoded))
    }

    @Test("The production floor is enforced", arguments: [599_999, 1, 0, 10_000_001])
    func floor(iterations: Int) {
        #expect(throws: AccountStoreError.self) { try PasswordHashingParameters(iterations: iterations) }
    }

    @Test("Short salts and hashes are refused")
    func shortParts() throws {
        #expect(throws: AccountStoreError.insecureHashingParameters("a 8-byte salt; use at least 16 bytes")) {
            try PasswordHashingParameters(iterations: 600_000, saltByteCount: 8)
        }
        #expect(try PasswordHashingParameters(iterations: 700_000).iterations == 700_000)
    }

    @Test("Salts are fresh, so equal passwords hash differently; rehash is flagged for weak hashes")
    func saltsDiffer() throws {
        var rng = SeededGenerator(seed: 1)
        let hasher = PasswordHasher(parameters: .unsafeForTesting(iterations: 1_000))
        let a = try hasher.hash("Same#Password1", using: &rng)
        let b = try hasher.hash("Same#Password1", using: &rng)
        #expect(a != b)
        #expect(try hasher.verify("Same#Password1", against: a))
        #expect(try hasher.verify("Same#Password1", against: b))
        #expect(PasswordHasher(parameters: .production).needsRehash(a))
    }

    @Test("Passwords are compared after NFKC normalisation")
    func normalisation() throws {
        var rng = SeededGenerator(seed: 2)
        let hasher = PasswordHasher(parameters: .unsafeForTesting(iterations: 1_000))
        let encoded = try hasher.hash("Caf\u{E9}#Sunset1", using: &rng)
        #expect(try hasher.verify("Cafe\u{301}#Sunset1", against: encoded))
        #expect(try !hasher.verify("Cafe#Sunset1", against: encoded))
        #expect(!hasher.verifyAgainstDummy("Caf\u{E9}#Sunset1"))
    }

    @Test(
        "Malformed stored hashes are reported",
        arguments: [
            "", "pbkdf2-sha256$i=1$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA",
            "$bcrypt$i=1$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA",
            "$pbkdf2-sha256$i=0$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA",
            "$pbkdf2-sha256$i=99999999999$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA",
            "$pbkdf2-sha256$i=1$!!$AAAAAAAAAAAAAAAAAAAAAA", "$pbkdf2-sha256$i=1$AAAAAAAAAAA$AA",
        ])
    func malformed(encoded: String) {
        #expect(throws: AccountStoreError.self) { try PasswordHash(encoded: encoded) }
    }
}

@Suite("Login throttling")
struct LoginThrottleTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("Five failures within 15 minutes lock for 15 minutes")
    func lockout() throws {
        var state = LoginThrottleState()
        let policy = LoginThrottlePolicy.standard
        for i in 0..<4 {
            try state.admit(now: t0.addingTimeInterval(Double(i) * 60))
            state.recordFailure(now: t0.addingTimeInterval(Double(i) * 60), policy: policy)
        }
        try state.admit(now: t0.addingTimeInterval(240))
        state.recordFailure(now: t0.addingTimeInterval(240), policy: policy)
        #expect(throws: AccountStoreError.throttled(retryAfterSeconds: 900)) {
            try state.admit(now: t0.addingTimeInterval(240))
        }
        #expect(throws: AccountStoreError.throttled(retryAfterSeconds: 1)) {
            try state.admit(now: t0.addingTimeInterval(1139))
        }
        try state.admit(now: t0.addingTimeInterval(1140))
    }

    @Test("Failures spread beyond the window never lock")
    func windowResets() throws {
        var state = LoginThrottleState()
        for i in 0..<20 {
            let now = t0.addingTimeInterval(Double(i) * 300)  // one failure every 5 minutes
            try state.admit(now: now)
            state.recordFailure(
                now: now, policy: LoginThrottlePolicy(maxFailures: 5, windowSeconds: 900, lockoutSeconds: 900))
        }
        #expect(state.lockedUntil == nil)
    }
}
