import FieldtestCrypto
import Testing

/// Bytes recorded from swift-crypto (BoringSSL), which Fieldtest used before libcrypto: stores and
/// caches written then must still open (the account store's own fixture is `CryptoCompatibilityTests`).
@Suite("Fixtures made with swift-crypto")
struct SwiftCryptoFixtureTests {
    static let master = SymmetricKey(data: (0..<32).map { UInt8($0) })

    @Test("HKDF-SHA256 reproduces the account store's field-encryption subkey")
    func hkdfSubkey() throws {
        let derived = try HKDFSHA256.deriveKey(
            inputKeyMaterial: Self.master, info: Array("fieldtest.accounts.field-encryption.v1".utf8),
            outputByteCount: 32)
        #expect(
            hex(derived.withUnsafeBytes { Array($0) })
                == "0bea1cd0bd9215ea1cb8e6df07033b6f8426cfd161fbc641afe1f6d001e7c4f7")
    }

    @Test("An AES-GCM combined box sealed by swift-crypto opens, and sealing again gives its bytes")
    func sealedBox() throws {
        let key = key("0bea1cd0bd9215ea1cb8e6df07033b6f8426cfd161fbc641afe1f6d001e7c4f7")
        let box = bytes("000102030405060708090a0b923ce06400d8efa3f4f54473497cd44ed60fed41eea1bf248abd2b2ee69ab4")
        let context = Array("users.email:42".utf8)
        #expect(try AESGCM.open(box, using: key, authenticating: context) == Array("ada@example.org".utf8))
        let resealed = try AESGCM.seal(
            Array("ada@example.org".utf8), using: key, nonce: Array(box.prefix(12)), authenticating: context)
        #expect(resealed == box)
    }

    @Test("PBKDF2-HMAC-SHA256 reproduces a password hash of swift-crypto")
    func pbkdf2() throws {
        let derived = try PBKDF2SHA256.deriveKey(
            password: Array("correct horse battery staple".utf8), salt: (0xa0..<0xb0).map { UInt8($0) },
            iterations: 1000, outputByteCount: 32)
        #expect(hex(derived) == "0d1505a6e39ece3496ca1b5b473926904e996945b899a23edfb71231946895a8")
    }
}
