/// Optimal string alignment distance (restricted Damerau–Levenshtein): insertions, deletions,
/// substitutions and transpositions of adjacent characters each cost 1 (Damerau 1964; Levenshtein 1966).
/// O(|a|·|b|) time, O(|b|) memory (three rolling rows).
public enum DamerauLevenshtein {
    /// The distance between `a` and `b`.
    public static func distance<C: Equatable>(_ a: [C], _ b: [C]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, prev2[j - 2] + 1) }
                cur[j] = v
            }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count]
    }

    /// The smallest distance between `query` and any prefix of `text` — how far `query` is from being
    /// a prefix of `text` (for autocomplete). O(|query|·|text|).
    public static func prefixDistance<C: Equatable>(_ query: [C], _ text: [C]) -> Int {
        if query.isEmpty { return 0 }
        if text.isEmpty { return query.count }
        // Rows over query, columns over text; the answer is min over the last row.
        var prev2 = [Int](repeating: 0, count: text.count + 1)
        var prev = Array(0...text.count)
        var cur = [Int](repeating: 0, count: text.count + 1)
        for i in 1...query.count {
            cur[0] = i
            for j in 1...text.count {
                let cost = query[i - 1] == text[j - 1] ? 0 : 1
                var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, query[i - 1] == text[j - 2], query[i - 2] == text[j - 1] { v = min(v, prev2[j - 2] + 1) }
                cur[j] = v
            }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev.min() ?? query.count
    }
}
