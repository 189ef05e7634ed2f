import CGSL

/// Significance tests for two systems measured on the same items, two-sided.
///
/// - McNemar's exact test of two classifiers (Q. McNemar, Psychometrika 12, 1947; the exact binomial
///   form, e.g. A. Agresti, *Categorical Data Analysis*, 3rd ed., §11.1): of the b + c discordant items,
///   b were right only for the reference, c only for the candidate; under "no difference" the
///   discordant items split as Binomial(b + c, ½), so p = min(1, 2·P(X ≤ min(b, c))) (`gsl_cdf_binomial_P`).
/// - The Wilcoxon signed-rank test of paired numeric differences (F. Wilcoxon, Biometrics Bull. 1, 1945),
///   following `scipy.stats.wilcoxon`'s defaults so a user can recompute it: zero differences dropped,
///   average ranks for ties; the exact null distribution when there are no ties and no zeros (here for
///   up to 400 differences), all 2ⁿ sign flips when there are ties or zeros and at most 13 differences
///   in all, else the normal approximation with the tie correction and no continuity correction.
public enum PairedTests {
    /// The two-sided exact McNemar p-value; 1 when no item is discordant.
    ///
    /// - Parameters:
    ///   - b: items only the reference got right.
    ///   - c: items only the candidate got right.
    public static func mcNemarExact(referenceOnly b: Int, candidateOnly c: Int) -> Double {
        guard b >= 0, c >= 0, b + c > 0 else { return 1 }
        let p = 2 * gsl_cdf_binomial_P(UInt32(min(b, c)), 0.5, UInt32(b + c))
        return min(1, p)
    }

    /// The two-sided Wilcoxon signed-rank p-value of `differences` (candidate − reference per item);
    /// `nil` when no difference is non-zero and finite.
    public static func wilcoxonSignedRank(_ differences: [Double]) -> Double? {
        let finite = differences.filter(\.isFinite)
        let d = finite.filter { $0 != 0 }
        let zeros = finite.count - d.count
        guard !d.isEmpty else { return nil }
        let (ranks, tieGroups) = averageRanks(d.map(abs))
        var plus = 0.0
        for (r, x) in zip(ranks, d) where x > 0 { plus += r }
        let hasTies = tieGroups.contains { $0 > 1 }
        if !hasTies && zeros == 0 && d.count <= 400 {
            return exactSignedRankP(n: d.count, plus: plus)
        }
        if finite.count <= 13 {
            return signFlipP(ranks: ranks, plus: plus)
        }
        let n = Double(d.count)
        let mean = n * (n + 1) / 4
        let tieCorrection = tieGroups.reduce(0.0) { $0 + Double($1 * $1 * $1 - $1) }
        let variance = (n * (n + 1) * (2 * n + 1) - tieCorrection / 2) / 24
        guard variance > 0 else { return 1 }
        let z = (plus - mean) / variance.squareRoot()
        return min(1, 2 * gsl_cdf_ugaussian_Q(abs(z)))
    }

    /// Average ranks (1-based) of `values`, and the size of each group of equal values.
    static func averageRanks(_ values: [Double]) -> (ranks: [Double], tieGroups: [Int]) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var groups: [Int] = []
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
            let average = Double(start + end) / 2 + 1
            for k in start...end { ranks[order[k]] = average }
            groups.append(end - start + 1)
            start = end + 1
        }
        return (ranks, groups)
    }

    /// 2·min(P(W⁺ ≥ w), P(W⁺ ≤ w)) under the exact null distribution of W⁺ for ranks 1 … n, where each
    /// rank is positive with probability ½ (dynamic programming over the rank sums, O(n³)).
    static func exactSignedRankP(n: Int, plus: Double) -> Double {
        let maxSum = n * (n + 1) / 2
        var p = [Double](repeating: 0, count: maxSum + 1)
        p[0] = 1
        var reach = 0
        for k in 1...n {
            reach += k
            for s in stride(from: reach, through: 0, by: -1) {
                p[s] = 0.5 * p[s] + (s >= k ? 0.5 * p[s - k] : 0)
            }
        }
        let w = Int(plus.rounded())
        let below = p[0...w].reduce(0, +)
        let above = p[w...maxSum].reduce(0, +)
        return min(1, 2 * min(below, above))
    }

    /// The same for tied or zero-including data, over all 2ⁿ sign assignments of the given ranks.
    static func signFlipP(ranks: [Double], plus: Double) -> Double {
        let n = ranks.count
        let total = 1 << n
        var atOrBelow = 0
        var atOrAbove = 0
        let tolerance = 1e-9
        for mask in 0..<total {
            var sum = 0.0
            for k in 0..<n where mask & (1 << k) != 0 { sum += ranks[k] }
            if sum <= plus + tolerance { atOrBelow += 1 }
            if sum >= plus - tolerance { atOrAbove += 1 }
        }
        return min(1, 2 * Double(min(atOrBelow, atOrAbove)) / Double(total))
    }
}
