import FieldtestCrypto
import Foundation
import Testing

func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
}

func key(_ hex: String) -> SymmetricKey { SymmetricKey(data: bytes(hex)) }

func repeated(_ byte: UInt8, _ count: Int) -> [UInt8] { [UInt8](repeating: byte, count: count) }

@Suite("SHA-256 known answers (FIPS 180-2)")
struct SHA256Tests {
    @Test("\"abc\" and the empty string")
    func knownAnswers() {
        #expect(
            hex(SHA256.hash(data: Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA256.hash(data: [UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("Streamed in pieces equals at once")
    func streamed() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        var hasher = SHA256()
        hasher.update(data: message[..<5])
        hasher.update(data: Data())
        message[5...].withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let digest = hasher.finalize()
        #expect(hex(digest) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(digest == SHA256.hash(data: message))
    }
}

@Suite("HMAC-SHA256 known answers (RFC 4231)")
struct HMACSHA256Tests {
    @Test(
        "Test cases 1, 2, 4 and 6",
        arguments: [
            (
                repeated(0x0b, 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                (1...25).map { UInt8($0) }, repeated(0xcd, 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                repeated(0xaa, 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
        ])
    func knownAnswers(key: [UInt8], data: [UInt8], expected: String) {
        #expect(hex(HMACSHA256.authenticationCode(for: data, using: SymmetricKey(data: key))) == expected)
        var mac = HMACSHA256(key: SymmetricKey(data: key))
        mac.update(data: data.prefix(3))
        mac.update(data: data.dropFirst(3))
        let verified = mac.verify(bytes(expected))
        #expect(verified)
    }

    @Test("Verify refuses a code with one bit flipped, a shorter code and an empty one")
    func verifyRefuses() {
        let secret = SymmetricKey(data: Array("Jefe".utf8))
        let message = Array("what do ya want for nothing?".utf8)
        var code = HMACSHA256.authenticationCode(for: message, using: secret)
        for candidate in [
            Array(code.dropLast()), [],
            {
                code[31] ^= 1
                return code
            }(),
        ] {
            var mac = HMACSHA256(key: secret)
            mac.update(data: message)
            let verified = mac.verify(candidate)
            #expect(!verified)
        }
    }
}

@Suite("HKDF-SHA256 known answers (RFC 5869)")
struct HKDFSHA256Tests {
    @Test("Test case 1: salt and info")
    func case1() throws {
        let okm = try HKDFSHA256.deriveKey(
            inputKeyMaterial: SymmetricKey(data: repeated(0x0b, 22)), salt: (0...0x0c).map { UInt8($0) },
            info: (0xf0...0xf9).map { UInt8($0) }, outputByteCount: 42)
        #expect(
            hex(okm.withUnsafeBytes { Array($0) })
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test("Test case 2: long inputs, 82 bytes out")
    func case2() throws {
        let okm = try HKDFSHA256.deriveKey(
            inputKeyMaterial: SymmetricKey(data: (0...0x4f).map { UInt8($0) }), salt: (0x60...0xaf).map { UInt8($0) },
            info: (0xb0...0xff).map { UInt8($0) }, outputByteCount: 82)
        #expect(
            hex(okm.withUnsafeBytes { Array($0) })
                == "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"
        )
    }

    @Test("Test case 3: no salt, no info")
    func case3() throws {
        let okm = try HKDFSHA256.deriveKey(
            inputKeyMaterial: SymmetricKey(data: repeated(0x0b, 22)), info: [], outputByteCount: 42)
        #expect(
            hex(okm.withUnsafeBytes { Array($0) })
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    @Test("An output length of 0 or over 8160 bytes is refused")
    func lengths() {
        for count in [0, 8161] {
            #expect(throws: CryptoError.self) {
                try HKDFSHA256.deriveKey(inputKeyMaterial: .random(), info: [], outputByteCount: count)
            }
        }
    }
}

@Suite("PBKDF2-HMAC-SHA256 known answers")
struct PBKDF2SHA256Tests {
    @Test(
        "P=\"password\", S=\"salt\", c=1 and c=4096, dkLen=32",
        arguments: [
            (1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
            (4096, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"),
        ])
    func knownAnswers(iterations: Int, expected: String) throws {
        let derived = try PBKDF2SHA256.deriveKey(
            password: Array("password".utf8), salt: Array("salt".utf8), iterations: iterations, outputByteCount: 32)
        #expect(hex(derived) == expected)
    }

    @Test("Zero iterations or output bytes are refused")
    func refused() {
        #expect(throws: CryptoError.self) {
            try PBKDF2SHA256.deriveKey(password: [1], salt: [2], iterations: 0, outputByteCount: 32)
        }
        #expect(throws: CryptoError.self) {
            try PBKDF2SHA256.deriveKey(password: [1], salt: [2], iterations: 1, outputByteCount: 0)
        }
    }
}
