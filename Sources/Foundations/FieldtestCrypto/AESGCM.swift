import CCrypto

/// AES-256-GCM (NIST SP 800-38D) authenticated encryption with a 12-byte nonce and a 16-byte tag,
/// in the "combined" layout of CryptoKit's `AES.GCM.SealedBox.combined`:
/// `nonce (12 bytes) ‖ ciphertext (as long as the plaintext) ‖ tag (16 bytes)`.
public enum AESGCM {
    /// Bytes of a key (AES-256).
    public static let keyByteCount = 32
    /// Bytes of a nonce (96 bits, SP 800-38D §8.2).
    public static let nonceByteCount = 12
    /// Bytes of an authentication tag.
    public static let tagByteCount = 16

    /// The combined box of `plaintext` under `key` (32 bytes) and `nonce` (12 bytes, never reused
    /// with the same key), authenticating `authenticatedData` too: 28 bytes longer than `plaintext`.
    /// - Throws: ``CryptoError/invalidKeySize(byteCount:expected:)``,
    ///   ``CryptoError/invalidNonceSize(byteCount:)``, ``CryptoError/invalidParameter(_:)`` for inputs
    ///   over 2³¹−29 bytes, ``CryptoError/library(function:reason:)`` when libcrypto fails.
    public static func seal(
        _ plaintext: [UInt8], using key: SymmetricKey, nonce: [UInt8], authenticating authenticatedData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        try validate(key: key, nonce: nonce, sizes: [plaintext.count, authenticatedData.count])
        let context = try CipherContext(key: key, nonce: nonce, encrypting: true)
        try context.addAuthenticatedData(authenticatedData)
        var combined = nonce + [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
        try combined.withUnsafeMutableBufferPointer { (box) throws(CryptoError) in
            let body = UnsafeMutableBufferPointer(rebasing: box[nonceByteCount..<(box.count - tagByteCount)])
            try context.process(plaintext, into: body)
            try context.finish()
            let tag = box.baseAddress! + (box.count - tagByteCount)
            try LibCrypto.check(
                EVP_CIPHER_CTX_ctrl(context.handle, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), tag),
                "EVP_CIPHER_CTX_ctrl (get tag)")
        }
        return combined
    }

    /// The plaintext of the combined box `combined` sealed under `key` with `authenticatedData`.
    /// - Throws: ``CryptoError/authenticationFailure`` when the tag does not match (wrong key or
    ///   associated data, or modified bytes), ``CryptoError/malformedSealedBox(byteCount:)`` when
    ///   `combined` is shorter than 28 bytes, the others as ``seal(_:using:nonce:authenticating:)``.
    public static func open(
        _ combined: [UInt8], using key: SymmetricKey, authenticating authenticatedData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        guard combined.count >= nonceByteCount + tagByteCount else {
            throw .malformedSealedBox(byteCount: combined.count)
        }
        let nonce = Array(combined[..<nonceByteCount])
        let ciphertext = Array(combined[nonceByteCount..<(combined.count - tagByteCount)])
        var tag = Array(combined[(combined.count - tagByteCount)...])
        try validate(key: key, nonce: nonce, sizes: [ciphertext.count, authenticatedData.count])
        let context = try CipherContext(key: key, nonce: nonce, encrypting: false)
        try context.addAuthenticatedData(authenticatedData)
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        try plaintext.withUnsafeMutableBufferPointer { (out) throws(CryptoError) in
            try context.process(ciphertext, into: out)
            try LibCrypto.check(
                EVP_CIPHER_CTX_ctrl(context.handle, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), &tag),
                "EVP_CIPHER_CTX_ctrl (set tag)")
            // The one failure of the final step is a tag that does not match.
            do { try context.finish() } catch { throw .authenticationFailure }
        }
        return plaintext
    }

    /// Checks the key and nonce sizes, and that every input length fits libcrypto's `int`.
    private static func validate(key: SymmetricKey, nonce: [UInt8], sizes: [Int]) throws(CryptoError) {
        guard key.byteCount == keyByteCount else {
            throw .invalidKeySize(byteCount: key.byteCount, expected: keyByteCount)
        }
        guard nonce.count == nonceByteCount else { throw .invalidNonceSize(byteCount: nonce.count) }
        guard sizes.allSatisfy({ $0 <= Int(Int32.max) - nonceByteCount - tagByteCount }) else {
            throw .invalidParameter("an AES-GCM input over 2^31-29 bytes")
        }
    }
}

/// An `EVP_CIPHER_CTX` set up for AES-256-GCM with a key and nonce, freed with this value.
private final class CipherContext {
    let handle: OpaquePointer
    let encrypting: Bool

    init(key: SymmetricKey, nonce: [UInt8], encrypting: Bool) throws(CryptoError) {
        let cipher = try LibCrypto.require(LibCrypto.aes256GCM, "AES-256-GCM")
        guard let context = EVP_CIPHER_CTX_new() else { throw LibCrypto.failure("EVP_CIPHER_CTX_new") }
        self.handle = context
        self.encrypting = encrypting
        let rc = key.bytes.withUnsafeBufferPointer { key in
            nonce.withUnsafeBufferPointer { nonce in
                encrypting
                    ? EVP_EncryptInit_ex2(context, cipher, key.baseAddress, nonce.baseAddress, nil)
                    : EVP_DecryptInit_ex2(context, cipher, key.baseAddress, nonce.baseAddress, nil)
            }
        }
        try LibCrypto.check(rc, encrypting ? "EVP_EncryptInit_ex2" : "EVP_DecryptInit_ex2")
    }

    deinit { EVP_CIPHER_CTX_free(handle) }

    /// Feeds `data` as associated data (authenticated, not encrypted).
    func addAuthenticatedData(_ data: [UInt8]) throws(CryptoError) {
        guard !data.isEmpty else { return }
        var written: Int32 = 0
        try step(data, nil, &written)
    }

    /// Encrypts or decrypts `input` into `output`, which has the same length (GCM is a stream mode).
    func process(_ input: [UInt8], into output: UnsafeMutableBufferPointer<UInt8>) throws(CryptoError) {
        guard !input.isEmpty else { return }
        var written: Int32 = 0
        try step(input, output.baseAddress, &written)
        guard Int(written) == input.count else {
            throw .library(function: "EVP_CipherUpdate", reason: "\(written) of \(input.count) bytes")
        }
    }

    /// Ends the operation; when decrypting, fails unless the tag set before matches.
    func finish() throws(CryptoError) {
        var written: Int32 = 0
        // GCM writes nothing here (it is a stream mode); the buffer only has to be valid.
        var spare = [UInt8](repeating: 0, count: 16)
        let rc =
            encrypting ? EVP_EncryptFinal_ex(handle, &spare, &written) : EVP_DecryptFinal_ex(handle, &spare, &written)
        try LibCrypto.check(rc, encrypting ? "EVP_EncryptFinal_ex" : "EVP_DecryptFinal_ex")
    }

    private func step(_ input: [UInt8], _ output: UnsafeMutablePointer<UInt8>?, _ written: inout Int32)
        throws(CryptoError)
    {
        let rc = input.withUnsafeBufferPointer { input in
            encrypting
                ? EVP_EncryptUpdate(handle, output, &written, input.baseAddress, Int32(input.count))
                : EVP_DecryptUpdate(handle, output, &written, input.baseAddress, Int32(input.count))
        }
        try LibCrypto.check(rc, encrypting ? "EVP_EncryptUpdate" : "EVP_DecryptUpdate")
    }
}
