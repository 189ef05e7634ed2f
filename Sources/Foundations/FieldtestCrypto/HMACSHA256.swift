import CCrypto
import Foundation

/// HMAC-SHA256 (RFC 2104, FIPS 198-1): a 32-byte authentication code of a byte string under a key,
/// at once (``authenticationCode(for:using:)``) or streamed (``update(data:)`` then ``finalize()``
/// or ``verify(_:)``, which compares in constant time). Noncopyable, as it owns a libcrypto context.
public struct HMACSHA256: ~Copyable, @unchecked Sendable {
    /// Bytes of an authentication code.
    public static let byteCount = 32

    /// The `EVP_MAC_CTX`, owned (freed in `deinit`).
    private let context: OpaquePointer

    /// A MAC under `key` (any length; keys longer than 64 bytes are hashed first, as RFC 2104 says).
    public init(key: SymmetricKey) {
        context = LibCrypto.mustSucceed { () throws(CryptoError) -> OpaquePointer in
            let mac = try LibCrypto.require(LibCrypto.hmac, "HMAC")
            guard let context = EVP_MAC_CTX_new(mac) else { throw LibCrypto.failure("EVP_MAC_CTX_new") }
            // libcrypto reads a null key as "keep the previous key", so an empty key gets a real pointer.
            let bytes = key.bytes.isEmpty ? [0] : key.bytes
            let rc = bytes.withUnsafeBufferPointer { bytes in
                var parameters = [LibCrypto.utf8Parameter("digest", "SHA256"), OSSL_PARAM_construct_end()]
                return EVP_MAC_init(context, bytes.baseAddress, key.byteCount, &parameters)
            }
            guard rc == 1 else {
                EVP_MAC_CTX_free(context)
                throw LibCrypto.failure("EVP_MAC_init")
            }
            return context
        }
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// The authentication code of `data` under `key` (32 bytes).
    public static func authenticationCode(for data: some ContiguousBytes, using key: SymmetricKey) -> [UInt8] {
        var mac = HMACSHA256(key: key)
        mac.update(data: data)
        return mac.finalize()
    }

    /// Adds `data` to the bytes authenticated.
    public mutating func update(data: some ContiguousBytes) {
        data.withUnsafeBytes { update(bufferPointer: $0) }
    }

    /// Adds the bytes of `bufferPointer` to the bytes authenticated.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        guard let base = bufferPointer.baseAddress, bufferPointer.count > 0 else { return }
        let context = context
        LibCrypto.mustSucceed { () throws(CryptoError) in
            try LibCrypto.check(
                EVP_MAC_update(context, base.assumingMemoryBound(to: UInt8.self), bufferPointer.count),
                "EVP_MAC_update")
        }
    }

    /// The authentication code of every byte added (32 bytes).
    public consuming func finalize() -> [UInt8] {
        var code = [UInt8](repeating: 0, count: Self.byteCount)
        let context = context
        LibCrypto.mustSucceed { () throws(CryptoError) in
            var length = 0
            try LibCrypto.check(EVP_MAC_final(context, &code, &length, Self.byteCount), "EVP_MAC_final")
            guard length == Self.byteCount else { throw .library(function: "EVP_MAC_final", reason: "\(length) bytes") }
        }
        return code
    }

    /// Whether `code` is the authentication code of every byte added, compared in time that does not
    /// depend on where the codes differ (`CRYPTO_memcmp`). A code of another length is not.
    public consuming func verify(_ code: some ContiguousBytes) -> Bool {
        let expected = finalize()
        return code.withUnsafeBytes { code in
            code.count == expected.count && CRYPTO_memcmp(expected, code.baseAddress, expected.count) == 0
        }
    }
}
