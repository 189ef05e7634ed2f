/// Western and eastern text emoticons, matched longest first.
///
/// The set is generated from eyes × noses × mouths (`:-)`, `;D`, `=P`, `:'(`),
/// reversed forms (`(:`, `)-:`), and a few fixed ones (`<3`, `</3`, `^_^`, `-_-`,
/// `o_O`, `T_T`, `xD`). A match needs a non-alphanumeric scalar after it; one that
/// does not start with eyes (`:` `;` `=`) also needs white space before it (so `(max)` and
/// `see above):` hold no emoticon). Repeated final mouths collapse (`:)))` → `:)`).
enum Emoticons {
    /// All emoticons, longest first.
    static let all: [[Unicode.Scalar]] = {
        var set = Set<String>()
        let mouths = [")", "]", "}", "(", "[", "{", "D", "P", "p", "/", "\\", "|", "*", "O", "o", "3", "S", "s", "$", "@", "X", "x"]
        for eyes in [":", ";", "="] {
            for nose in ["", "-", "'", "^"] {
                for mouth in mouths { set.insert(eyes + nose + mouth) }
            }
        }
        for eyes in ["x", "X"] {
            for nose in ["", "-"] {
                for mouth in ["D", "P", "p", ")", "("] { set.insert(eyes + nose + mouth) }
            }
        }
        for mouth in ["(", ")", "[", "]"] {
            for nose in ["", "-", "'"] {
                for eyes in [":", ";", "="] { set.insert(mouth + nose + eyes) }
            }
        }
        set.formUnion(["<3", "</3", "^_^", "^^", "^.^", "^-^", "-_-", "-.-", "o_o", "O_O", "o_O", "O_o", "T_T", ";_;", ">:(", ">:)", ">:-(", ">:[", ":-||"])
        return set.map { Array($0.unicodeScalars) }.sorted { $0.count != $1.count ? $0.count > $1.count : String(String.UnicodeScalarView($0)) < String(String.UnicodeScalarView($1)) }
    }()

    /// Emoticons grouped by first scalar, longest first within each group.
    static let byFirst: [Unicode.Scalar: [[Unicode.Scalar]]] = {
        var d: [Unicode.Scalar: [[Unicode.Scalar]]] = [:]
        for e in all { if let f = e.first { d[f, default: []].append(e) } }
        return d
    }()

    /// Cheap pre-check: whether any emoticon starts with `c`.
    @inline(__always)
    static func mayStart(_ c: Unicode.Scalar) -> Bool {
        guard c.value < 128 else { return false }
        return firstTable[Int(c.value)]
    }

    /// ASCII first scalars of emoticons.
    static let firstTable: [Bool] = {
        var t = [Bool](repeating: false, count: 128)
        for e in all { if let f = e.first, f.value < 128 { t[Int(f.value)] = true } }
        return t
    }()

    /// The emoticon starting at `s[i]` and the index after it (and after any repeated mouth).
    static func match(_ s: [Unicode.Scalar], at i: Int) -> (String, Int)? {
        let first = s[i]
        guard let candidates = byFirst[first] else { return nil }
        // Eyes-first emoticons may follow a word (`thanks:)`); the rest need white space or the start before them.
        if !(first == ":" || first == ";" || first == "="), i > 0, !TweetTokenizer.isSpace(s[i - 1]) { return nil }
        for e in candidates where i + e.count <= s.count {
            var ok = true
            for k in 0..<e.count where s[i + k] != e[k] { ok = false; break }
            guard ok else { continue }
            var end = i + e.count
            if let mouth = e.last, !TweetTokenizer.isWordScalar(mouth) {
                while end < s.count, s[end] == mouth { end += 1 }
            }
            if end < s.count, TweetTokenizer.isWordScalar(s[end]) { continue }
            return (String(String.UnicodeScalarView(e)), end)
        }
        return nil
    }
}
