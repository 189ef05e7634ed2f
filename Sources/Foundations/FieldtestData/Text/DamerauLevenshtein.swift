/// Optimal string alignment distance (restricted Damerau–Levenshtein): insertions, deletions,
/// substitutions and transpositions of adjacent elements each cost 1, and no substring is edited
/// twice (F. J. Damerau, "A technique for computer detection and correction of spelling errors",
/// CACM 7(3), 1964; V. I. Levenshtein, 1966).
///
/// The project's one edit distance: city search (bounded, over folded bytes), venue search
/// (prefix distance), and "did you mean" hints for scenario keys, routing-profile keys and
/// tolerance names. Dynamic programming over three rolling rows: O(|a|·|b|) time, O(|b|) memory.
public enum DamerauLevenshtein {
    /// The distance between `a` and `b`.
    @inlinable
    public static func distance<C: Equatable>(_ a: [C], _ b: [C]) -> Int {
        var rows = Rows(capacity: b.count)
        return rows.distance(a, b, limit: .max) ?? max(a.count, b.count)
    }

    /// The distance between the characters of `a` and of `b`.
    @inlinable
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a), Array(b))
    }

    /// The smallest distance between `query` and any prefix of `text`: how far `query` is from
    /// being a prefix of `text` (for autocomplete). O(|query|·|text|).
    @inlinable
    public static func prefixDistance<C: Equatable>(_ query: [C], _ text: [C]) -> Int {
        var rows = Rows(capacity: text.count)
        return rows.prefixDistance(query, text)
    }

    /// The candidate nearest to `word` (compared case-insensitively), when it is within
    /// max(2, `word.count` / 3) edits: near enough to be a likely typo. Ties keep the earlier
    /// candidate. O(Σ |word|·|candidate|).
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        let limit = max(2, target.count / 3)
        var rows = Rows(capacity: target.count)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            guard let d = rows.distance(Array(candidate.lowercased()), target, limit: limit) else { continue }
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        return best?.name
    }

    /// Three reusable dynamic-programming rows, so a search comparing one query with many names
    /// allocates only when a longer name arrives.
    public struct Rows {
        @usableFromInline var prev2: [Int]
        @usableFromInline var prev: [Int]
        @usableFromInline var cur: [Int]

        /// Rows sized for second operands of up to `capacity` elements (they grow when needed).
        @inlinable
        public init(capacity: Int) {
            prev2 = [Int](repeating: 0, count: capacity + 1)
            prev = prev2
            cur = prev2
        }

        /// The distance of `a` and `b`, or nil when it is above `limit`. Stops early once a whole
        /// row exceeds `limit`: a transposition reaches back two rows, but the row between then
        /// already holds a value no larger than the one it would give.
        @inlinable
        public mutating func distance<C: Equatable>(_ a: [C], _ b: [C], limit: Int) -> Int? {
            let n = a.count
            let m = b.count
            if abs(n - m) > limit { return nil }
            if n == 0 || m == 0 { return max(n, m) <= limit ? max(n, m) : nil }
            guard let last = fill(a, b, limit: limit) else { return nil }
            return last[m] <= limit ? last[m] : nil
        }

        /// The smallest distance between `query` and any prefix of `text`.
        @inlinable
        public mutating func prefixDistance<C: Equatable>(_ query: [C], _ text: [C]) -> Int {
            if query.isEmpty { return 0 }
            if text.isEmpty { return query.count }
            // Rows over the query, columns over the text; the answer is the least of the last row.
            return fill(query, text, limit: .max)?.min() ?? query.count
        }

        /// Runs the recurrence over all of `a`; the last row (columns 0…|b|), or nil when a row's
        /// least value exceeds `limit`.
        @inlinable
        mutating func fill<C: Equatable>(_ a: [C], _ b: [C], limit: Int) -> ArraySlice<Int>? {
            let n = a.count
            let m = b.count
            if prev.count < m + 1 { self = Rows(capacity: m) }
            for j in 0...m { prev[j] = j }
            for i in 1...n {
                cur[0] = i
                var rowMin = i
                for j in 1...m {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, prev2[j - 2] + 1) }
                    cur[j] = v
                    rowMin = min(rowMin, v)
                }
                if rowMin > limit { return nil }
                swap(&prev2, &prev)
                swap(&prev, &cur)
            }
            return prev[0...m]
        }
    }
}
