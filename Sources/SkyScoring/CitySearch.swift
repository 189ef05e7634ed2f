import FieldtestData
import Foundation

/// City search over GeoNames places: prefix match, then misspelling-tolerant match, ranked by
/// population (WXC-D1, SKY-F1).
///
/// Names are folded (case, diacritics, punctuation removed). Candidates: exact folded name, then
/// names starting with the query, then names within a bounded Damerau–Levenshtein distance (1 for
/// queries of 4–7 characters, 2 for longer) among names sharing the first letter. Within each tier,
/// larger population first. Index build O(n log n); a query is O(log n + m) for prefixes (binary
/// search over sorted folded names) plus O(b·k²) for the fuzzy tier over the b names of the bucket
/// with the same first letter and similar length.
public struct CitySearch: Sendable {
    struct Entry: Sendable {
        var key: String
        var keyBytes: [UInt8]
        var place: Place
    }
    let entries: [Entry]                  // sorted by key, then population descending
    let byFirstByte: [UInt8: [Int]]       // indices into entries

    /// Builds the index over `places`.
    public init(places: [Place]) {
        let e = places.map { Entry(key: CitySearch.fold($0.name), keyBytes: Array(CitySearch.fold($0.name).utf8), place: $0) }
            .filter { !$0.key.isEmpty }
            .sorted { $0.key != $1.key ? $0.key < $1.key : $0.place.population > $1.place.population }
        entries = e
        var buckets: [UInt8: [Int]] = [:]
        for (i, x) in e.enumerated() { if let b = x.keyBytes.first { buckets[b, default: []].append(i) } }
        byFirstByte = buckets
    }

    /// Lower-case ASCII letters, digits and single spaces (diacritics stripped).
    public static func fold(_ s: String) -> String {
        let plain = s.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var out = ""
        var space = false
        for u in plain.unicodeScalars {
            if u.properties.isAlphabetic || ("0"..."9").contains(u) {
                if space && !out.isEmpty { out.append(" ") }
                space = false
                out.unicodeScalars.append(u)
            } else {
                space = true
            }
        }
        return out.lowercased()
    }

    /// Up to `limit` places for `query`, best first; empty when nothing matches (show `SkyMessage.noResults`).
    public func search(_ query: String, limit: Int = 10) -> [Place] {
        let q = CitySearch.fold(query)
        guard !q.isEmpty else { return [] }
        let qb = Array(q.utf8)
        var seen = Set<Int>()
        var exact: [Entry] = [], prefix: [Entry] = []
        var lo = 0, hi = entries.count
        while lo < hi { let m = (lo + hi) / 2; if entries[m].key < q { lo = m + 1 } else { hi = m } }
        var i = lo
        while i < entries.count, entries[i].keyBytes.starts(with: qb) {
            if entries[i].keyBytes == qb { exact.append(entries[i]) } else { prefix.append(entries[i]) }
            seen.insert(entries[i].place.geonameID)
            i += 1
        }
        let byPop: (Entry, Entry) -> Bool = { $0.place.population > $1.place.population }
        var result = exact.sorted(by: byPop) + prefix.sorted(by: byPop)
        if result.count < limit, qb.count >= 4, let first = qb.first {
            let maxD = qb.count >= 8 ? 2 : 1
            var fuzzy: [(Int, Entry)] = []
            var candidates = byFirstByte[first] ?? []
            // A first-letter typo: also scan buckets of other letters for short queries' neighbours is too slow;
            // instead allow it via the second letter for queries of 6+ characters.
            if qb.count >= 6 { candidates += byFirstByte.filter { $0.key != first }.flatMap(\.value) }
            for idx in candidates {
                let e = entries[idx]
                guard !seen.contains(e.place.geonameID), abs(e.keyBytes.count - qb.count) <= maxD else { continue }
                if let d = CitySearch.distance(qb, e.keyBytes, limit: maxD) { fuzzy.append((d, e)) }
            }
            fuzzy.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.place.population > $1.1.place.population }
            result += fuzzy.map(\.1)
        }
        return result.prefix(limit).map(\.place)
    }

    /// Optimal-string-alignment (restricted Damerau–Levenshtein) distance, or nil when above `limit`.
    static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int? {
        let n = a.count, m = b.count
        if abs(n - m) > limit { return nil }
        var prev2 = [Int](repeating: 0, count: m + 1)
        var prev = Array(0...m)
        var cur = [Int](repeating: 0, count: m + 1)
        for i in 1...max(n, 1) where n > 0 {
            cur[0] = i
            var rowMin = cur[0]
            for j in 1...max(m, 1) where m > 0 {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, prev2[j - 2] + 1) }
                cur[j] = v
                rowMin = min(rowMin, v)
            }
            if rowMin > limit { return nil }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        let d = n == 0 ? m : (m == 0 ? n : prev[m])
        return d <= limit ? d : nil
    }
}
