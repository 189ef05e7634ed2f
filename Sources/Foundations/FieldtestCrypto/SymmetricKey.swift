/// A secret key: its bytes, for HMAC, HKDF and AES-GCM.
///
/// A value type that never prints its bytes (its description says only the size).
public struct SymmetricKey: Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    /// A key of the given bytes.
    public init(data: some Sequence<UInt8>) { bytes = Array(data) }

    /// A key of `byteCount` bytes (default 32, 256 bits) from the system's cryptographically secure
    /// generator (`SystemRandomNumberGenerator`: getrandom(2) on Linux).
    public static func random(byteCount: Int = 32) -> SymmetricKey {
        var generator = SystemRandomNumberGenerator()
        return SymmetricKey(data: (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Size of the key in bytes.
    public var byteCount: Int { bytes.count }

    /// Calls `body` with the key's bytes (valid only during the call).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    public var description: String { "SymmetricKey(\(bytes.count * 8) bits)" }
}
