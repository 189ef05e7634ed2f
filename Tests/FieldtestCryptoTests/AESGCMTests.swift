import FieldtestCrypto
import Testing

/// McGrew and Viega, "The Galois/Counter Mode of Operation", test case 16: AES-256, 96-bit nonce,
/// 60-byte plaintext, 20 bytes of associated data.
enum GCMVector {
    static let key = SymmetricKey(data: bytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
    static let nonce = bytes("cafebabefacedbaddecaf888")
    static let aad = bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
    static let plaintext = bytes(
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
            + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
    static let ciphertext = bytes(
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
            + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662")
    static let tag = bytes("76fc6ece0f4e1768cddf8853bb2d551b")
    static let combined = nonce + ciphertext + tag
}

@Suite("AES-256-GCM")
struct AESGCMTests {
    @Test("Seal gives nonce ‖ ciphertext ‖ tag of the published vector, and open gives the plaintext back")
    func knownAnswer() throws {
        let sealed = try AESGCM.seal(
            GCMVector.plaintext, using: GCMVector.key, nonce: GCMVector.nonce, authenticating: GCMVector.aad)
        #expect(hex(sealed) == hex(GCMVector.combined))
        #expect(
            try AESGCM.open(GCMVector.combined, using: GCMVector.key, authenticating: GCMVector.aad)
                == GCMVector.plaintext)
    }

    @Test("An empty plaintext seals to nonce ‖ tag and opens to nothing")
    func emptyPlaintext() throws {
        let sealed = try AESGCM.seal([], using: GCMVector.key, nonce: GCMVector.nonce)
        #expect(sealed.count == 28)
        #expect(try AESGCM.open(sealed, using: GCMVector.key).isEmpty)
    }

    @Test("A flipped tag bit, ciphertext bit or nonce bit, other AAD or another key fail authentication")
    func tampering() {
        var flips: [[UInt8]] = []
        for index in [0, 12, 40, GCMVector.combined.count - 1] {
            var changed = GCMVector.combined
            changed[index] ^= 0x01
            flips.append(changed)
        }
        for changed in flips {
            #expect(throws: CryptoError.authenticationFailure) {
                try AESGCM.open(changed, using: GCMVector.key, authenticating: GCMVector.aad)
            }
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(GCMVector.combined, using: GCMVector.key, authenticating: GCMVector.aad.dropLast() + [0])
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(GCMVector.combined, using: GCMVector.key)
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(GCMVector.combined, using: .random(), authenticating: GCMVector.aad)
        }
    }

    @Test("Truncated boxes fail: shorter than nonce and tag as malformed, longer ones as unauthentic")
    func truncated() {
        #expect(throws: CryptoError.malformedSealedBox(byteCount: 27)) {
            try AESGCM.open(Array(GCMVector.combined.prefix(27)), using: GCMVector.key, authenticating: GCMVector.aad)
        }
        #expect(throws: CryptoError.malformedSealedBox(byteCount: 0)) {
            try AESGCM.open([], using: GCMVector.key)
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try AESGCM.open(Array(GCMVector.combined.dropLast()), using: GCMVector.key, authenticating: GCMVector.aad)
        }
    }

    @Test("A key that is not 32 bytes or a nonce that is not 12 is refused with its size")
    func sizes() {
        #expect(throws: CryptoError.invalidKeySize(byteCount: 16, expected: 32)) {
            try AESGCM.seal([1], using: SymmetricKey(data: repeated(0, 16)), nonce: GCMVector.nonce)
        }
        #expect(throws: CryptoError.invalidNonceSize(byteCount: 16)) {
            try AESGCM.seal([1], using: GCMVector.key, nonce: repeated(0, 16))
        }
        #expect(CryptoError.authenticationFailure.description.contains("authentication failed"))
    }

    @Test("Random keys are 32 bytes by default and differ")
    func randomKeys() {
        let a = SymmetricKey.random()
        let b = SymmetricKey.random()
        #expect(a.byteCount == 32)
        #expect(a.withUnsafeBytes { Array($0) } != b.withUnsafeBytes { Array($0) })
        #expect(!a.description.contains(hex(a.withUnsafeBytes { Array($0) })))
    }
}
