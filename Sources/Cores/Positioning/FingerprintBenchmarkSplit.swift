/// A deterministic train/query split of labelled fingerprints for benchmarks:
/// `queryCount` rows at evenly spaced positions ⌊i·n/q⌋ become queries, the rest training.
/// O(n).
public struct FingerprintBenchmarkSplit: Sendable {
    /// Training samples (all rows not chosen as queries), in input order.
    public var training: [FingerprintSample]
    /// Query samples, in input order.
    public var queries: [FingerprintSample]
    /// 0-based input positions of the queries.
    public var queryIndices: [Int]

    /// Splits `samples`; `queryCount` is clamped to 0…samples.count.
    public init(_ samples: [FingerprintSample], queryCount: Int) {
        let n = samples.count
        let q = max(0, min(queryCount, n))
        var chosen = [Bool](repeating: false, count: n)
        var indices: [Int] = []
        for i in 0..<q {
            let j = i * n / q
            chosen[j] = true
            indices.append(j)
        }
        queryIndices = indices
        queries = indices.map { samples[$0] }
        training = zip(samples, chosen).filter { !$0.1 }.map(\.0)
    }
}
