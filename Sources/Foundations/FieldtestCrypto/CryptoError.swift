/// Why a cryptographic operation failed.
public enum CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// AES-GCM open: the tag does not match (wrong key, wrong associated data, or the bytes were changed).
    case authenticationFailure
    /// AES-GCM open: `byteCount` bytes cannot be a sealed box (nonce 12 ‖ ciphertext ‖ tag 16 needs 28 or more).
    case malformedSealedBox(byteCount: Int)
    /// A key of `byteCount` bytes where the algorithm takes `expected`.
    case invalidKeySize(byteCount: Int, expected: Int)
    /// An AES-GCM nonce of `byteCount` bytes (12 are required).
    case invalidNonceSize(byteCount: Int)
    /// A parameter outside what the algorithm allows (e.g. an output length or iteration count).
    case invalidParameter(String)
    /// A libcrypto call failed (out of memory or a broken OpenSSL installation), with OpenSSL's reason.
    case library(function: String, reason: String)

    public var description: String {
        switch self {
        case .authenticationFailure:
            return "authentication failed: wrong key or associated data, or the sealed bytes were modified"
        case .malformedSealedBox(let count):
            return "a sealed box of \(count) bytes is too short (nonce 12 + tag 16 bytes at least)"
        case .invalidKeySize(let count, let expected):
            return "the key has \(count) bytes, expected \(expected)"
        case .invalidNonceSize(let count):
            return "the nonce has \(count) bytes, expected 12"
        case .invalidParameter(let what):
            return "invalid parameter: \(what)"
        case .library(let function, let reason):
            return "OpenSSL libcrypto \(function) failed: \(reason) (check the libssl-dev / openssl@3 installation)"
        }
    }
}
