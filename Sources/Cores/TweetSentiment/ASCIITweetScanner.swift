/// `TweetTokenizer.scan` specialised to ASCII text: the same tokens, byte for
/// byte, found with a 256-entry byte-class table instead of scalar decoding,
/// and written through unsafe pointers into buffers sized once per tweet (no
/// array appends, uniqueness checks or static-let look-ups per byte).
///
/// Only for text whose bytes are all ASCII (after HTML references were
/// decoded): there every scalar is one byte, so the general scanner's scalar
/// tests (`isWordScalar`, `isLetter`, `isDigit`, `isSpace`) reduce to the byte
/// classes below. `SentimentScorer` checks this and falls back to
/// `TweetTokenizer` for any other text. A class, so a scorer holds its tables
/// by one reference. Complexity: O(n) in the text's bytes.
final class ASCIITweetScanner: Sendable {
    /// Byte-class bits of `classes`.
    static let space: UInt8 = 1, letter: UInt8 = 2, digit: UInt8 = 4, upper: UInt8 = 8, handle: UInt8 = 16
    /// Letters and digits.
    static let alnum: UInt8 = letter | digit

    /// Class bits of each byte (zero at and above 0x80).
    let classes: [UInt8]
    /// Whether some emoticon starts with the two bytes `first * 128 + second`
    /// (every emoticon has at least two bytes, so other pairs need no `Emoticons.match`).
    let emoticonPairs: [Bool]
    /// Negators of two to eight bytes packed little-endian into a `UInt64`
    /// (zero-padded, so the packed value identifies the word), in an
    /// open-addressing table of `negatorMask + 1` slots (0: empty).
    let negatorKeys: [UInt64]
    let negatorMask: Int
    /// For each first byte, bit `n` set when some listed negator of `n` bytes starts with it
    /// (a cheap, well-predicted filter before the table probe).
    let negatorLengths: [UInt16]

    init() {
        var c = [UInt8](repeating: 0, count: 256)
        for b in 0..<128 {
            let x = UInt8(b)
            if TweetTokenizer.isSpaceByte(x) { c[b] |= Self.space }
            if (x &- 0x61) < 26 || (x &- 0x41) < 26 { c[b] |= Self.letter }
            if (x &- 0x41) < 26 { c[b] |= Self.upper }
            if (x &- 0x30) < 10 { c[b] |= Self.digit }
            if TweetTokenizer.isHandleByte(x) { c[b] |= Self.handle }
        }
        classes = c
        var pairs = [Bool](repeating: false, count: 128 * 128)
        for e in Emoticons.all where e.count >= 2 && e[0].isASCII && e[1].isASCII {
            pairs[Int(e[0].value) * 128 + Int(e[1].value)] = true
        }
        emoticonPairs = pairs
        let packed = TweetTokenizer.negators.map { Array($0.utf8) }.filter { (2...8).contains($0.count) }.map(Self.pack)
        var size = 16
        while size < 4 * packed.count { size <<= 1 }
        var keys = [UInt64](repeating: 0, count: size)
        for k in packed {
            var i = Self.slot(k, mask: size - 1)
            while keys[i] != 0 { i = (i + 1) & (size - 1) }
            keys[i] = k
        }
        negatorKeys = keys
        negatorMask = size - 1
        var lengths = [UInt16](repeating: 0, count: 256)
        for w in TweetTokenizer.negators.map({ Array($0.utf8) }) where (2...8).contains(w.count) {
            lengths[Int(w[0])] |= 1 << w.count
        }
        negatorLengths = lengths
    }

    /// Up to eight bytes packed little-endian (first byte lowest).
    static func pack(_ bytes: [UInt8]) -> UInt64 {
        var k: UInt64 = 0
        for (i, b) in bytes.prefix(8).enumerated() { k |= UInt64(b) << (8 * UInt64(i)) }
        return k
    }

    @inline(__always)
    static func slot(_ key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    /// Bytes `tokenize` may write for `n` input bytes: each token needs at least
    /// one input byte plus a separator or end (two for `<user>`, one for `<num>`),
    /// and is at most 6 bytes for 2 input bytes (`@a` → `<user>`) or its normalised
    /// word plus `not_`; plus 16 bytes of slack.
    static func outputCapacity(_ n: Int) -> Int { 3 * n + 32 }

    /// Tokenizes the ASCII text `s` (all bytes < 0x80) into `out` (at least
    /// `outputCapacity(s.count)` bytes) and `ends` (at least `s.count + 1` entries):
    /// token `k` spans `out[ends[k-1] ..< ends[k]]`. Returns the number of tokens.
    /// Same tokens as `TweetTokenizer().scan(s)` (negation marking on).
    func tokenize(_ s: UnsafeBufferPointer<UInt8>, out: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<Int32>)
        -> Int
    {
        classes.withUnsafeBufferPointer { cls in
            emoticonPairs.withUnsafeBufferPointer { pairs in
                negatorKeys.withUnsafeBufferPointer { neg in
                    negatorLengths.withUnsafeBufferPointer { lengths in
                        var w = Writer(
                            out: out, ends: ends, classes: cls, negators: neg, negatorMask: negatorMask,
                            negatorLengths: lengths)
                        w.scan(s, emoticonPairs: pairs)
                        return w.count
                    }
                }
            }
        }
    }

    /// What the negator test needs of a word, gathered while it is written:
    /// its first eight bytes packed little-endian and its last four bytes (last lowest).
    struct WordShape {
        var head: UInt64 = 0
        var shift: UInt64 = 0
        var tail: UInt32 = 0

        /// `add(b)` when `keep`, else nothing (without a branch).
        @inline(__always)
        mutating func add(_ b: UInt8, if keep: Bool) {
            let k: UInt64 = keep ? 1 : 0
            head |= (UInt64(b) << shift) & (0 &- k)
            shift &+= 8 &* k
            tail = keep ? tail << 8 | UInt32(b) : tail
        }

        @inline(__always)
        mutating func add(_ b: UInt8) {
            head |= UInt64(b) << shift  // zero once `shift` reaches 64 (Swift's shifts do not wrap)
            shift &+= 8
            tail = tail << 8 | UInt32(b)
        }
    }

    /// The scanning state: where the next byte and token end go, and whether a negation scope is open.
    struct Writer {
        let out: UnsafeMutablePointer<UInt8>
        let ends: UnsafeMutablePointer<Int32>
        let classes: UnsafeBufferPointer<UInt8>
        let negators: UnsafeBufferPointer<UInt64>
        let negatorMask: Int
        let negatorLengths: UnsafeBufferPointer<UInt16>
        var position = 0
        var count = 0
        var negating = false

        init(
            out: UnsafeMutablePointer<UInt8>, ends: UnsafeMutablePointer<Int32>, classes: UnsafeBufferPointer<UInt8>,
            negators: UnsafeBufferPointer<UInt64>, negatorMask: Int, negatorLengths: UnsafeBufferPointer<UInt16>
        ) {
            self.negatorLengths = negatorLengths
            self.out = out
            self.ends = ends
            self.classes = classes
            self.negators = negators
            self.negatorMask = negatorMask
        }

        @inline(__always)
        func has(_ b: UInt8, _ bits: UInt8) -> Bool { classes[Int(b)] & bits != 0 }

        /// Ends the token being written.
        @inline(__always)
        mutating func finish() {
            ends[count] = Int32(truncatingIfNeeded: position)
            count += 1
        }

        /// Writes a whole token.
        @inline(__always)
        mutating func emit(_ token: StaticString) {
            let p = token.utf8Start
            for k in 0..<token.utf8CodeUnitCount { out[position + k] = p[k] }
            position += token.utf8CodeUnitCount
            finish()
        }

        /// The scanner loop (the ASCII branch of `TweetTokenizer.scan`, in the same order of tests).
        mutating func scan(_ s: UnsafeBufferPointer<UInt8>, emoticonPairs: UnsafeBufferPointer<Bool>) {
            let n = s.count
            var i = 0
            while i < n {
                let b = s[i]
                let c = classes[Int(b)]
                if c & ASCIITweetScanner.space != 0 {
                    i += 1
                    continue
                }
                // A token may start here (URL, mention): the start, or after a non-alphanumeric byte.
                let atBoundary = i == 0 || !has(s[i - 1], ASCIITweetScanner.alnum)
                if b | 0x20 == 0x68 || b | 0x20 == 0x77, atBoundary, let end = Self.urlEnd(s, i, classes) {
                    emit("<url>")
                    i = end
                    continue
                }
                if b == 0x40, i + 1 < n, has(s[i + 1], ASCIITweetScanner.handle), atBoundary {
                    var j = i + 1
                    while j < n, has(s[j], ASCIITweetScanner.handle) { j += 1 }
                    emit("<user>")
                    i = j
                    continue
                }
                if i + 1 < n, emoticonPairs[Int(b) &* 128 &+ Int(s[i + 1])],
                    let (length, end) = Emoticons.match(s, at: i)
                {
                    for k in 0..<length { out[position + k] = s[i + k] }
                    position += length
                    finish()
                    i = end
                    continue
                }
                if b == 0x23, i + 1 < n, s[i + 1] == 0x5F || has(s[i + 1], ASCIITweetScanner.alnum) {
                    var j = i + 1
                    while j < n, s[j] == 0x5F || has(s[j], ASCIITweetScanner.alnum) { j += 1 }
                    hashtag(s, i + 1, j)
                    i = j
                    continue
                }
                if c & ASCIITweetScanner.alnum != 0 {
                    i = wordByWords(s, i) ?? scanWord(s, i)
                    continue
                }
                if b == 0x21 || b == 0x3F {
                    var j = i + 1
                    while j < n, s[j] == b { j += 1 }
                    out[position] = b
                    position += 1
                    finish()
                    negating = false
                    i = j
                    continue
                }
                if b == 0x2E || b == 0x2C || b == 0x3B || b == 0x3A { negating = false }
                i += 1
            }
        }

        /// `TweetTokenizer.urlEnd` for ASCII: `http://`, `https://` or `www.` (any case) followed by a
        /// non-space byte, up to white space, less trailing punctuation (`TweetTokenizer.urlEnd(trimming:body:end:)`).
        static func urlEnd(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ classes: UnsafeBufferPointer<UInt8>) -> Int? {
            let n = s.count
            func has(_ prefix: StaticString) -> Bool {
                let p = prefix.utf8Start
                let m = prefix.utf8CodeUnitCount
                guard i + m < n else { return false }
                for k in 0..<m {
                    var c = s[i + k]
                    if (c &- 0x41) < 26 { c += 32 }
                    guard c == p[k] else { return false }
                }
                return classes[Int(s[i + m])] & ASCIITweetScanner.space == 0
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
            var j = body
            while j < n, classes[Int(s[j])] & ASCIITweetScanner.space == 0 { j += 1 }
            return TweetTokenizer.urlEnd(trimming: s, body: body, end: j)
        }

        /// `scanWord` eight bytes at a time (SWAR: byte classes, lower-casing and the word's end
        /// from 64-bit arithmetic) for the common word: letters and digits only, no byte repeated
        /// three times in a row, and not ended by a byte that continues it (`'` between letters;
        /// `.` `,` `:` between digits). The text's last bytes, fewer than eight, are read into a
        /// zero-padded word (a zero byte ends a word). Returns the end, or nil (having changed
        /// nothing but scratch bytes past `position`) for `scanWord` to handle.
        /// Valid for ASCII text only (every byte below 0x80, so no carry crosses a byte).
        @inline(__always)
        mutating func wordByWords(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
            let n = s.count
            let base = UnsafeRawPointer(s.baseAddress!)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let start = position
            let wordStart = negating ? start + 4 : start
            let dst = UnsafeMutableRawPointer(out + wordStart)
            var at = i
            var length = 0
            var head: UInt64 = 0
            var letters: UInt64 = 0
            var previous: UInt64 = 0  // the chunk before, lower-cased (for runs across chunks)
            while true {
                let w: UInt64
                if at + 8 <= n {
                    w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                } else {
                    var tail: UInt64 = 0  // the last n - at bytes, zero-padded
                    withUnsafeMutableBytes(of: &tail) { $0.baseAddress!.copyMemory(from: base + at, byteCount: n - at) }
                    w = UInt64(littleEndian: tail)
                }
                // Per-byte high bit: letter ((b | 0x20) in a…z), digit (b in 0…9), upper case (b in A…Z).
                let folded = w | (ones &* 0x20)
                let letter = (folded &+ ones &* 0x1F) & ~(folded &+ ones &* 0x05) & highs
                let digit = (w &+ ones &* 0x50) & ~(w &+ ones &* 0x46) & highs
                let upper = (w &+ ones &* 0x3F) & ~(w &+ ones &* 0x25) & highs
                let lower = w | upper >> 2
                let other = ~(letter | digit) & highs
                let count = other == 0 ? 8 : other.trailingZeroBitCount >> 3
                let keep: UInt64 = count == 8 ? UInt64.max : (1 << (8 * UInt64(count))) &- 1
                let bytes = lower & keep
                // Three equal bytes in a row (within the chunk, or across the boundary with the previous one) go to `scanWord`.
                if Self.hasTriple(bytes, valid: keep)
                    || (length > 0 && Self.hasTriple(bytes << 16 | previous >> 48, valid: keep << 16 | 0xFFFF))
                {
                    return nil
                }
                dst.storeBytes(of: bytes.littleEndian, toByteOffset: length, as: UInt64.self)
                if length == 0 { head = bytes }
                letters |= letter & keep
                length += count
                at += count
                if count < 8 { break }
                previous = bytes
            }
            // The byte that ended the word must not be one `scanWord` continues over:
            // `'` between letters, `.` `,` `:` between digits (its test, in the same order).
            if at + 1 < n {
                let t = s[at]
                if t == 0x27, has(s[at - 1], ASCIITweetScanner.letter), has(s[at + 1], ASCIITweetScanner.letter) {
                    return nil
                }
                if t == 0x2E || t == 0x2C || t == 0x3A, has(s[at - 1], ASCIITweetScanner.digit),
                    has(s[at + 1], ASCIITweetScanner.digit)
                {
                    return nil
                }
            }
            if has(s[i], ASCIITweetScanner.digit), letters == 0 {
                emit("<num>")
                return at
            }
            var shape = WordShape()
            shape.head = head
            endWord(start: start, wordStart: wordStart, end: wordStart + length, shape: shape)
            return at
        }

        /// Whether three consecutive bytes of `v` are equal, counting only bytes whose byte of `valid` is 0xFF.
        @inline(__always)
        static func hasTriple(_ v: UInt64, valid: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let pairs = valid & (valid >> 8)  // byte k: bytes k and k + 1 both valid
            let equal = ~(v ^ (v >> 8)) & pairs  // byte k: 0xFF where v[k] == v[k + 1]
            let full = equal & ((equal & (ones &* 0x7F)) &+ ones) & highs  // high bit where byte k is 0xFF
            return full & (full >> 8) != 0
        }

        /// `wordEnd` + `word` in one pass: finds the end of the word starting at `i`
        /// while writing it lower-cased with runs cut to two and noting whether it is
        /// a number (a digit first, no letter or `'`); returns the end.
        @inline(__always)
        mutating func scanWord(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
            let n = s.count
            let start = position
            var p = negating ? start + 4 : start
            let wordStart = p
            var previous: UInt8 = 0
            var run = 0
            var shape = WordShape()
            var seen: UInt8 = 0  // class bits of the word's bytes (a letter makes it no number)
            var apostrophe = false
            var j = i
            while j < n {
                let b = s[j]
                let c = classes[Int(b)]
                if c & ASCIITweetScanner.alnum == 0 {
                    // Apostrophes inside words (don't) and separators inside numbers (3.5, 10:30, 1,000).
                    guard j + 1 < n else { break }
                    if b == 0x27, has(s[j - 1], ASCIITweetScanner.letter), has(s[j + 1], ASCIITweetScanner.letter) {
                        apostrophe = true
                    } else if !(b == 0x2E || b == 0x2C || b == 0x3A) || !has(s[j - 1], ASCIITweetScanner.digit)
                        || !has(s[j + 1], ASCIITweetScanner.digit)
                    {
                        break
                    }
                }
                seen |= c
                // Lower-case (the upper bit, 8, shifted to 0x20) and keep at most two of a run,
                // without branches: double letters are common and would be mispredicted.
                let x = b | (c & ASCIITweetScanner.upper) << 2
                run = x == previous ? run &+ 1 : 1
                previous = x
                let keep = run <= 2
                out[p] = x
                p &+= keep ? 1 : 0
                shape.add(x, if: keep)
                j &+= 1
            }
            let numeric = has(s[i], ASCIITweetScanner.digit) && seen & ASCIITweetScanner.letter == 0 && !apostrophe
            if numeric {
                emit("<num>")
                return j
            }
            endWord(start: start, wordStart: wordStart, end: p, shape: shape)
            return j
        }

        /// Ends the word written at `out[wordStart..<end]` (after a `not_` placeholder
        /// at `start` when `wordStart > start`): a negator opens a negation scope (and is
        /// moved back over the placeholder), other words inside a scope get `not_`.
        @inline(__always)
        mutating func endWord(start: Int, wordStart: Int, end: Int, shape: WordShape) {
            var p = end
            if isNegator(shape, count: end - wordStart) {
                if wordStart != start {
                    for k in 0..<(p - wordStart) { out[start + k] = out[wordStart + k] }
                    p -= 4
                }
                negating = true
            } else if negating {
                out[start] = 0x6E
                out[start + 1] = 0x6F
                out[start + 2] = 0x74
                out[start + 3] = 0x5F
            }
            position = p
            finish()
        }

        /// `TweetTokenizer.wordEnd` for ASCII: alphanumerics, `'` between letters, `.` `,` `:` between digits.
        @inline(__always)
        func wordEnd(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
            let n = s.count
            var j = i + 1
            while j < n {
                let b = s[j]
                if has(b, ASCIITweetScanner.alnum) {
                    j += 1
                    continue
                }
                if j + 1 < n {
                    if b == 0x27, has(s[j - 1], ASCIITweetScanner.letter), has(s[j + 1], ASCIITweetScanner.letter) {
                        j += 2
                        continue
                    }
                    if b == 0x2E || b == 0x2C || b == 0x3A, has(s[j - 1], ASCIITweetScanner.digit),
                        has(s[j + 1], ASCIITweetScanner.digit)
                    {
                        j += 2
                        continue
                    }
                }
                break
            }
            return j
        }

        /// `TweetTokenizer.hashtag` for ASCII: splits at `_` and at lower → upper case changes.
        mutating func hashtag(_ s: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) {
            var start = lo
            var previousIsLower = false
            for k in lo..<hi {
                let b = s[k]
                if b == 0x5F {
                    if k > start { word(s, start, k) }
                    start = k + 1
                } else if k > start, previousIsLower, has(b, ASCIITweetScanner.upper) {
                    word(s, start, k)
                    start = k
                }
                previousIsLower = (b &- 0x61) < 26
            }
            if start < hi { word(s, start, hi) }
        }

        /// `TweetTokenizer.emitWord` for ASCII: `<num>` for numbers; else lower-cased with
        /// runs of a byte cut to two, then a negator opens a negation scope and other
        /// words inside one get `not_`. The word is written after a `not_` placeholder
        /// when a scope is open and moved back over it if it turns out to be a negator.
        @inline(__always)
        mutating func word(_ s: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) {
            if isNumber(s, lo, hi) {
                emit("<num>")
                return
            }
            let start = position
            var p = negating ? start + 4 : start
            let wordStart = p
            var previous: UInt8 = 0
            var run = 0
            var shape = WordShape()
            for k in lo..<hi {
                var b = s[k]
                if (b &- 0x41) < 26 { b += 32 }
                if b == previous {
                    run += 1
                } else {
                    run = 1
                    previous = b
                }
                if run <= 2 {
                    out[p] = b
                    p += 1
                    shape.add(b)
                }
            }
            endWord(start: start, wordStart: wordStart, end: p, shape: shape)
        }

        /// Whether `s[lo..<hi]` is a number: a digit, then digits and `.` `,` `:`.
        @inline(__always)
        func isNumber(_ s: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Bool {
            guard has(s[lo], ASCIITweetScanner.digit) else { return false }
            for k in (lo + 1)..<hi {
                let b = s[k]
                guard has(b, ASCIITweetScanner.digit) || b == 0x2E || b == 0x2C || b == 0x3A else { return false }
            }
            return true
        }

        /// Whether the written word (`count` bytes, summarised by `shape`) is a negator:
        /// ends in `n't`, or is a listed word. Works on registers only (reading back the
        /// bytes just written would stall on store forwarding).
        @inline(__always)
        func isNegator(_ shape: WordShape, count: Int) -> Bool {
            if count >= 3, shape.tail & 0xFF_FFFF == 0x6E_2774 { return true }
            guard count >= 2, count <= 8, negatorLengths[Int(shape.head & 0xFF)] & (1 << count) != 0 else {
                return false
            }
            let key = shape.head
            var i = ASCIITweetScanner.slot(key, mask: negatorMask)
            while true {
                let e = negators[i]
                if e == key { return true }
                if e == 0 { return false }
                i = (i + 1) & negatorMask
            }
        }
    }
}
