import CCrypto

/// HKDF with HMAC-SHA256 (RFC 5869): extract a pseudorandom key from input key material and a
/// salt, then expand it with `info` to the requested length.
public enum HKDFSHA256 {
    /// Most bytes HKDF-SHA256 can give (255 blocks of 32 bytes).
    public static let maximumOutputByteCount = 255 * 32

    /// `outputByteCount` (1 to 8,160) bytes derived from `inputKeyMaterial`, `salt` (empty: RFC 5869's
    /// default of 32 zero bytes, which HMAC treats alike) and `info` (context that separates uses).
    /// - Throws: ``CryptoError/invalidParameter(_:)`` for a length outside 1…8,160 or an empty key,
    ///   ``CryptoError/library(function:reason:)`` when libcrypto fails.
    public static func deriveKey(
        inputKeyMaterial: SymmetricKey, salt: [UInt8] = [], info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        guard (1...maximumOutputByteCount).contains(outputByteCount) else {
            throw .invalidParameter("an HKDF-SHA256 output of \(outputByteCount) bytes (1 to 8160 are possible)")
        }
        guard inputKeyMaterial.byteCount > 0 else { throw .invalidParameter("empty HKDF input key material") }
        let kdf = try LibCrypto.require(LibCrypto.hkdf, "HKDF")
        guard let context = EVP_KDF_CTX_new(kdf) else { throw LibCrypto.failure("EVP_KDF_CTX_new") }
        defer { EVP_KDF_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: outputByteCount)
        let rc = inputKeyMaterial.bytes.withUnsafeBytes { key in
            salt.withUnsafeBytes { salt in
                info.withUnsafeBytes { info in
                    var parameters = [
                        LibCrypto.utf8Parameter("digest", "SHA256"), LibCrypto.octetParameter("key", key),
                    ]
                    if salt.count > 0 { parameters.append(LibCrypto.octetParameter("salt", salt)) }
                    if info.count > 0 { parameters.append(LibCrypto.octetParameter("info", info)) }
                    parameters.append(OSSL_PARAM_construct_end())
                    return EVP_KDF_derive(context, &output, outputByteCount, &parameters)
                }
            }
        }
        try LibCrypto.check(rc, "EVP_KDF_derive (HKDF)")
        return SymmetricKey(data: output)
    }
}

/// PBKDF2 with HMAC-SHA256 (RFC 8018 §5.2), for password hashing.
public enum PBKDF2SHA256 {
    /// `outputByteCount` bytes derived from `password` and `salt` with `iterations` rounds
    /// (`PKCS5_PBKDF2_HMAC`; no floor is imposed here, callers enforce their own). Time is
    /// O(iterations × ⌈outputByteCount / 32⌉) HMAC-SHA256 evaluations.
    /// - Throws: ``CryptoError/invalidParameter(_:)`` for iterations or a length outside 1…2³¹−1
    ///   or inputs over 2³¹−1 bytes, ``CryptoError/library(function:reason:)`` when libcrypto fails.
    public static func deriveKey(
        password: [UInt8], salt: [UInt8], iterations: Int, outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        let limit = Int(Int32.max)
        guard (1...limit).contains(iterations), (1...limit).contains(outputByteCount) else {
            throw .invalidParameter("PBKDF2 with \(iterations) iterations and \(outputByteCount) output bytes")
        }
        guard password.count <= limit, salt.count <= limit else {
            throw .invalidParameter("a PBKDF2 password or salt over 2^31-1 bytes")
        }
        let digest = try LibCrypto.require(LibCrypto.sha256, "SHA256")
        var output = [UInt8](repeating: 0, count: outputByteCount)
        let rc = password.withUnsafeBytes { password in
            salt.withUnsafeBufferPointer { salt in
                PKCS5_PBKDF2_HMAC(
                    password.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(password.count),
                    salt.baseAddress, Int32(salt.count), Int32(iterations), digest, Int32(outputByteCount), &output)
            }
        }
        try LibCrypto.check(rc, "PKCS5_PBKDF2_HMAC")
        return output
    }
}
