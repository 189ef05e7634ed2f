/// Where the module's randomness comes from.
///
/// Salts, AES-GCM nonces, user IDs and verification codes are drawn from the generator the
/// caller passes (`using rng: inout some RandomNumberGenerator`).
/// - Production: pass `SystemRandomNumberGenerator()`, which reads the operating system's
///   cryptographically secure generator (`getrandom(2)` on Linux, `arc4random_buf` on Apple
///   platforms). Salts, keys and nonces must come from a CSPRNG.
/// - Tests and scenarios: pass ``SeededGenerator`` so runs repeat exactly. It is NOT
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

/// A seeded SplitMix64 generator (Steele, Lea & Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014) for deterministic tests and scenarios. Not cryptographically
/// secure: never use it for real salts, keys or nonces.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits. O(1).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
