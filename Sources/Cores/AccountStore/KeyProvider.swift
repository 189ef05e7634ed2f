import FieldtestCrypto
import FieldtestData
import Foundation

/// The account store's master key, loaded from OUTSIDE the database (SKY-SEC).
///
/// The key is 32 random bytes, given by the caller as bytes or as 64 hexadecimal digits
/// (``parse(_:source:)``). It is never written to the database; the database holds only a
/// key check value (an HMAC of a constant), so opening it with the wrong key fails with a clear error instead of
/// garbage. Three subkeys are derived with HKDF-SHA256 (RFC 5869): one for AES-GCM field
/// encryption of accounts, one for the HMAC blind indexes and one for AES-GCM encryption of
/// journal entries, so no use weakens another.
public struct KeyProvider: Sendable {
    /// AES-256-GCM key for encrypted columns.
    let fieldEncryptionKey: SymmetricKey
    /// HMAC-SHA256 key for blind indexes and verification-code digests.
    let indexKey: SymmetricKey
    /// AES-256-GCM key for the encrypted columns of journal entries (``JournalStore``).
    let journalEncryptionKey: SymmetricKey
    /// 16 bytes identifying the key without revealing it (stored in the database).
    let keyCheckValue: [UInt8]

    /// A provider for the given 32 key bytes.
    /// - Throws: ``AccountStoreError/keyUnavailable(_:)`` unless there are exactly 32 bytes.
    public init(keyBytes: [UInt8]) throws(AccountStoreError) {
        guard keyBytes.count == 32 else {
            throw .keyUnavailable("the key has \(keyBytes.count) bytes, not 32")
        }
        let master = SymmetricKey(data: keyBytes)
        fieldEncryptionKey = try Self.subkey(of: master, info: "fieldtest.accounts.field-encryption.v1")
        indexKey = try Self.subkey(of: master, info: "fieldtest.accounts.blind-index.v1")
        journalEncryptionKey = try Self.subkey(of: master, info: "fieldtest.journal.field-encryption.v1")
        let check = HMACSHA256.authenticationCode(for: Array("fieldtest.accounts.key-check.v1".utf8), using: master)
        keyCheckValue = Array(check.prefix(16))
    }

    /// The 32-byte HKDF-SHA256 subkey of `master` for the use named `info` (no salt).
    private static func subkey(of master: SymmetricKey, info: String) throws(AccountStoreError) -> SymmetricKey {
        do {
            return try HKDFSHA256.deriveKey(inputKeyMaterial: master, info: Array(info.utf8), outputByteCount: 32)
        } catch {
            throw .keyUnavailable("cannot derive the \(info) subkey: \(error)")
        }
    }

    /// Parses 64 hexadecimal digits (surrounding white space ignored) from `source`.
    public static func parse(_ text: String, source: String) throws(AccountStoreError) -> KeyProvider {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count == 64 else {
            throw .keyUnavailable("\(source) holds \(trimmed.utf8.count) characters, expected 64 hex digits")
        }
        // Digit pairs over the UTF-8 bytes (a non-ASCII character is simply not a digit).
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        let digits = Array(trimmed.utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for k in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[k]), let low = nibble(digits[k + 1]) else {
                throw .keyUnavailable("\(source) holds a non-hexadecimal character")
            }
            bytes.append(high << 4 | low)
        }
        return try KeyProvider(keyBytes: bytes)
    }
}

extension KeyProvider {
    /// Records this key's check value in the `meta` table of a new database, or checks it
    /// against the recorded one; `store` names the database in the error.
    /// - Throws: ``AccountStoreError/keyUnavailable(_:)`` when the database was created with another key.
    func verifyKeyCheck(in db: SQLiteConnection, store: String) throws {
        let check = Data(keyCheckValue)
        if let stored = try db.fetchValue(Data.self, "SELECT value FROM meta WHERE key = 'key_check'") {
            guard stored == check else {
                throw AccountStoreError.keyUnavailable("\(store) was created with a different key")
            }
        } else {
            try db.execute("INSERT INTO meta (key, value) VALUES ('key_check', ?)", [check])
        }
    }
}
