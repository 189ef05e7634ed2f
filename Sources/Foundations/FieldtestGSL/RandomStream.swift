import CGSL

/// A seeded Mersenne Twister (MT19937, `gsl_rng_mt19937`) random stream.
///
/// Reference type wrapping one `gsl_rng`; `deinit` frees it. Conforms to `RandomNumberGenerator`, so it
/// can be passed wherever the project asks for `using rng: inout some RandomNumberGenerator`.
///
/// Seeding: GSL's MT19937 takes a 32-bit seed. The 64-bit `seed` is folded to 32 bits as
/// `UInt32(truncatingIfNeeded: seed ^ (seed >> 32))`, so seeds below 2³² are used unchanged (seed 5489
/// reproduces the reference MT19937 output 3499211612, 581869302, …). As in GSL, a folded seed of 0 is
/// replaced by GSL's default seed 4357, so seeds 0 and 4357 give the same stream.
///
/// Concurrency: marked `@unchecked Sendable` so that a stream can be handed to another task or stored in a
/// `Sendable` value. A stream has mutable C state and is NOT internally synchronised: one stream must never
/// be used from two tasks (or threads) at the same time. Give each task its own `substream(named:)`.
///
/// Method: M. Matsumoto and T. Nishimura, "Mersenne Twister: a 623-dimensionally equidistributed uniform
/// pseudorandom number generator", ACM TOMACS 8 (1998), as implemented by the GNU Scientific Library.
/// Each 32-bit draw is O(1) amortised.
public final class RandomStream: RandomNumberGenerator, @unchecked Sendable {
    /// The 64-bit seed this stream was created with.
    public let seed: UInt64

    /// The wrapped GSL generator; owned by this instance.
    let generator: UnsafeMutablePointer<gsl_rng>

    /// Creates an MT19937 stream from `seed` (see the type's documentation for how 64 bits map to 32).
    /// Complexity: O(624) to initialise the state.
    public init(seed: UInt64) {
        GSLRuntime.ensureConfigured()
        guard let generator = gsl_rng_alloc(fieldtest_rng_mt19937()) else {
            // A few kilobytes could not be allocated: the process is out of memory.
            fatalError("FieldtestGSL: gsl_rng_alloc failed (out of memory)")
        }
        self.seed = seed
        self.generator = generator
        gsl_rng_set(generator, UInt(RandomStream.foldedSeed(seed)))
    }

    deinit {
        gsl_rng_free(generator)
    }

    /// The 32-bit seed actually passed to `gsl_rng_set`.
    static func foldedSeed(_ seed: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: seed ^ (seed >> 32))
    }

    /// One raw 32-bit MT19937 output (`gsl_rng_get`), in 0 ... 2³² − 1.
    public func nextUInt32() -> UInt32 {
        UInt32(truncatingIfNeeded: gsl_rng_get(generator))
    }

    /// 64 random bits built from two consecutive 32-bit MT19937 outputs: the first forms the high half,
    /// the second the low half.
    public func next() -> UInt64 {
        let high = UInt64(nextUInt32())
        let low = UInt64(nextUInt32())
        return (high << 32) | low
    }

    /// A uniform double in [0, 1) (`gsl_rng_uniform`: one 32-bit draw divided by 2³²).
    public func uniform() -> Double {
        gsl_rng_uniform(generator)
    }

    /// A uniform double in `range` (lower bound included, upper bound excluded).
    /// An empty range (`a..<a`) returns its lower bound. Uses one 32-bit draw.
    public func uniform(in range: Range<Double>) -> Double {
        let lower = range.lowerBound
        let upper = range.upperBound
        guard lower < upper else { return lower }
        let value = lower + (upper - lower) * uniform()
        // Rounding can land exactly on the upper bound for huge spans; keep the half-open contract.
        return value < upper ? value : lower
    }

    /// A uniform integer in 0 ..< `n` (`gsl_rng_uniform_int`, unbiased by rejection).
    /// `n` ≤ 0 returns 0. For `n` ≥ 2³², beyond what `gsl_rng_uniform_int` accepts for MT19937
    /// (n ≤ 2³² − 1), Swift's unbiased `Int.random(in:using:)` is used over this stream's 64-bit `next()`.
    public func uniformInt(below n: Int) -> Int {
        guard n > 1 else { return 0 }
        if UInt64(n) <= UInt64(UInt32.max) {
            return Int(gsl_rng_uniform_int(generator, UInt(n)))
        }
        var this = self
        return Int.random(in: 0..<n, using: &this)
    }
}
