import FieldtestGSL
import Testing

/// Each method against a published or independently computed value (scipy 1.17 for the Wilcoxon cases).
@Suite("confidence intervals and paired tests")
struct StatisticsTests {
    @Test("Wilson interval of 81/263 is (0.2553, 0.3662)")
    func wilsonTextbookValue() throws {
        let ci = try #require(Intervals.wilson(successes: 81, trials: 263))
        #expect(abs(ci.low - 0.255_288_519_878_274_2) < 1e-12)
        #expect(abs(ci.high - 0.366_209_576_982_800_04) < 1e-12)
        #expect(Intervals.wilson(proportion: 81.0 / 263.0, trials: 263) == ci)
    }

    @Test("Wilson interval keeps its exact ends at 0 and n successes, and refuses no trials")
    func wilsonEnds() throws {
        let none = try #require(Intervals.wilson(successes: 0, trials: 20))
        #expect(none.low == 0 && none.high > 0.1 && none.high < 0.2)
        let all = try #require(Intervals.wilson(successes: 20, trials: 20))
        #expect(all.high == 1 && all.low < 0.9)
        #expect(Intervals.wilson(successes: 0, trials: 0) == nil)
        #expect(Intervals.wilson(proportion: 1.5, trials: 10) == nil)
    }

    @Test("Student-t interval of a mean")
    func tInterval() throws {
        let ci = try #require(Intervals.tMean([2.1, 3.4, 1.9, 5.6, 4.4, 3.3, 2.8]))
        #expect(abs(ci.low - 2.155_012_781_931_200_4) < 1e-9)
        #expect(abs(ci.high - 4.559_272_932_354_514) < 1e-9)
        #expect(Intervals.tMean([1]) == nil)
    }

    @Test("MOVER difference of two Wilson intervals (Newcombe's method 10)")
    func moverDifference() throws {
        let a = try #require(Intervals.wilson(successes: 56, trials: 70))
        let b = try #require(Intervals.wilson(successes: 48, trials: 80))
        // Newcombe (1998), Stat. Med. 17, table II, example (a): 56/70 − 48/80 → (0.0524, 0.3339).
        let d = Intervals.difference(reference: 0.6, b, candidate: 0.8, a)
        #expect(abs(d.low - 0.0524) < 5e-5, "\(d)")
        #expect(abs(d.high - 0.3339) < 5e-5, "\(d)")
    }

    @Test("McNemar's exact test: 1 of 10 discordant pairs one way")
    func mcNemar() {
        // 2·(1 + 10)/2¹⁰, to GSL's incomplete-beta precision.
        #expect(abs(PairedTests.mcNemarExact(referenceOnly: 1, candidateOnly: 9) - 0.021_484_375) < 1e-14)
        #expect(abs(PairedTests.mcNemarExact(referenceOnly: 9, candidateOnly: 1) - 0.021_484_375) < 1e-14)
        #expect(PairedTests.mcNemarExact(referenceOnly: 5, candidateOnly: 5) == 1)
        #expect(PairedTests.mcNemarExact(referenceOnly: 0, candidateOnly: 0) == 1)
    }

    @Test("Wilcoxon signed-rank: exact, sign flips with ties and zeros, and the normal approximation")
    func wilcoxon() throws {
        let exact = try #require(
            PairedTests.wilcoxonSignedRank([1.5, -2.25, 3.1, 4.7, -0.2, 6.3, 7.9, 8.4, -9.6, 10.05, 11.2, 12.8]))
        #expect(abs(exact - 0.042_480_468_75) < 1e-12)
        let ties = try #require(PairedTests.wilcoxonSignedRank([1, -1, 2, 2, 3, -4, 5]))
        #expect(abs(ties - 0.3125) < 1e-12)
        // F. Wilcoxon's example as on Wikipedia: one zero, one tie, ten pairs.
        let before: [Double] = [125, 115, 130, 140, 140, 115, 140, 125, 140, 135]
        let after: [Double] = [110, 122, 125, 120, 140, 124, 123, 137, 135, 145]
        let flips = try #require(PairedTests.wilcoxonSignedRank(zip(before, after).map { $0 - $1 }))
        #expect(abs(flips - 0.632_812_5) < 1e-12)
        let many = (0..<60).map { Double(($0 * 37) % 23 - 9) / 2 }
        let normal = try #require(PairedTests.wilcoxonSignedRank(many))
        #expect(abs(normal - 0.043_532_055_762_795_01) < 1e-12)
        #expect(PairedTests.wilcoxonSignedRank([0, 0]) == nil)
    }

    @Test("bootstrap interval: repeatable from its stream, order-free, around the estimate")
    func bootstrapIsDeterministic() throws {
        let values = (0..<500).map { Double(($0 * 7919) % 1000) / 10 }
        let a = try #require(
            Bootstrap.interval(.quantile(0.95), of: values, stream: RandomStream(seed: 7).substream(named: "x")))
        let b = try #require(
            Bootstrap.interval(
                .quantile(0.95), of: values.reversed(), stream: RandomStream(seed: 7).substream(named: "x")))
        #expect(a == b)
        let q = try #require(Quantiles.quantiles(of: values, probabilities: [0.95])?.first)
        #expect(a.low < q && q < a.high)
        let mean = try #require(Bootstrap.interval(.mean, of: values, stream: RandomStream(seed: 7)))
        // The mean of 0 … 99.9 in steps of 0.1 is 49.95 with a standard error near 28.9/√500 ≈ 1.29.
        #expect(mean.low > 46 && mean.low < 48.5 && mean.high > 51.4 && mean.high < 54)
        #expect(Bootstrap.interval(.mean, of: [], stream: RandomStream(seed: 1)) == nil)
    }

    @Test("bootstrap over weighted values equals the bootstrap of the expanded sample in distribution")
    func bootstrapWeighted() throws {
        let values = [0.010, 0.020, 0.050, 0.200]
        let weights: [UInt64] = [400, 300, 250, 50]
        let ci = try #require(
            Bootstrap.interval(.quantile(0.5), of: values, weights: weights, stream: RandomStream(seed: 3)))
        // The median of the expanded 1,000 samples is 0.02; the 25th–75th percentile band is not crossed.
        #expect(ci.low >= 0.01 && ci.high <= 0.05 && ci.contains(0.02))
        #expect(Bootstrap.interval(.mean, of: values, weights: [1, 2], stream: RandomStream(seed: 3)) == nil)
    }

    @Test("paired bootstrap: a constant shift gives a zero-width interval at the shift")
    func pairedBootstrap() throws {
        let reference = (0..<200).map { Double($0 % 17) }
        let candidate = reference.map { $0 + 0.5 }
        let ci = try #require(
            Bootstrap.pairedDifference(.mean, reference: reference, candidate: candidate, stream: RandomStream(seed: 1))
        )
        #expect(abs(ci.low - 0.5) < 1e-12 && abs(ci.high - 0.5) < 1e-12)
        let q = try #require(
            Bootstrap.pairedDifference(
                .quantile(0.9), reference: reference, candidate: candidate, stream: RandomStream(seed: 1)))
        #expect(abs(q.low - 0.5) < 1e-12 && abs(q.high - 0.5) < 1e-12)
        #expect(
            Bootstrap.pairedDifference(.mean, reference: [1], candidate: [1, 2], stream: RandomStream(seed: 1)) == nil)
    }
}
