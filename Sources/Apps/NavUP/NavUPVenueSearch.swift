import CampusRouting
import FieldtestData

/// Venue search with autocomplete that tolerates misspellings (NAV-F3), on the phone (works offline, NAV-F2).
///
/// Method: names and queries are lower-cased and split into words; a venue's score is the smallest
/// restricted Damerau–Levenshtein *prefix* distance (`DamerauLevenshtein.prefixDistance`) of the whole query
/// to the whole name or to the name from any of its words on, so "lib" and "libary" both find "Library"
/// and "hall" finds "Science Hall". Ties go to the shorter name, then name order. A query more than
/// `maxDistance` edits away from every name finds nothing (the app then prompts for another query).
/// O(venues × |query| × |name|) per search.
public struct NavUPVenueSearch: Sendable {
    /// Lower-cased searchable suffixes (whole name, then from each word on) per venue.
    let keys: [[[Character]]]
    /// Venue names, parallel to `keys`.
    public let names: [String]
    /// Largest accepted edit distance.
    public var maxDistance = 2

    /// Indexes `venues` in their order.
    public init(venues: [NavUPVenue]) {
        names = venues.map(\.name)
        keys = venues.map { v in
            let lower = Array(v.name.lowercased())
            var out = [lower]
            for (i, c) in lower.enumerated() where i > 0 && lower[i - 1] == " " && c != " " { out.append(Array(lower[i...])) }
            return out
        }
    }

    /// Indices of the best `limit` venues for `query`, best first.
    public func search(_ query: String, limit: Int = 5) -> [Int] {
        let q = Array(query.lowercased().trimmingCharacters(in: .whitespaces))
        guard !q.isEmpty else { return [] }
        var scored: [(Int, Int, Int)] = []
        for (i, ks) in keys.enumerated() {
            var best = Int.max
            for k in ks { best = min(best, DamerauLevenshtein.prefixDistance(q, k)) }
            if best <= maxDistance { scored.append((best, names[i].count, i)) }
        }
        scored.sort { ($0.0, $0.1, names[$0.2], $0.2) < ($1.0, $1.1, names[$1.2], $1.2) }
        return scored.prefix(limit).map(\.2)
    }
}
