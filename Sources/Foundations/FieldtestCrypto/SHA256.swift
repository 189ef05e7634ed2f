import CCrypto
import Foundation

/// SHA-256 (FIPS 180-4): a 32-byte digest of a byte string, at once (``hash(data:)``) or streamed
/// (``update(data:)`` then ``finalize()``). Noncopyable, as it owns a libcrypto context.
public struct SHA256: ~Copyable, @unchecked Sendable {
    /// Bytes of a digest.
    public static let byteCount = 32

    /// The `EVP_MD_CTX`, owned (freed in `deinit`).
    private let context: OpaquePointer

    /// A hasher that has seen no bytes yet.
    public init() {
        context = LibCrypto.mustSucceed { () throws(CryptoError) -> OpaquePointer in
            let digest = try LibCrypto.require(LibCrypto.sha256, "SHA256")
            guard let context = EVP_MD_CTX_new() else { throw LibCrypto.failure("EVP_MD_CTX_new") }
            guard EVP_DigestInit_ex2(context, digest, nil) == 1 else {
                EVP_MD_CTX_free(context)
                throw LibCrypto.failure("EVP_DigestInit_ex2")
            }
            return context
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// The digest of `data` (32 bytes).
    public static func hash(data: some ContiguousBytes) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// Adds `data` to the bytes hashed.
    public mutating func update(data: some ContiguousBytes) {
        data.withUnsafeBytes { update(bufferPointer: $0) }
    }

    /// Adds the bytes of `bufferPointer` to the bytes hashed.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        guard let base = bufferPointer.baseAddress, bufferPointer.count > 0 else { return }
        let context = context
        LibCrypto.mustSucceed { () throws(CryptoError) in
            try LibCrypto.check(EVP_DigestUpdate(context, base, bufferPointer.count), "EVP_DigestUpdate")
        }
    }

    /// The digest of every byte added (32 bytes).
    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Self.byteCount)
        let context = context
        LibCrypto.mustSucceed { () throws(CryptoError) in
            try LibCrypto.check(EVP_DigestFinal_ex(context, &digest, nil), "EVP_DigestFinal_ex")
        }
        return digest
    }
}
