import FieldtestData
import Foundation

/// Offline venue search with autocomplete, tolerant of prefixes and misspellings (NAV-F3).
///
/// Names and queries are normalised (case and diacritics folded, punctuation to spaces). A venue
/// matches when the query is a prefix of its name or of any word-start suffix of it (rank 0–1), or
/// within an optimal-string-alignment distance of such a prefix of at most 1 (queries of 3–5 letters)
/// or 2 (longer) — rank 2 + distance. Results are ordered by rank, then shorter name, then name, then
/// file order. O(venues × |query| × |name|) per query — instant for campus-sized directories.
public struct VenueSearch: Sendable {
    /// One hit.
    public struct Hit: Sendable, Equatable {
        /// The venue.
        public var venue: Venue
        /// 0 whole-name prefix, 1 word prefix, 2 + edit distance for fuzzy matches.
        public var rank: Int
        /// Position of the venue in the directory searched.
        public var index: Int
    }

    let entries: [(venue: Venue, name: [Character], suffixes: [[Character]])]

    /// Indexes the named venues of `directory`.
    public init(directory: VenueDirectory) {
        entries = directory.venues.map { v in
            let n = Array(VenueSearch.normalise(v.name))
            var suffixes: [[Character]] = []
            for i in n.indices where i > 0 && n[i - 1] == " " && n[i] != " " { suffixes.append(Array(n[i...])) }
            return (v, n, suffixes)
        }
    }

    /// Lower-case, diacritic-free, single-spaced alphanumerics.
    public static func normalise(_ s: String) -> String {
        let folded = s.folding(
            options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let mapped = folded.lowercased().map { $0.isLetter || $0.isNumber ? $0 : " " }
        return String(mapped).split(separator: " ").joined(separator: " ")
    }

    /// The best `limit` venues for `query` (empty when the query is blank or nothing matches:
    /// the caller shows its "not found" prompt).
    public func search(_ query: String, limit: Int = 5) -> [Hit] {
        let q = Array(Self.normalise(query))
        guard !q.isEmpty else { return [] }
        let tolerance = q.count < 3 ? 0 : (q.count <= 5 ? 1 : 2)
        var hits: [(Hit, Int, Int)] = []
        for (i, e) in entries.enumerated() {
            var rank: Int?
            if e.name.starts(with: q) {
                rank = 0
            } else if e.suffixes.contains(where: { $0.starts(with: q) }) {
                rank = 1
            } else if tolerance > 0 {
                let d = ([e.name] + e.suffixes).map { DamerauLevenshtein.prefixDistance(q, $0) }.min() ?? Int.max
                if d <= tolerance { rank = 2 + d }
            }
            if let rank { hits.append((Hit(venue: e.venue, rank: rank, index: i), e.name.count, i)) }
        }
        hits.sort { a, b in
            (a.0.rank, a.1, a.0.venue.name, a.2) < (b.0.rank, b.1, b.0.venue.name, b.2)
        }
        return hits.prefix(limit).map(\.0)
    }
}
