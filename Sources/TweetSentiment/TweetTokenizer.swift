/// A tweet tokenizer that keeps what carries sentiment.
///
/// Steps, in the spirit of Christopher Potts' sentiment tokenizer (Stanford
/// "Sentiment Symposium Tutorial", 2011) and the preprocessing of Go, Bhayani &
/// Huang (2009, "Twitter Sentiment Classification using Distant Supervision"):
/// 1. HTML character references are decoded (`&amp;` → `&`, `&lt;3` → `<3`).
/// 2. URLs (`http://…`, `https://…`, `www.…`) become `<url>`, @mentions `<user>`,
///    numbers (`8`, `3.5`, `10:30`, `1,000`) `<num>`.
/// 3. Emoticons (`:)`, `:-(`, `;D`, `<3`, `(:`, `^_^` …; repeated mouths collapsed)
///    and emoji (whole sequences: skin tones, ZWJ, flags, keycaps; variation
///    selectors dropped) are kept as tokens, case preserved.
/// 4. Words are lower-cased; `#hashtag` loses its `#` and camelCase or `_` parts
///    are split (`#NotHappy` → `not happy`); `’` becomes `'`.
/// 5. Elongations are shortened: any character repeated three or more times is
///    kept twice (`soooo` → `soo`, `!!!` is handled as one `!`).
/// 6. Negation scope (Das & Chen 2001; Pang, Lee & Vaithyanathan 2002): after a
///    negator (`not`, `no`, `never`, `…n't`, `cant`, …) every word up to the next
///    `.` `,` `;` `:` `!` `?` gets the prefix `not_` (`not good` → `not not_good`).
/// 7. `!` and `?` are kept as tokens (one per run); other punctuation is dropped.
///
/// Any `String` is valid Unicode, so the tokenizer is safe on any input; raw bytes
/// go through `tokenize(bytes:)`, which repairs invalid UTF-8 with U+FFFD.
/// Complexity: O(n) in the text's Unicode scalars.
public struct TweetTokenizer: Sendable {
    /// Token standing for any URL.
    public static let urlToken = "<url>"
    /// Token standing for any @mention.
    public static let userToken = "<user>"
    /// Token standing for any number.
    public static let numberToken = "<num>"
    /// Prefix marking a word inside a negation scope.
    public static let negationPrefix = "not_"

    /// Words that open a negation scope (Potts 2011), besides any word ending in `n't`.
    public static let negators: Set<String> = [
        "not", "no", "never", "cannot", "nothing", "nobody", "none", "nowhere", "noone", "neither", "nor",
        "aint", "cant", "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "wont", "wouldnt",
        "shouldnt", "couldnt", "havent", "hasnt", "hadnt", "mustnt", "neednt", "darent", "mightnt",
    ]

    /// Whether negation scopes are marked (on by default).
    public var marksNegation: Bool

    /// Creates a tokenizer.
    public init(marksNegation: Bool = true) {
        self.marksNegation = marksNegation
    }

    /// Tokens of raw bytes; invalid UTF-8 sequences become U+FFFD and are dropped.
    public func tokenize(bytes: [UInt8]) -> [String] {
        tokenize(String(decoding: bytes, as: UTF8.self))
    }

    /// Tokens of `text`, in order.
    public func tokenize(_ text: String) -> [String] {
        let s = Array(HTMLEntities.decode(text).unicodeScalars)
        let n = s.count
        var out: [String] = []
        out.reserveCapacity(n / 4 + 1)
        var negating = false

        func emitWord(_ scalars: ArraySlice<Unicode.Scalar>) {
            let word = Self.normalizeWord(scalars)
            guard !word.isEmpty else { return }
            if Self.isNumber(scalars) { out.append(Self.numberToken); return }
            if Self.isNegator(word) {
                out.append(word)
                negating = marksNegation
            } else if negating {
                out.append(Self.negationPrefix + word)
            } else {
                out.append(word)
            }
        }

        var i = 0
        while i < n {
            let c = s[i]
            if Self.isSpace(c) { i += 1; continue }
            let atBoundary = i == 0 || !Self.isWordScalar(s[i - 1])
            if atBoundary, c == "h" || c == "H" || c == "w" || c == "W", let end = Self.urlEnd(s, i) {
                out.append(Self.urlToken); i = end; continue
            }
            if c == "@", atBoundary, i + 1 < n, Self.isHandleScalar(s[i + 1]) {
                var j = i + 1
                while j < n, Self.isHandleScalar(s[j]) { j += 1 }
                out.append(Self.userToken); i = j; continue
            }
            if Emoticons.mayStart(c), let (emoticon, end) = Emoticons.match(s, at: i) {
                out.append(emoticon); i = end; continue
            }
            if Self.isEmojiScalar(c) {
                let end = Self.emojiEnd(s, i)
                var view = String.UnicodeScalarView()
                for k in i..<end where s[k].value != 0xFE0F && s[k].value != 0xFE0E { view.append(s[k]) }
                out.append(String(view)); i = end; continue
            }
            if c == "#", i + 1 < n, Self.isWordScalar(s[i + 1]) || s[i + 1] == "_" {
                var j = i + 1
                while j < n, Self.isWordScalar(s[j]) || s[j] == "_" { j += 1 }
                for part in Self.hashtagParts(s[(i + 1)..<j]) { emitWord(part) }
                i = j; continue
            }
            if Self.isWordScalar(c) {
                var j = i + 1
                while j < n {
                    let d = s[j]
                    if Self.isWordScalar(d) { j += 1; continue }
                    // Apostrophes inside words (don't, you’ve) and separators inside numbers (3.5, 10:30, 1,000).
                    if j + 1 < n, (d == "'" || d == "\u{2019}"), Self.isLetter(s[j - 1]), Self.isLetter(s[j + 1]) { j += 2; continue }
                    if j + 1 < n, (d == "." || d == "," || d == ":"), Self.isDigit(s[j - 1]), Self.isDigit(s[j + 1]) { j += 2; continue }
                    break
                }
                emitWord(s[i..<j])
                i = j; continue
            }
            if c == "!" || c == "?" {
                var j = i + 1
                while j < n, s[j] == c { j += 1 }
                out.append(c == "!" ? "!" : "?")
                negating = false
                i = j; continue
            }
            if c == "." || c == "," || c == ";" || c == ":" { negating = false }
            i += 1
        }
        return out
    }

    // MARK: Scalar classes

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? (c == " " || c == "\n" || c == "\t" || c == "\r" || c.value == 0x0B || c.value == 0x0C) : c.properties.isWhitespace
    }

    static func isDigit(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? ("0"..."9").contains(c) : c.properties.numericType == .decimal
    }

    static func isLetter(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? (("a"..."z").contains(c) || ("A"..."Z").contains(c)) : c.properties.isAlphabetic
    }

    static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII { return ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) }
        let p = c.properties
        if p.isAlphabetic || p.numericType == .decimal { return true }
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return c.value != 0x20E3
        default: return false
        }
    }

    static func isHandleScalar(_ c: Unicode.Scalar) -> Bool {
        c.isASCII && (("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_")
    }

    /// Emoji that start a token: Emoji_Presentation scalars, and Emoji scalars
    /// above U+203C (which excludes ASCII digits, `#`, `*`, © and ®).
    static func isEmojiScalar(_ c: Unicode.Scalar) -> Bool {
        guard c.value >= 0x203C else { return false }
        let p = c.properties
        return p.isEmojiPresentation || (p.isEmoji && !p.isAlphabetic)
    }

    /// End of the emoji sequence starting at `i` (modifiers, ZWJ chains, flags, keycaps, tags).
    static func emojiEnd(_ s: [Unicode.Scalar], _ i: Int) -> Int {
        let n = s.count
        var j = i + 1
        let isRegional: (Unicode.Scalar) -> Bool = { (0x1F1E6...0x1F1FF).contains($0.value) }
        if isRegional(s[i]) {
            if j < n, isRegional(s[j]) { j += 1 }
            return j
        }
        while j < n {
            let v = s[j].value
            if v == 0xFE0F || v == 0xFE0E || (0x1F3FB...0x1F3FF).contains(v) || v == 0x20E3 || (0xE0020...0xE007F).contains(v) {
                j += 1
            } else if v == 0x200D, j + 1 < n, isEmojiScalar(s[j + 1]) {
                j += 2
            } else {
                break
            }
        }
        return j
    }

    /// End of a URL starting at `i`, if one starts there.
    static func urlEnd(_ s: [Unicode.Scalar], _ i: Int) -> Int? {
        func has(_ prefix: String) -> Bool {
            var k = i
            for p in prefix.unicodeScalars {
                guard k < s.count else { return false }
                let c = s[k]
                let lower = ("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 32) ?? c : c
                guard lower == p else { return false }
                k += 1
            }
            return k < s.count && !isSpace(s[k])
        }
        guard has("http://") || has("https://") || has("www.") else { return nil }
        var j = i
        while j < s.count, !isSpace(s[j]) { j += 1 }
        return j
    }

    // MARK: Words

    static func isNumber(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first, isDigit(first) else { return false }
        return scalars.allSatisfy { isDigit($0) || $0 == "." || $0 == "," || $0 == ":" }
    }

    static func isNegator(_ word: String) -> Bool {
        // Cheap byte tests first: every negator is 2–8 bytes starting with one of
        // a c d h i m n s w, or ends in "n't".
        var copy = word
        return copy.withUTF8 { b -> Bool in
            guard let first = b.first, let last = b.last else { return false }
            if last == 0x74, b.count >= 3, b[b.count - 2] == 0x27, b[b.count - 3] == 0x6E { return true }
            guard b.count >= 2, b.count <= 8 else { return false }
            switch first {
            case 0x61, 0x63, 0x64, 0x68, 0x69, 0x6D, 0x6E, 0x73, 0x77: return negators.contains(word)
            default: return false
            }
        }
    }

    /// Lower-cases, maps `’` to `'`, and keeps at most two of any repeated character.
    static func normalizeWord(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var ascii = true
        for c in scalars where !c.isASCII { ascii = false; break }
        if ascii {
            // Fast path: lower-case and shorten runs in one pass over bytes.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(scalars.count)
            var previous: UInt8 = 0
            var run = 0
            for c in scalars {
                var b = UInt8(truncatingIfNeeded: c.value)
                if b >= 65 && b <= 90 { b += 32 }
                if b == previous { run += 1 } else { run = 1; previous = b }
                if run <= 2 { bytes.append(b) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var view = String.UnicodeScalarView()
        for c in scalars { view.append(c == "\u{2019}" ? "'" : c) }
        let lowered = String(view).lowercased()
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar? = nil
        var run = 0
        for c in lowered.unicodeScalars {
            if c == previous { run += 1 } else { run = 1; previous = c }
            if run <= 2 { out.append(c) }
        }
        return String(out)
    }

    /// Splits a hashtag body at `_` and at lower→upper case changes.
    static func hashtagParts(_ body: ArraySlice<Unicode.Scalar>) -> [ArraySlice<Unicode.Scalar>] {
        var parts: [ArraySlice<Unicode.Scalar>] = []
        var start = body.startIndex
        var k = body.startIndex
        while k < body.endIndex {
            let c = body[k]
            if c == "_" {
                if k > start { parts.append(body[start..<k]) }
                start = k + 1
            } else if k > start, c.properties.isUppercase, body[k - 1].properties.isLowercase {
                parts.append(body[start..<k])
                start = k
            }
            k += 1
        }
        if start < body.endIndex { parts.append(body[start..<body.endIndex]) }
        return parts
    }
}
