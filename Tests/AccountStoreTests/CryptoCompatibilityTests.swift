import FieldtestData
import Foundation
import Testing

@testable import AccountStore

/// Bytes made by the account store when it was built on swift-crypto (BoringSSL), recorded once:
/// whatever library does the cryptography, existing account and journal stores and password hashes
/// must still open, so the derived keys, the sealed layout and the hashes must stay byte for byte.
@Suite("Crypto compatibility with stores written by swift-crypto")
struct CryptoCompatibilityTests {
    /// A generator that returns 0x0706050403020100, 0x0f0e0d0c0b0a0908, …: nonces 00 01 02 … 0b.
    struct CountingGenerator: RandomNumberGenerator {
        var next8: UInt64 = 0
        mutating func next() -> UInt64 {
            var word: UInt64 = 0
            for k in 0..<8 { word |= (next8 + UInt64(k)) << (8 * UInt64(k)) }
            next8 += 8
            return word
        }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }

    /// HKDF-SHA256 subkeys of the master key 00 01 … 1f (field encryption, blind index, journal).
    static let fieldKey = "0bea1cd0bd9215ea1cb8e6df07033b6f8426cfd161fbc641afe1f6d001e7c4f7"
    static let indexKey = "1bf806dc5ffaa42146601e532a066ae46ed0d22a9b28775354768a85af856b44"
    static let journalKey = "8c1b1d67962c6340766eb8e0a13b0b83f593065d3f9ddae4d1e6f20e2adbf7cc"
    /// "ada@example.org" sealed under `fieldKey` with nonce 00 01 … 0b and context "users.email:42".
    static let sealedEmail = "000102030405060708090a0b923ce06400d8efa3f4f54473497cd44ed60fed41eea1bf248abd2b2ee69ab4"

    static let keys = try! KeyProvider(keyBytes: (0..<32).map { UInt8($0) })

    @Test("HKDF subkeys and the key check value of a fixed master key")
    func derivedKeys() {
        #expect(Self.hex(Self.keys.fieldEncryptionKey.withUnsafeBytes { Array($0) }) == Self.fieldKey)
        #expect(Self.hex(Self.keys.indexKey.withUnsafeBytes { Array($0) }) == Self.indexKey)
        #expect(Self.hex(Self.keys.journalEncryptionKey.withUnsafeBytes { Array($0) }) == Self.journalKey)
        #expect(Self.hex(Self.keys.keyCheckValue) == "f930e2dda0228f9a88ffe97914572ddf")
    }

    @Test("A column value sealed by swift-crypto opens, and sealing again gives the same bytes")
    func sealedColumn() throws {
        let cipher = FieldCipher(key: Self.keys.fieldEncryptionKey)
        var rng = CountingGenerator()
        let sealed = try cipher.seal(Array("ada@example.org".utf8), context: "users.email:42", using: &rng)
        #expect(Self.hex(sealed) == Self.sealedEmail)
        let stored = Data(Self.bytes(hex: Self.sealedEmail))
        #expect(try cipher.open(stored, context: "users.email:42") == Array("ada@example.org".utf8))
        #expect(throws: AccountStoreError.self) { try cipher.open(stored, context: "users.email:43") }
    }

    @Test("Blind index and PBKDF2 password hash of fixed inputs")
    func indexAndPasswordHash() throws {
        #expect(
            Self.hex(BlindIndex(key: Self.keys.indexKey).digest("ada@example.org", purpose: "email"))
                == "46b28099af797eb96a97363a7f9110c2c8a8214399ed1e88256f2a55d9c4e86f")
        let salt = (0..<16).map { UInt8($0 + 0xa0) }
        let hash = try PasswordHasher.derive(
            "correct horse battery staple", salt: salt, iterations: 1000, byteCount: 32)
        #expect(Self.hex(hash) == "0d1505a6e39ece3496ca1b5b473926904e996945b899a23edfb71231946895a8")
    }
}
