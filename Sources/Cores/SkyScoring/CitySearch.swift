import FieldtestData
import Foundation

/// City search over GeoNames places: prefix match, then misspelling-tolerant match, ranked by
/// population (WXC-D1, SKY-F1).
///
/// Names are folded (case, diacritics, punctuation removed). Tiers, best first: exact folded
/// name, names starting with the query, then names within a bounded optimal-string-alignment
/// (restricted Damerau–Levenshtein) distance — 1 for queries of 4–7 characters, 2 for longer.
/// Within a tier, larger population first (fuzzy: smaller distance first).
///
/// Index: folded names sorted bytewise (prefix tiers by binary search, O(log n + matches)) and
/// an inverted index of padded character bigrams. The fuzzy tier only verifies names that share
/// enough bigrams with the query: one edit changes at most three padded bigrams (a
/// transposition), so a name within distance k shares at least |bigrams(q)| − 3k distinct
/// bigrams with q (the q-gram lemma, Ukkonen 1992). Cost: the query's posting lists plus one
/// bounded distance computation per surviving candidate; no typo position is privileged (a
/// wrong first letter is found too). Build O(n·L) for n names of length L.
public struct CitySearch: Sendable {
    /// Folded names, bytewise sorted (ties: larger population first).
    let keys: [[UInt8]]
    /// Places, parallel to `keys`.
    let places: [Place]
    /// Bigram postings in CSR form: names containing bigram b are
    /// `postings[postingStart[b] ..< postingStart[b + 1]]` (each name once per bigram).
    let postingStart: [Int32]
    let postings: [Int32]

    /// Builds the index over `places`.
    public init(places: [Place]) {
        let folded = places.map { (key: Array(CitySearch.fold($0.name).utf8), place: $0) }
            .filter { !$0.key.isEmpty }
            .sorted {
                $0.key != $1.key ? $0.key.lexicographicallyPrecedes($1.key) : $0.place.population > $1.place.population
            }
        keys = folded.map(\.key)
        self.places = folded.map(\.place)
        var counts = [Int32](repeating: 0, count: 65_537)
        var scratch: [Int] = []
        for key in keys {
            Self.distinctBigrams(key, into: &scratch)
            for b in scratch { counts[b + 1] += 1 }
        }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        var fill = counts
        var postings = [Int32](repeating: 0, count: Int(counts[65_536]))
        for (i, key) in keys.enumerated() {
            Self.distinctBigrams(key, into: &scratch)
            for b in scratch {
                postings[Int(fill[b])] = Int32(i)
                fill[b] += 1
            }
        }
        postingStart = counts
        self.postings = postings
    }

    /// The distinct bigrams of `key` padded with a start (0x01) and end (0x02) marker, as
    /// 16-bit codes, written to `out`.
    static func distinctBigrams(_ key: [UInt8], into out: inout [Int]) {
        out.removeAll(keepingCapacity: true)
        var previous: UInt8 = 0x01
        for byte in key + [0x02] {
            let code = Int(previous) << 8 | Int(byte)
            if !out.contains(code) { out.append(code) }
            previous = byte
        }
    }

    /// Lower-case letters, digits and single spaces (diacritics stripped). ASCII text is
    /// folded byte by byte; other text goes through Foundation's diacritic folding first.
    public static func fold(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            var out: [UInt8] = []
            out.reserveCapacity(s.utf8.count)
            var space = false
            for b in s.utf8 {
                let lower = (0x41...0x5A).contains(b) ? b + 0x20 : b
                if (0x61...0x7A).contains(lower) || (0x30...0x39).contains(lower) {
                    if space && !out.isEmpty { out.append(0x20) }
                    space = false
                    out.append(lower)
                } else {
                    space = true
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        let plain = s.folding(
            options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive],
            locale: Locale(identifier: "en_US_POSIX"))
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
        let q = Array(CitySearch.fold(query).utf8)
        guard !q.isEmpty, limit > 0 else { return [] }
        // Exact and prefix tiers: the sorted range of names starting with q.
        var lo = 0
        var hi = keys.count
        while lo < hi {
            let m = (lo + hi) / 2
            if keys[m].lexicographicallyPrecedes(q) { lo = m + 1 } else { hi = m }
        }
        var exact: [Int] = []
        var prefix: [Int] = []
        var i = lo
        while i < keys.count, keys[i].starts(with: q) {
            if keys[i].count == q.count { exact.append(i) } else { prefix.append(i) }
            i += 1
        }
        let byPopulation: (Int, Int) -> Bool = { places[$0].population > places[$1].population }
        var result = exact.sorted(by: byPopulation) + prefix.sorted(by: byPopulation)
        let prefixRange = lo..<i
        if result.count < limit, q.count >= 4 {
            let maxDistance = q.count >= 8 ? 2 : 1
            let fuzzy = fuzzyMatches(q, maxDistance: maxDistance, excluding: prefixRange)
            result += fuzzy
        }
        var seen = Set<Int>()
        var out: [Place] = []
        for index in result where out.count < limit {
            if seen.insert(places[index].geonameID).inserted { out.append(places[index]) }
        }
        return out
    }

    /// Names within `maxDistance` of `q` outside `excluded`, by distance then population.
    func fuzzyMatches(_ q: [UInt8], maxDistance: Int, excluding excluded: Range<Int>) -> [Int] {
        var bigrams: [Int] = []
        Self.distinctBigrams(q, into: &bigrams)
        let needed = max(1, bigrams.count - 3 * maxDistance)
        var shared = [UInt8](repeating: 0, count: keys.count)
        var touched: [Int32] = []
        for b in bigrams {
            for p in Int(postingStart[b])..<Int(postingStart[b + 1]) {
                let name = Int(postings[p])
                if shared[name] == 0 { touched.append(postings[p]) }
                shared[name] &+= 1
            }
        }
        var matches: [(distance: Int, index: Int)] = []
        var rows = DamerauLevenshtein.Rows(capacity: q.count + maxDistance + 1)
        for t in touched {
            let name = Int(t)
            guard Int(shared[name]) >= needed, !excluded.contains(name),
                abs(keys[name].count - q.count) <= maxDistance,
                let d = rows.distance(q, keys[name], limit: maxDistance)
            else { continue }
            matches.append((d, name))
        }
        matches.sort {
            $0.distance != $1.distance
                ? $0.distance < $1.distance
                : places[$0.index].population != places[$1.index].population
                    ? places[$0.index].population > places[$1.index].population : $0.index < $1.index
        }
        return matches.map(\.index)
    }
}
