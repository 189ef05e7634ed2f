import FieldtestGSL
import Foundation
import Testing

/// Expected values are hand-computed type-7 quantiles (checked against numpy.percentile).
@Suite("Quantiles")
struct QuantilesTests {
    @Test(
        "type-7 quantiles of [1, 2, 3, 4]",
        arguments: [
            (0.0, 1.0), (0.25, 1.75), (0.5, 2.5), (0.9, 3.7), (1.0, 4.0),
        ])
    func smallSample(probability: Double, expected: Double) throws {
        let q = try #require(Quantiles.quantile(sorted: [1, 2, 3, 4], probability: probability))
        #expect(abs(q - expected) < 1e-12)
    }

    @Test("quantiles(of:) sorts a copy")
    func unsortedInput() throws {
        let values = [3.5, -1, 7, 2, 2, 10]
        let q = try #require(Quantiles.quantiles(of: values, probabilities: [0, 0.1, 0.5, 0.75, 1]))
        let expected = [-1, 0.5, 2.75, 6.125, 10]
        #expect(q.count == expected.count)
        for (a, b) in zip(q, expected) { #expect(abs(a - b) < 1e-12) }
    }

    @Test("probabilities outside [0, 1] clamp to the extremes")
    func clamping() {
        #expect(Quantiles.quantile(sorted: [1, 2, 3], probability: -0.5) == 1)
        #expect(Quantiles.quantile(sorted: [1, 2, 3], probability: 1.5) == 3)
        #expect(Quantiles.quantile(sorted: [5], probability: 0.3) == 5)
    }

    @Test("empty input and NaN give nil")
    func emptyAndNaN() {
        #expect(Quantiles.quantile(sorted: [], probability: 0.5) == nil)
        #expect(Quantiles.quantile(sorted: [1, 2], probability: .nan) == nil)
        #expect(Quantiles.quantiles(of: [], probabilities: [0.5]) == nil)
        #expect(Quantiles.quantiles(of: [1, .nan, 3], probabilities: [0.5]) == nil)
        #expect(Quantiles.mean([]) == nil)
        #expect(Quantiles.standardDeviation([4]) == nil)
    }

    @Test("mean and sample standard deviation")
    func moments() throws {
        let v: [Double] = [2, 4, 4, 4, 5, 5, 7, 9]
        #expect(abs(try #require(Quantiles.mean(v)) - 5) < 1e-12)
        // Σ(x − 5)² = 32, n − 1 = 7 → √(32/7).
        #expect(abs(try #require(Quantiles.standardDeviation(v)) - 2.138089935299395) < 1e-12)
    }

    /// GSL's (1 − δ)·a + δ·b gives 0.00035899999999999994 here: a quantile of equal values must be that
    /// value, or a bootstrap interval over them can come out with its low above its high.
    @Test func aQuantileStaysBetweenItsTwoOrderStatistics() throws {
        let x = 0.000359
        #expect(Quantiles.quantile(sorted: Array(repeating: x, count: 9999), probability: 0.025) == x)
        for n in 1...40 {
            let sorted = (0..<n).map { abs(sin(Double($0 * 7919 + n))) * 1e-3 }.sorted()
            for (p, r) in [(0.0, 0.5), (0.025, 0.975), (0.1, 0.9), (0.37, 0.38), (0.5, 1.0)] {
                let low = try #require(Quantiles.quantile(sorted: sorted, probability: p))
                let high = try #require(Quantiles.quantile(sorted: sorted, probability: r))
                #expect(sorted[0] <= low && low <= high && high <= sorted[n - 1], "n \(n), p \(p)…\(r)")
            }
        }
    }
}
