import FieldtestCrypto
import Foundation

/// AES-256-GCM encryption of single column values, bound to their row and column.
///
/// Stored layout: `nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)` (CryptoKit's "combined"
/// representation). The associated data is a context string such as `users.email:<user id>`,
/// so a ciphertext copied into another row or column fails authentication. Nonces are 96
/// random bits from the caller's generator (NIST SP 800-38D §8.2.2). O(n) in the value's size.
struct FieldCipher: Sendable {
    let key: SymmetricKey

    func seal(_ plaintext: [UInt8], context: String, using rng: inout some RandomNumberGenerator)
        throws(AccountStoreError) -> Data
    {
        let nonce = AccountRandomness.bytes(AESGCM.nonceByteCount, using: &rng)
        do {
            return Data(try AESGCM.seal(plaintext, using: key, nonce: nonce, authenticating: Array(context.utf8)))
        } catch {
            throw .storageCorrupted("encryption failed for \(context): \(error)")
        }
    }

    func open(_ stored: Data, context: String) throws(AccountStoreError) -> [UInt8] {
        do {
            return try AESGCM.open([UInt8](stored), using: key, authenticating: Array(context.utf8))
        } catch {
            throw .storageCorrupted("\(context) does not decrypt (wrong key or modified data)")
        }
    }
}

/// Keyed HMAC-SHA256 "blind index": lets the store find and de-duplicate values (emails,
/// login identifiers, verification codes) by equality without storing them in plaintext.
/// The key never leaves memory, so the index cannot be brute-forced from the file alone.
struct BlindIndex: Sendable {
    let key: SymmetricKey

    /// HMAC-SHA256(key, purpose ‖ 0x00 ‖ value). Domain separation by `purpose` keeps an
    /// email's index from equalling a login identifier's. O(n).
    func digest(_ value: String, purpose: String) -> Data {
        var message = Array(purpose.utf8)
        message.append(0)
        message.append(contentsOf: value.utf8)
        return Data(HMACSHA256.authenticationCode(for: message, using: key))
    }
}
