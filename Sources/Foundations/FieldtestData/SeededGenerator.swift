/// SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a tiny generator whose whole stream is fixed by its 64-bit seed.
///
/// The project's one seeded generator outside GSL: reproducible training splits, seeded tests and
/// scenario-driven nonces. Not cryptographically secure: never use it for real salts, keys or nonces
/// (pass `SystemRandomNumberGenerator` there). Simulation draws use `FieldtestGSL.RandomStream`.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    @inlinable public init(seed: UInt64) { state = seed }

    /// The next 64 random bits. O(1).
    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
