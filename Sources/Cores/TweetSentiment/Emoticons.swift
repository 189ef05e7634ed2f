/// Western and eastern text emoticons, matched longest first.
///
/// The set is generated from eyes × noses × mouths (`:-)`, `;D`, `=P`, `:'(`),
/// reversed forms (`(:`, `)-:`), and a few fixed ones (`<3`, `</3`, `^_^`, `-_-`,
/// `o_O`, `T_T`, `xD`). A match needs a non-alphanumeric scalar after it; one that
/// does not start with eyes (`:` `;` `=`) also needs white space before it (so `(max)` and
/// `see above):` hold no emoticon). Repeated final mouths collapse, letters included
/// (`:)))` → `:)`, `:DDD` → `:D`, `xDD` → `xD`, `<333` → `<3`).
enum Emoticons {
    /// All emoticons, longest first.
    static let all: [[Unicode.Scalar]] = {
        var set = Set<String>()
        let mouths = [
            ")", "]", "}", "(", "[", "{", "D", "P", "p", "/", "\\", "|", "*", "O", "o", "3", "S", "s", "$", "@", "X",
            "x",
        ]
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
        set.formUnion([
            "<3", "</3", "^_^", "^^", "^.^", "^-^", "-_-", "-.-", "o_o", "O_O", "o_O", "O_o", "T_T", ";_;", ">:(",
            ">:)", ">:-(", ">:[", ":-||",
        ])
        return set.map { Array($0.unicodeScalars) }.sorted {
            $0.count != $1.count
                ? $0.count > $1.count : String(String.UnicodeScalarView($0)) < String(String.UnicodeScalarView($1))
        }
    }()

    /// Emoticons as UTF-8 bytes (all ASCII) grouped by first byte, longest first within each group.
    static let byFirst: [[[UInt8]]] = {
        var t = [[[UInt8]]](repeating: [], count: 128)
        for e in all {
            let bytes = e.map { UInt8(truncatingIfNeeded: $0.value) }
            if let f = bytes.first, f < 128 { t[Int(f)].append(bytes) }
        }
        return t
    }()

    /// Cheap pre-check: whether any emoticon starts with byte `b`.
    @inline(__always)
    static func mayStart(_ b: UInt8) -> Bool {
        b < 128 && firstTable[Int(b)]
    }

    /// ASCII first bytes of emoticons.
    static let firstTable: [Bool] = byFirst.map { !$0.isEmpty }

    /// The emoticon starting at byte `i` of valid UTF-8 `s`: its length in bytes
    /// and the offset after it (and after any repeated mouth).
    static func match(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> (Int, Int)? {
        let first = s[i]
        guard first < 128 else { return nil }
        let candidates = byFirst[Int(first)]
        guard !candidates.isEmpty else { return nil }
        // Eyes-first emoticons may follow a word (`thanks:)`); the rest need white space or the start before them.
        if !(first == 0x3A || first == 0x3B || first == 0x3D), i > 0,
            !TweetTokenizer.isSpace(TweetTokenizer.scalar(before: i, in: s))
        {
            return nil
        }
        let n = s.count
        for e in candidates where i + e.count <= n {
            var ok = true
            for k in 0..<e.count where s[i + k] != e[k] {
                ok = false
                break
            }
            guard ok else { continue }
            var end = i + e.count
            if let mouth = e.last {
                while end < n, s[end] == mouth { end += 1 }
            }
            if end < n, TweetTokenizer.isWordScalar(at: s, end) { continue }
            return (e.count, end)
        }
        return nil
    }
}
