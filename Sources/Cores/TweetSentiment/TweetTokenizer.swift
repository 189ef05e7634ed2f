/// A tweet tokenizer that keeps what carries sentiment.
///
/// Steps, in the spirit of Christopher Potts' sentiment tokenizer (Stanford
/// "Sentiment Symposium Tutorial", 2011) and the preprocessing of Go, Bhayani &
/// Huang (2009, "Twitter Sentiment Classification using Distant Supervision"):
/// 1. HTML character references are decoded (`&amp;` → `&`, `&lt;3` → `<3`).
/// 2. URLs (`http://…`, `https://…`, `www.…`, up to white space, less trailing
///    punctuation such as `.` `,` `!` or an unmatched `)`) become `<url>`, @mentions
///    `<user>`, numbers (`8`, `3.5`, `10:30`, `1,000`) `<num>`.
/// 3. Emoticons (`:)`, `:-(`, `;D`, `<3`, `(:`, `^_^` …; repeated mouths collapsed,
///    `:DDD` → `:D`) and emoji (whole sequences: skin tones, ZWJ, flags, keycaps
///    `1️⃣` `#️⃣`, `©️` `®️`; variation selectors dropped, also where no emoji
///    precedes them) are kept as tokens, case preserved.
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
/// Complexity: O(n) in the text's UTF-8 bytes.
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
        var tokens = TweetTokens()
        tokenize(text, into: &tokens)
        return tokens.strings
    }

    /// Tokenizes `text` into `tokens` (emptied first), working on UTF-8 bytes:
    /// ASCII is classified by byte tests, other scalars are decoded where met.
    /// No allocation per token once `tokens` has grown to the tweet's size.
    public func tokenize(_ text: String, into tokens: inout TweetTokens) {
        tokens.removeAll()
        var text = text
        text.withUTF8 { raw in
            guard raw.contains(0x26) else { return scan(raw, into: &tokens) }
            var decoded = tokens.scratch
            tokens.scratch = []
            HTMLEntities.decode(raw, into: &decoded)
            decoded.withUnsafeBufferPointer { scan($0, into: &tokens) }
            tokens.scratch = decoded
        }
    }

    /// The scanner behind `tokenize`: steps 2–7 of the type's description over valid UTF-8.
    func scan(_ s: UnsafeBufferPointer<UInt8>, into out: inout TweetTokens) {
        let n = s.count
        var negating = false
        var i = 0
        while i < n {
            let b = s[i]
            if b < 0x80 {
                if Self.isSpaceByte(b) {
                    i += 1
                    continue
                }
                if i + 1 < n, s[i + 1] >= 0x80, let end = Self.keycapEnd(s, i) {
                    // `1️⃣`: the base and U+20E3, without the variation selector.
                    out.push(b)
                    out.push("\u{20E3}")
                    out.finish()
                    i = end
                    continue
                }
                if b == 0x68 || b == 0x48 || b == 0x77 || b == 0x57, Self.atBoundary(s, i), let end = Self.urlEnd(s, i)
                {
                    out.push("<url>")
                    out.finish()
                    i = end
                    continue
                }
                if b == 0x40, i + 1 < n, Self.isHandleByte(s[i + 1]), Self.atBoundary(s, i) {
                    var j = i + 1
                    while j < n, Self.isHandleByte(s[j]) { j += 1 }
                    out.push("<user>")
                    out.finish()
                    i = j
                    continue
                }
                if Emoticons.mayStart(b), let (length, end) = Emoticons.match(s, at: i) {
                    out.push(UnsafeBufferPointer(rebasing: s[i..<(i + length)]))
                    out.finish()
                    i = end
                    continue
                }
                if b == 0x23, i + 1 < n, s[i + 1] == 0x5F || Self.isWordScalar(at: s, i + 1) {
                    var j = i + 1
                    while j < n {
                        if s[j] == 0x5F {
                            j += 1
                            continue
                        }
                        let (c, l) = Self.decode(s, j)
                        guard Self.isWordScalar(c) else { break }
                        j += l
                    }
                    hashtag(s, i + 1, j, into: &out, negating: &negating)
                    i = j
                    continue
                }
                if Self.isAlnumByte(b) {
                    let j = Self.wordEnd(s, i, firstLength: 1)
                    emitWord(s, i, j, into: &out, negating: &negating)
                    i = j
                    continue
                }
                if b == 0x21 || b == 0x3F {
                    var j = i + 1
                    while j < n, s[j] == b { j += 1 }
                    out.push(b)
                    out.finish()
                    negating = false
                    i = j
                    continue
                }
                if b == 0x2E || b == 0x2C || b == 0x3B || b == 0x3A { negating = false }
                i += 1
            } else {
                let (c, length) = Self.decode(s, i)
                if Self.isSpace(c) {
                    i += length
                    continue
                }
                if c.value == 0xA9 || c.value == 0xAE, i + length + 3 <= n,
                    s[i + length] == 0xEF, s[i + length + 1] == 0xB8, s[i + length + 2] == 0x8F
                {
                    // `©️` and `®️` in emoji presentation (plain `©` and `®` are no token).
                    out.push(UnsafeBufferPointer(rebasing: s[i..<(i + length)]))
                    out.finish()
                    i += length + 3
                    continue
                }
                if Self.isEmojiScalar(c) {
                    let end = Self.emojiEnd(s, i)
                    var k = i
                    while k < end {
                        let (d, l) = Self.decode(s, k)
                        if d.value != 0xFE0F && d.value != 0xFE0E {
                            out.push(UnsafeBufferPointer(rebasing: s[k..<(k + l)]))
                        }
                        k += l
                    }
                    out.finish()
                    i = end
                    continue
                }
                if Self.isWordScalar(c) {
                    let j = Self.wordEnd(s, i, firstLength: length)
                    emitWord(s, i, j, into: &out, negating: &negating)
                    i = j
                    continue
                }
                i += length
            }
        }
    }

    /// Appends the word `s[lo..<hi]`: `<num>` for numbers; otherwise normalised,
    /// opening a negation scope if it is a negator, else prefixed inside one.
    func emitWord(
        _ s: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int, into out: inout TweetTokens, negating: inout Bool
    ) {
        guard lo < hi else { return }
        if Self.isNumber(s, lo, hi) {
            out.push("<num>")
            out.finish()
            return
        }
        let start = out.pendingStart
        var ascii = true
        for k in lo..<hi where s[k] >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            // Lower-case and shorten runs in one pass over the bytes.
            var previous: UInt8 = 0
            var run = 0
            for k in lo..<hi {
                var b = s[k]
                if b >= 65 && b <= 90 { b += 32 }
                if b == previous {
                    run += 1
                } else {
                    run = 1
                    previous = b
                }
                if run <= 2 { out.push(b) }
            }
        } else {
            var scalars: [Unicode.Scalar] = []
            var k = lo
            while k < hi {
                let (c, l) = Self.decode(s, k)
                scalars.append(c)
                k += l
            }
            out.bytes.append(contentsOf: Self.normalizeWord(scalars[...]).utf8)
        }
        if Self.isNegator(out.bytes, start, out.bytes.count) {
            negating = marksNegation
        } else if negating {
            out.insertPrefix(Self.negationPrefixBytes, at: start)
        }
        out.finish()
    }

    /// Splits the hashtag body `s[lo..<hi]` at `_` and at lower→upper case changes, emitting each part as a word.
    func hashtag(
        _ s: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int, into out: inout TweetTokens, negating: inout Bool
    ) {
        var start = lo
        var k = lo
        var previousIsLower = false
        while k < hi {
            let (c, l) = Self.decode(s, k)
            if c == "_" {
                if k > start { emitWord(s, start, k, into: &out, negating: &negating) }
                start = k + 1
            } else if k > start, previousIsLower, Self.isUppercase(c) {
                emitWord(s, start, k, into: &out, negating: &negating)
                start = k
            }
            previousIsLower = Self.isLowercase(c)
            k += l
        }
        if start < hi { emitWord(s, start, hi, into: &out, negating: &negating) }
    }

    // MARK: Byte-level helpers

    /// `not_` as bytes.
    static let negationPrefixBytes: [UInt8] = Array(negationPrefix.utf8)

    /// The scalar starting at byte `i` and its length in bytes (U+FFFD, 1 on a malformed sequence).
    @inline(__always)
    static func decode(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Unicode.Scalar, Int) {
        let b0 = s[i]
        if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
        var v: UInt32
        let length: Int
        if b0 & 0xE0 == 0xC0 {
            length = 2
            v = UInt32(b0 & 0x1F)
        } else if b0 & 0xF0 == 0xE0 {
            length = 3
            v = UInt32(b0 & 0x0F)
        } else if b0 & 0xF8 == 0xF0 {
            length = 4
            v = UInt32(b0 & 0x07)
        } else {
            return ("\u{FFFD}", 1)
        }
        guard i + length <= s.count else { return ("\u{FFFD}", 1) }
        for k in 1..<length {
            let c = s[i + k]
            guard c & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
            v = v << 6 | UInt32(c & 0x3F)
        }
        return (Unicode.Scalar(v) ?? "\u{FFFD}", length)
    }

    /// The scalar ending just before byte `i` (i > 0).
    @inline(__always)
    static func scalar(before i: Int, in s: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        var j = i - 1
        while j > 0, s[j] & 0xC0 == 0x80, i - j < 4 { j -= 1 }
        return decode(s, j).0
    }

    @inline(__always)
    static func isSpaceByte(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    @inline(__always)
    static func isAlnumByte(_ b: UInt8) -> Bool { (b &- 0x30) < 10 || ((b | 0x20) &- 0x61) < 26 }

    @inline(__always)
    static func isHandleByte(_ b: UInt8) -> Bool { isAlnumByte(b) || b == 0x5F }

    @inline(__always)
    static func isWordScalar(at s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let b = s[i]
        return b < 0x80 ? isAlnumByte(b) : isWordScalar(decode(s, i).0)
    }

    /// Whether a token may start at `i`: the start, or after a non-word scalar.
    @inline(__always)
    static func atBoundary(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        i == 0 || !isWordScalar(scalar(before: i, in: s))
    }

    static func isUppercase(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? (c.value &- 0x41) < 26 : c.properties.isUppercase
    }

    static func isLowercase(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? (c.value &- 0x61) < 26 : c.properties.isLowercase
    }

    /// End of the word starting at `i` (whose first scalar is `firstLength` bytes).
    static func wordEnd(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, firstLength: Int) -> Int {
        let n = s.count
        var j = i + firstLength
        while j < n {
            let b = s[j]
            if b < 0x80 {
                if isAlnumByte(b) {
                    j += 1
                    continue
                }
                // Apostrophes inside words (don't) and separators inside numbers (3.5, 10:30, 1,000).
                if j + 1 < n, b == 0x27, isLetter(scalar(before: j, in: s)) {
                    let (next, l) = decode(s, j + 1)
                    if isLetter(next) {
                        j += 1 + l
                        continue
                    }
                }
                if j + 1 < n, b == 0x2E || b == 0x2C || b == 0x3A, isDigit(scalar(before: j, in: s)) {
                    let (next, l) = decode(s, j + 1)
                    if isDigit(next) {
                        j += 1 + l
                        continue
                    }
                }
                break
            }
            let (d, dl) = decode(s, j)
            if isWordScalar(d) {
                j += dl
                continue
            }
            if d == "\u{2019}", j + dl < n, isLetter(scalar(before: j, in: s)) {
                let (next, l) = decode(s, j + dl)
                if isLetter(next) {
                    j += dl + l
                    continue
                }
            }
            break
        }
        return j
    }

    /// Whether `s[lo..<hi]` is a number: a decimal digit, then digits and `.` `,` `:`.
    static func isNumber(_ s: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Bool {
        var k = lo
        while k < hi {
            let (c, l) = decode(s, k)
            if k == lo { guard isDigit(c) else { return false } }
            guard isDigit(c) || c == "." || c == "," || c == ":" else { return false }
            k += l
        }
        return true
    }

    /// Negators as bytes, grouped by first byte.
    static let negatorsByFirst: [[[UInt8]]] = {
        var t = [[[UInt8]]](repeating: [], count: 256)
        for w in negators.sorted() { if let f = w.utf8.first { t[Int(f)].append(Array(w.utf8)) } }
        return t
    }()

    /// Whether `b[lo..<hi]` is a negator (a listed word, or ending in `n't`).
    static func isNegator(_ b: [UInt8], _ lo: Int, _ hi: Int) -> Bool {
        let count = hi - lo
        guard count > 0 else { return false }
        if count >= 3, b[hi - 1] == 0x74, b[hi - 2] == 0x27, b[hi - 3] == 0x6E { return true }
        guard count >= 2, count <= 8 else { return false }
        for w in negatorsByFirst[Int(b[lo])] where w.count == count {
            var same = true
            for k in 0..<count where w[k] != b[lo + k] {
                same = false
                break
            }
            if same { return true }
        }
        return false
    }

    /// End of the keycap emoji starting at byte `i`, if one does: `0`–`9`, `#` or `*`,
    /// an optional variation selector (U+FE0F or U+FE0E), then U+20E3.
    @inline(__always)
    static func keycapEnd(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        let b = s[i]
        guard (b &- 0x30) < 10 || b == 0x23 || b == 0x2A else { return nil }
        let n = s.count
        var j = i + 1
        if j + 3 <= n, s[j] == 0xEF, s[j + 1] == 0xB8, s[j + 2] == 0x8F || s[j + 2] == 0x8E { j += 3 }
        guard j + 3 <= n, s[j] == 0xE2, s[j + 1] == 0x83, s[j + 2] == 0xA3 else { return nil }
        return j + 3
    }

    /// End of the emoji sequence starting at byte `i` (modifiers, ZWJ chains, flags, keycaps, tags).
    static func emojiEnd(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let n = s.count
        let (first, firstLength) = decode(s, i)
        var j = i + firstLength
        let isRegional: (Unicode.Scalar) -> Bool = { (0x1F1E6...0x1F1FF).contains($0.value) }
        if isRegional(first) {
            if j < n {
                let (d, l) = decode(s, j)
                if isRegional(d) { j += l }
            }
            return j
        }
        while j < n {
            let (d, l) = decode(s, j)
            let v = d.value
            if v == 0xFE0F || v == 0xFE0E || (0x1F3FB...0x1F3FF).contains(v) || v == 0x20E3
                || (0xE0020...0xE007F).contains(v)
            {
                j += l
            } else if v == 0x200D, j + l < n, isEmojiScalar(decode(s, j + l).0) {
                j += l + decode(s, j + l).1
            } else {
                break
            }
        }
        return j
    }

    /// End of a URL starting at byte `i`, if one starts there.
    static func urlEnd(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        let n = s.count
        func has(_ prefix: StaticString) -> Bool {
            var k = i
            let matched = prefix.withUTF8Buffer { p -> Bool in
                for x in p {
                    guard k < n else { return false }
                    var c = s[k]
                    if (c &- 0x41) < 26 { c += 32 }
                    guard c == x else { return false }
                    k += 1
                }
                return true
            }
            return matched && k < n && !isSpace(decode(s, k).0)
        }
        let body: Int
        if has("http://") {
            body = i + 7
        } else if has("https://") {
            body = i + 8
        } else if has("www.") {
            body = i + 4
        } else {
            return nil
        }
        var j = i
        while j < n {
            let (c, l) = decode(s, j)
            if isSpace(c) { break }
            j += l
        }
        return urlEnd(trimming: s, body: body, end: j)
    }

    /// The end of the URL whose host starts at `body` and whose run of non-space bytes ends at
    /// `end`, once trailing punctuation is left out: `. , ; : ! ? ' "` `]` `}`, and a `)` that
    /// closes no `(` of the URL (`(see http://a.com/x).` → `http://a.com/x`, but
    /// `http://w.org/Rome_(city)` stays whole).
    /// A URL of its prefix alone (`http://...`) ends after the prefix, so the rest reads as
    /// punctuation (not as the emoticon `:/`). Shared by both scanners, so they agree byte for byte.
    @inline(__always)
    static func urlEnd(trimming s: UnsafeBufferPointer<UInt8>, body: Int, end: Int) -> Int {
        var j = end
        var unmatched = 0  // `)` not yet matched by a `(` in the URL, counted only when one ends it
        if s[j - 1] == 0x29 {
            for k in body..<end { if s[k] == 0x29 { unmatched += 1 } else if s[k] == 0x28 { unmatched -= 1 } }
        }
        while j > body {
            let b = s[j - 1]
            if b == 0x2E || b == 0x2C || b == 0x3B || b == 0x3A || b == 0x21 || b == 0x3F || b == 0x27 || b == 0x22
                || b == 0x5D || b == 0x7D
            {
                j -= 1
            } else if b == 0x29, unmatched > 0 {
                unmatched -= 1
                j -= 1
            } else {
                break
            }
        }
        return j
    }

    // MARK: Scalar classes

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c.isASCII
            ? (c == " " || c == "\n" || c == "\t" || c == "\r" || c.value == 0x0B || c.value == 0x0C)
            : c.properties.isWhitespace
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
        // Variation selectors (U+FE00–FE0F, U+E0100–E01EF) are marks but only choose a glyph: no word holds them.
        if p.isVariationSelector { return false }
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

    // MARK: Words

    /// Lower-cases, maps `’` to `'`, and keeps at most two of any repeated character.
    static func normalizeWord(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var ascii = true
        for c in scalars where !c.isASCII {
            ascii = false
            break
        }
        if ascii {
            // Fast path: lower-case and shorten runs in one pass over bytes.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(scalars.count)
            var previous: UInt8 = 0
            var run = 0
            for c in scalars {
                var b = UInt8(truncatingIfNeeded: c.value)
                if b >= 65 && b <= 90 { b += 32 }
                if b == previous {
                    run += 1
                } else {
                    run = 1
                    previous = b
                }
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
            if c == previous {
                run += 1
            } else {
                run = 1
                previous = c
            }
            if run <= 2 { out.append(c) }
        }
        return String(out)
    }

}
