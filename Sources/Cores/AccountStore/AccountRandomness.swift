/// Where the module's randomness comes from.
///
/// Salts, AES-GCM nonces, user IDs and verification codes are drawn from the generator the
/// caller passes (`using rng: inout some RandomNumberGenerator`).
/// - Production: pass `SystemRandomNumberGenerator()`, which reads the operating system's
///   cryptographically secure generator (`getrandom(2)` on Linux, `arc4random_buf` on Apple
///   platforms). Salts, keys and nonces must come from a CSPRNG.
/// - Tests and scenarios: pass a seeded generator (`FieldtestData.SeededGenerator`) so runs repeat exactly. It is NOT
///   cryptographically secure and must never protect real data.
public enum AccountRandomness {
    /// `count` random bytes from `rng`. O(count).
    public static func bytes(_ count: Int, using rng: inout some RandomNumberGenerator) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(count)
        while out.count < count {
            var word = rng.next()
            for _ in 0..<min(8, count - out.count) {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return out
    }
}
