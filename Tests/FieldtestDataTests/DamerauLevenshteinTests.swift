import FieldtestData
import Testing

@Suite("Optimal string alignment distance")
struct DamerauLevenshteinTests {
    @Test(
        "known distances",
        arguments: [
            ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("kitten", "sitting", 3),
            ("ab", "ba", 1),  // one transposition (plain Levenshtein says 2)
            ("ca", "abc", 3),  // OSA, not unrestricted Damerau (which says 2)
            ("pretoria", "pretoria", 0), ("sensrs", "sensors", 1),
        ])
    func distances(a: String, b: String, expected: Int) {
        #expect(DamerauLevenshtein.distance(a, b) == expected)
        #expect(DamerauLevenshtein.distance(b, a) == expected)
    }

    @Test("the bounded form agrees with the full one up to the limit, and is nil beyond it")
    func bounded() {
        let words = ["johannesburg", "johanesburg", "johannesbrug", "hannesburg", "durban", "", "j"]
        var rows = DamerauLevenshtein.Rows(capacity: 2)  // grows on demand
        for a in words {
            for b in words {
                let full = DamerauLevenshtein.distance(Array(a.utf8), Array(b.utf8))
                for limit in 0...4 {
                    let got = rows.distance(Array(a.utf8), Array(b.utf8), limit: limit)
                    #expect(got == (full <= limit ? full : nil), "\(a) / \(b) limit \(limit)")
                }
            }
        }
    }

    @Test("prefix distance: how far the query is from being a prefix")
    func prefix() {
        #expect(DamerauLevenshtein.prefixDistance(Array("lib"), Array("library")) == 0)
        #expect(DamerauLevenshtein.prefixDistance(Array("lbi"), Array("library")) == 1)
        #expect(DamerauLevenshtein.prefixDistance(Array("xyz"), Array("library")) == 3)
        #expect(DamerauLevenshtein.prefixDistance(Array(""), Array("library")) == 0)
        #expect(DamerauLevenshtein.prefixDistance(Array("ab"), Array("")) == 2)
    }

    @Test("closest: nearest candidate within max(2, n/3) edits, case-insensitive, first on ties")
    func closest() {
        let keys = ["sensors", "seed", "devices", "duration"]
        #expect(DamerauLevenshtein.closest(to: "sensrs", in: keys) == "sensors")
        #expect(DamerauLevenshtein.closest(to: "DEVCIES", in: keys) == "devices")
        #expect(DamerauLevenshtein.closest(to: "zzzzzz", in: keys) == nil)
        #expect(DamerauLevenshtein.closest(to: "sed", in: ["sad", "sod"]) == "sad")
    }
}
