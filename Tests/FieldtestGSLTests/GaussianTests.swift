import Testing

@testable import FieldtestGSL

/// A generator that replays fixed words, to pin what one draw maps a word to.
struct ReplayedWords: RandomNumberGenerator {
    var words: [UInt64]
    var index = 0
    mutating func next() -> UInt64 {
        defer { index += 1 }
        return words[index]
    }
}

@Suite("Gaussian from any generator")
struct GaussianTests {
    @Test("one word per draw, mapped through the normal quantile")
    func inversion() {
        // The middle word gives u = 0.5 + 2^-53 (just above the median): z is tiny and positive. The
        // extremes, u = 2^-53 and 1 − 2^-53, stay finite (|z| ≈ 8.2) because u never reaches 0 or 1.
        var rng = ReplayedWords(words: [1 << 63, 0, .max, 42])
        let mid = Gaussian.standardNormal(using: &rng)
        let low = Gaussian.standardNormal(using: &rng)
        let high = Gaussian.standardNormal(using: &rng)
        #expect(mid > 0 && mid < 1e-15)
        #expect(abs(low + high) < 1e-9)  // symmetric
        #expect(low < -8 && low > -8.5)
        #expect(high > 8 && high < 8.5)
        #expect(rng.index == 3)
    }

    @Test("sample mean and standard deviation match the parameters", arguments: [(0.0, 1.0), (-3.0, 0.5), (10.0, 4.0)])
    func moments(mean: Double, standardDeviation: Double) {
        var generator = RandomStream(seed: 7)
        let n = 100_000
        let draws = (0..<n).map { _ in
            Gaussian.draw(mean: mean, standardDeviation: standardDeviation, using: &generator)
        }
        // 5 standard errors: σ/√n for the mean, about σ/√(2n) for the standard deviation.
        let tolerance = 5 * standardDeviation / Double(n).squareRoot()
        #expect(abs((Quantiles.mean(draws) ?? .nan) - mean) < tolerance)
        #expect(abs((Quantiles.standardDeviation(draws) ?? .nan) - standardDeviation) < tolerance)
        // One in a hundred thousand beyond ±4.4σ is expected; ten would mean broken tails.
        #expect(draws.filter { abs($0 - mean) > 4.4 * standardDeviation }.count < 10)
    }
}
