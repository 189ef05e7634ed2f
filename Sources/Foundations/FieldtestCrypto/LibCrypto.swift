import CCrypto

/// The algorithms fetched once from libcrypto's default provider (thread-safe to share; never freed).
enum LibCrypto {
    nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
    nonisolated(unsafe) static let hmac: OpaquePointer? = EVP_MAC_fetch(nil, "HMAC", nil)
    nonisolated(unsafe) static let hkdf: OpaquePointer? = EVP_KDF_fetch(nil, "HKDF", nil)
    nonisolated(unsafe) static let aes256GCM: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)

    /// `algorithm`, or the error of fetching `name`.
    static func require(_ algorithm: OpaquePointer?, _ name: String) throws(CryptoError) -> OpaquePointer {
        guard let algorithm else { throw failure("fetching \(name)") }
        return algorithm
    }

    /// Throws unless `rc` is 1 (libcrypto's success).
    static func check(_ rc: Int32, _ function: String) throws(CryptoError) {
        guard rc == 1 else { throw failure(function) }
    }

    /// The error of `function`, with the reason on this thread's OpenSSL error queue (then emptied).
    static func failure(_ function: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return .library(function: function, reason: "no reason given") }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return .library(
            function: function, reason: String(decoding: text.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
    }

    /// The result of `body`, which fails only when libcrypto itself does (no memory, a broken
    /// installation): hashing and MACs cannot fail on their inputs, so callers get no error to handle.
    static func mustSucceed<R>(_ body: () throws(CryptoError) -> R) -> R {
        do { return try body() } catch { fatalError("\(error)") }
    }

    /// A parameter named `key` (a static C string) holding the UTF-8 string `value`.
    static func utf8Parameter(_ key: StaticString, _ value: StaticString) -> OSSL_PARAM {
        OSSL_PARAM_construct_utf8_string(cString(key), cString(value), 0)
    }

    /// A parameter named `key` pointing at `bytes` (which must outlive its use).
    static func octetParameter(_ key: StaticString, _ bytes: UnsafeRawBufferPointer) -> OSSL_PARAM {
        OSSL_PARAM_construct_octet_string(
            cString(key), UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// The NUL-terminated constant storage of a string literal, as libcrypto's `char *`.
    private static func cString(_ text: StaticString) -> UnsafeMutablePointer<CChar> {
        UnsafeMutableRawPointer(mutating: text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
