import Testing

@testable import FieldtestGSL

/// Reference values were produced by a C program calling GSL 2.7 directly (gsl_rng_mt19937 seeded with
/// gsl_rng_set), so they check that the wrapper forwards to the right GSL routines with the right arguments.
@Suite("RandomStream")
struct RandomStreamTests {
    @Test("seed 5489 reproduces the reference MT19937 sequence")
    func canonicalSequence() {
        let stream = RandomStream(seed: 5489)
        #expect(stream.nextUInt32() == 3_499_211_612)
        #expect(stream.nextUInt32() == 581_869_302)
        #expect(stream.nextUInt32() == 3_890_346_734)
    }

    @Test("next() joins two 32-bit outputs, first one high")
    func sixtyFourBits() {
        let stream = RandomStream(seed: 5489)
        #expect(stream.next() == (UInt64(3_499_211_612) << 32) | 581_869_302)
        #expect(stream.seed == 5489)
    }

    @Test("distribution draws match GSL called from C (seed 42)")
    func distributionsMatchGSL() {
        let stream = RandomStream(seed: 42)
        // Exact wiring check; 1e-12 absorbs nothing but printing round-off of the C reference.
        #expect(abs(stream.gaussian(standardDeviation: 2.0) - -1.6225271367161249) < 1e-12)
        #expect(abs(stream.logNormal(mu: 0, sigma: 0.5) - 0.6723967543527557) < 1e-12)
        #expect(stream.poisson(mean: 3.5) == 4)
        #expect(stream.poisson(mean: 250) == 240)
        #expect(abs(stream.exponential(mean: 2.0) - 2.4625001268731084) < 1e-12)
        #expect(stream.uniformInt(below: 10) == 6)
        #expect(abs(stream.uniform() - 0.020584498764947057) < 1e-15)
    }

    @Test("gaussian mean shifts the draw and nothing else")
    func gaussianMeanOffset() {
        let a = RandomStream(seed: 7)
        let b = RandomStream(seed: 7)
        for _ in 0..<100 {
            let shifted = a.gaussian(mean: 10, standardDeviation: 3)
            let plain = b.gaussian(standardDeviation: 3)
            #expect(abs(shifted - plain - 10) < 1e-12)
        }
    }

    @Test("same seed gives identical streams; different seeds differ")
    func determinism() {
        let a = RandomStream(seed: 123_456_789)
        let b = RandomStream(seed: 123_456_789)
        let c = RandomStream(seed: 123_456_790)
        let xa = (0..<1000).map { _ in a.next() }
        let xb = (0..<1000).map { _ in b.next() }
        let xc = (0..<1000).map { _ in c.next() }
        #expect(xa == xb)
        #expect(xa != xc)
    }

    @Test("seeds differing only in the high 32 bits give different streams")
    func highBitsMatter() {
        let a = RandomStream(seed: 1)
        let b = RandomStream(seed: (UInt64(1) << 32) | 1)
        #expect((0..<16).map { _ in a.next() } != (0..<16).map { _ in b.next() })
    }

    @Test("sub-streams: stable seeds, same name same stream, different names differ")
    func substreams() {
        // Pinned values computed independently (Python) from FNV-1a 64 + SplitMix64 finaliser.
        #expect(RandomStream.derivedSeed(parent: 42, name: "sensors") == 16_082_132_979_705_493_874)
        #expect(RandomStream.derivedSeed(parent: 42, name: "") == 11_801_458_109_058_031_655)
        #expect(RandomStream.derivedSeed(parent: 0, name: "wifi") == 5_493_073_817_816_386_822)

        let root = RandomStream(seed: 42)
        let s1 = root.substream(named: "sensors")
        let s2 = root.substream(named: "sensors")
        let other = root.substream(named: "network")
        let first = (0..<100).map { _ in s1.next() }
        #expect(first == (0..<100).map { _ in s2.next() })
        #expect(first != (0..<100).map { _ in other.next() })
        #expect(first != (0..<100).map { _ in RandomStream(seed: 42).next() })
        // Drawing from the parent does not change what a sub-stream produces.
        _ = (0..<10).map { _ in root.next() }
        let later = root.substream(named: "sensors")
        #expect(first == (0..<100).map { _ in later.next() })
    }

    @Test("uniform draws stay in their ranges")
    func ranges() {
        let stream = RandomStream(seed: 99)
        for _ in 0..<10_000 {
            let u = stream.uniform()
            #expect(u >= 0 && u < 1)
            let v = stream.uniform(in: -3.5..<2.0)
            #expect(v >= -3.5 && v < 2.0)
            let k = stream.uniformInt(below: 7)
            #expect(k >= 0 && k < 7)
        }
        #expect(stream.uniform(in: 4.0..<4.0) == 4.0)
        #expect(stream.uniformInt(below: 0) == 0)
        #expect(stream.uniformInt(below: 1) == 0)
        // Around GSL's limit for MT19937 (n ≤ 2³² − 1) and far beyond it.
        for big in [Int(UInt32.max), Int(UInt32.max) + 1, Int(1) << 40] {
            var seen = Set<Int>()
            for _ in 0..<100 {
                let k = stream.uniformInt(below: big)
                #expect(k >= 0 && k < big)
                seen.insert(k)
            }
            #expect(seen.count > 90)  // not stuck at GSL's error value 0
        }
    }

    @Test("degenerate distribution parameters do not trap")
    func degenerateParameters() {
        let stream = RandomStream(seed: 3)
        #expect(stream.poisson(mean: 0) == 0)
        #expect(stream.poisson(mean: -2) == 0)
        #expect(stream.poisson(mean: .nan) == 0)
        #expect(stream.bernoulli(probability: 0) == false)
        #expect(stream.bernoulli(probability: 1) == true)
        #expect(stream.bernoulli(probability: -1) == false)
        #expect(stream.bernoulli(probability: 2) == true)
    }

    @Test("usable as a RandomNumberGenerator")
    func randomNumberGenerator() {
        var a = RandomStream(seed: 11)
        var b = RandomStream(seed: 11)
        let xs = (0..<50).map { _ in Int.random(in: 0..<1000, using: &a) }
        let ys = (0..<50).map { _ in Int.random(in: 0..<1000, using: &b) }
        #expect(xs == ys)
        #expect(Set(xs).count > 30)
    }
}

/// Sample moments for n = 100 000 draws. Tolerances are about 5 standard errors of the estimator:
/// mean SE = σ/√n; variance SE = σ²·√((κ − 1)/n) with κ the distribution's kurtosis. A correct generator
/// fails one of these with probability < 1e-5; a wrong parameterisation (e.g. variance passed for sd,
/// rate for mean) fails by a wide margin.
@Suite("RandomStream sample moments")
struct RandomStreamMomentTests {
    static let n = 100_000

    static func moments(_ draw: () -> Double) -> (mean: Double, variance: Double) {
        var values = [Double]()
        values.reserveCapacity(n)
        for _ in 0..<n { values.append(draw()) }
        let mean = Quantiles.mean(values) ?? .nan
        let sd = Quantiles.standardDeviation(values) ?? .nan
        return (mean, sd * sd)
    }

    @Test("gaussian(mean: 3, sd: 2): mean 3, variance 4")
    func gaussian() {
        let stream = RandomStream(seed: 2024)
        let m = Self.moments { stream.gaussian(mean: 3, standardDeviation: 2) }
        #expect(abs(m.mean - 3) < 5 * 2 / 316.2)  // 5 SE, SE = 2/√1e5
        #expect(abs(m.variance - 4) < 5 * 4 * 0.00447)  // κ = 3 → SE = σ²·√(2/n)
    }

    @Test("logNormal(mu: 0, sigma: 0.5): mean e^0.125, variance (e^0.25 − 1)e^0.25")
    func logNormal() {
        let stream = RandomStream(seed: 2025)
        let m = Self.moments { stream.logNormal(mu: 0, sigma: 0.5) }
        let mean = 1.1331484530668263  // exp(0.125)
        let variance = 0.3646958540932934  // (exp(0.25) − 1)·exp(0.25)
        #expect(abs(m.mean - mean) < 5 * 0.60389 / 316.2)
        #expect(abs(m.variance - variance) / variance < 0.05)  // heavy tail (κ ≈ 8.9): 5 SE ≈ 4.4 %
    }

    @Test("poisson(mean: 3.5): mean and variance 3.5")
    func poisson() {
        let stream = RandomStream(seed: 2026)
        let m = Self.moments { Double(stream.poisson(mean: 3.5)) }
        #expect(abs(m.mean - 3.5) < 5 * 1.8708 / 316.2)
        #expect(abs(m.variance - 3.5) / 3.5 < 0.025)  // κ = 3 + 1/3.5: 5 SE ≈ 2.3 %
    }

    @Test("exponential(mean: 2): mean 2, variance 4")
    func exponential() {
        let stream = RandomStream(seed: 2027)
        let m = Self.moments { stream.exponential(mean: 2) }
        #expect(abs(m.mean - 2) < 5 * 2 / 316.2)
        #expect(abs(m.variance - 4) / 4 < 0.045)  // κ = 9: 5 SE ≈ 4.5 %
    }

    @Test("bernoulli(0.3): frequency 0.3")
    func bernoulli() {
        let stream = RandomStream(seed: 2028)
        let m = Self.moments { stream.bernoulli(probability: 0.3) ? 1 : 0 }
        #expect(abs(m.mean - 0.3) < 5 * 0.45826 / 316.2)
    }

    @Test("uniformInt(below: 10): every value about 10 %")
    func uniformInt() {
        let stream = RandomStream(seed: 2029)
        var counts = [Int](repeating: 0, count: 10)
        for _ in 0..<Self.n { counts[stream.uniformInt(below: 10)] += 1 }
        // Binomial SE per cell = √(n·0.1·0.9) ≈ 94.9; allow 5 SE.
        for count in counts { #expect(abs(count - 10_000) < 475) }
    }
}
