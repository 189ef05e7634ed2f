/// Deterministic named sub-streams.
extension RandomStream {
    /// An independent, deterministic sub-stream identified by `name`.
    ///
    /// The child seed is `SplitMix64-finalise(FNV-1a-64(seed as 8 little-endian bytes ‖ 0x00 ‖ UTF-8 of name))`.
    /// Both steps are fixed, platform-independent functions (Swift's `Hasher` is deliberately not used: it is
    /// randomised per process), so the same (seed, name) gives the same stream on every run and machine.
    /// Drawing from the sub-stream does not advance this stream, and vice versa.
    ///
    /// Sources: Fowler–Noll–Vo FNV-1a (64-bit offset basis 0xcbf29ce484222325, prime 0x100000001b3);
    /// SplitMix64 finaliser from G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number
    /// generators", OOPSLA 2014. Complexity: O(name length).
    public func substream(named name: String) -> RandomStream {
        RandomStream(seed: RandomStream.derivedSeed(parent: seed, name: name))
    }

    /// The seed `substream(named:)` uses for `name` under `parent`.
    public static func derivedSeed(parent: UInt64, name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        for shift in stride(from: 0, to: 64, by: 8) {
            mix(UInt8(truncatingIfNeeded: parent >> UInt64(shift)))
        }
        mix(0)  // separator between the seed and the name
        for byte in name.utf8 {
            mix(byte)
        }
        return splitMix64Finalise(hash)
    }

    /// SplitMix64's output function (a bijective avalanche mix of 64 bits).
    static func splitMix64Finalise(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
