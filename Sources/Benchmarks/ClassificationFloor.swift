#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The least work a hashed word n-gram linear classifier does per tweet, to time beside
/// `SentimentScorer` on the same tweets (`fieldtest-bench classify` prints both), so a
/// throughput goal can be judged against what the machine allows.
///
/// Per tweet: the UTF-8 bytes copied into a buffer with eight bytes of slack; words found eight bytes at a
/// time (ASCII letters and digits, case folded; no other tokenizer rule: no URLs, mentions,
/// emoticons, negation or elongation); a 64-bit hash per word; one probe of an
/// open-addressing table of `memoSlots` 64-byte slots per word (what a per-token memo costs);
/// with `bigrams`, one read of a three-class weight row per word bigram from a table of 2^18
/// rows; a three-class softmax. No de-duplication and no lexicon features. This is not a
/// classifier: the weights are fixed pseudo-random numbers, and the result is only a checksum.
///
/// `Layout.compact` times the same work on tables a model could be laid out in to fit the
/// CPU caches: 8-byte memo slots (a 32-bit fingerprint and three 8-bit weights: what a token
/// needs once its unigram and character-gram shares are folded into one quantised row) and
/// 2^16 bigram rows of three 8-bit weights, summed in integers. Comparing the two layouts shows
/// how much of the floor is memory rather than instructions.
public struct ClassificationFloor {
    /// How the kernel's tables are laid out.
    public enum Layout: Sendable {
        /// The shipped model's layout: 64-byte memo slots of `Double`s, 2^18 `Float` rows.
        case wide
        /// Cache-sized tables: 8-byte memo slots and 2^16 rows of 8-bit weights.
        case compact
    }

    /// Whether each word bigram reads a weight row (the shipped model has word bigrams).
    public var bigrams: Bool
    /// The tables' layout.
    public let layout: Layout
    /// Rows of the compact layout's bigram table (three 8-bit weights in a `UInt32` each).
    public static let compactRows = 1 << 16
    /// Slots in the per-word table (a power of two; 64 bytes each).
    public static let memoSlots = 1 << 17
    /// Rows of the bigram weight table (three `Float`s each).
    public static let weightRows = 1 << 18

    /// A slot of a kernel's memo: a key derived from the word's hash (0: empty) and made-up weights.
    protocol MemoSlot {
        associatedtype Key: FixedWidthInteger
        var key: Key { get set }
        /// The key of the word whose hash is `h` (never 0).
        static func key(_ h: UInt64) -> Key
        /// The slot of the word whose hash is `h`.
        init(word h: UInt64)
    }

    /// One 64-byte slot: the word's hash (0: empty) and what a memo would keep for it.
    struct Slot: MemoSlot {
        var key: UInt64 = 0
        var class0 = 0.0, class1 = 0.0, class2 = 0.0, extra0 = 0.0, extra1 = 0.0, extra2 = 0.0, extra3 = 0.0

        init() {}

        static func key(_ h: UInt64) -> UInt64 { h }

        init(word h: UInt64) {
            let x = Double(h >> 11) / Double(1 << 53)
            key = h
            class0 = x - 0.5
            class1 = 0.5 - x
            class2 = x * x - 0.25
        }
    }

    /// One 8-byte slot of the compact layout: a 32-bit fingerprint of the word (0: empty) and three weights.
    struct CompactSlot: MemoSlot {
        var key: UInt32 = 0
        var class0: Int8 = 0, class1: Int8 = 0, class2: Int8 = 0, flags: UInt8 = 0

        init() {}

        static func key(_ h: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: h >> 32) | 1 }

        init(word h: UInt64) {
            key = Self.key(h)
            class0 = Int8(truncatingIfNeeded: h >> 3)
            class1 = Int8(truncatingIfNeeded: h >> 13)
            class2 = Int8(truncatingIfNeeded: h >> 23)
        }
    }

    /// Index of the slot of the word whose hash is `h` in the open-addressing table `slots` (a power
    /// of two long), filling one when the word is new; at 3/4 full the table starts over first
    /// (as `SentimentScorer`'s memo does).
    @inline(__always)
    static func slot<S: MemoSlot>(for h: UInt64, in slots: UnsafeMutableBufferPointer<S>, filled: inout Int) -> Int {
        let mask = slots.count - 1
        let key = S.key(h)
        var j = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
        while slots[j].key != key && slots[j].key != 0 { j = (j + 1) & mask }
        if slots[j].key == 0 {
            if filled >= 3 * (mask + 1) / 4 {
                for k in 0...mask { slots[k].key = 0 }
                filled = 0
                j = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
            }
            filled += 1
            slots[j] = S(word: h)
        }
        return j
    }

    private var slots: [Slot]
    private var compactSlots: [CompactSlot]
    /// Occupied slots; at 3/4 the table starts over (as `SentimentScorer`'s memo does).
    private var filled = 0
    private var weights: [Float]
    private var compactWeights: [UInt32]
    private var buffer: [UInt8]

    /// A floor kernel; `bigrams` and `layout` as the properties.
    public init(bigrams: Bool, layout: Layout = .wide) {
        self.bigrams = bigrams
        self.layout = layout
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        switch layout {
        case .wide:
            slots = [Slot](repeating: Slot(), count: Self.memoSlots)
            weights = (0..<(3 * Self.weightRows)).map { _ in
                Float(Int64(bitPattern: next() >> 40) - (1 << 23)) / Float(1 << 23)
            }
            compactSlots = []
            compactWeights = []
        case .compact:
            slots = []
            weights = []
            compactSlots = [CompactSlot](repeating: CompactSlot(), count: Self.memoSlots)
            compactWeights = (0..<Self.compactRows).map { _ in UInt32(truncatingIfNeeded: next() >> 40) }
        }
        buffer = [UInt8](repeating: 0, count: 1024)  // grown for longer texts
    }

    /// High bit of each byte of `w` that is an ASCII letter or digit.
    @inline(__always)
    static func wordBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let low = w & ~highs  // no carry crosses a byte below
        let folded = low | (ones &* 0x20)
        let letter = (folded &+ ones &* 0x1F) & ~(folded &+ ones &* 0x05)
        let digit = (low &+ ones &* 0x50) & ~(low &+ ones &* 0x46)
        return (letter | digit) & ~w & highs  // bytes from 0x80 up are never word bytes
    }

    /// The words of `text` as the kernel finds them, lower-cased (for tests).
    public static func words(_ text: String) -> [String] {
        var result: [String] = []
        var current: [UInt8] = []
        for b in text.utf8 {
            let isWord = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || (b >= 0x30 && b <= 0x39)
            if isWord {
                current.append((b >= 0x41 && b <= 0x5A) ? b | 0x20 : b)
            } else if !current.isEmpty {
                result.append(String(decoding: current, as: UTF8.self))
                current = []
            }
        }
        if !current.isEmpty { result.append(String(decoding: current, as: UTF8.self)) }
        return result
    }

    /// Runs the kernel over `tweets`; returns the number of words seen and a checksum of the scores.
    public mutating func run(_ tweets: [String]) -> (words: Int, checksum: Double) {
        var total = 0.0
        var words = 0
        let bigrams = bigrams
        for tweet in tweets {
            let n = tweet.utf8.count
            if n == 0 { continue }
            if buffer.count < n + 8 { buffer = [UInt8](repeating: 0, count: 2 * n + 8) }
            let copied: Void? = tweet.utf8.withContiguousStorageIfAvailable { s in
                buffer.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: s.baseAddress!, count: n) }
            }
            if copied == nil { buffer.replaceSubrange(0..<n, with: tweet.utf8.prefix(n)) }
            let (score, count) =
                layout == .wide ? score(count: n, bigrams: bigrams) : compactScore(count: n, bigrams: bigrams)
            total += score
            words += count
        }
        return (words, total)
    }

    /// Calls `body` with the 64-bit hash (odd, so never 0) of each word of `base[0..<n]`, which
    /// must be followed by 8 zero bytes: words found and hashed eight bytes at a time.
    @inline(__always)
    static func forEachWordHash(_ base: UnsafeRawPointer, count n: Int, _ body: (UInt64) -> Void) {
        var i = 0
        while i < n {
            let start = wordBytes(base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            if start == 0 {
                i += 8
                continue
            }
            i += start.trailingZeroBitCount >> 3
            if i >= n { break }
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15
            while true {
                let v = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let other = ~wordBytes(v) & 0x8080_8080_8080_8080
                let length = other == 0 ? 8 : other.trailingZeroBitCount >> 3
                let keep: UInt64 = length == 8 ? .max : (1 << (8 * UInt64(length))) &- 1
                h = (h ^ ((v | 0x2020_2020_2020_2020) & keep)) &* 0xFF51_AFD7_ED55_8CCD
                i += length
                if length < 8 { break }
            }
            h ^= h >> 32
            body(h | 1)
        }
    }

    /// The softmax score `P(2) − P(0)` of three class sums.
    @inline(__always)
    static func softmaxScore(_ z0: Double, _ z1: Double, _ z2: Double) -> Double {
        let m = max(z0, max(z1, z2))
        let a = exp(z0 - m)
        let b = exp(z1 - m)
        let c = exp(z2 - m)
        return (c - a) / (a + b + c)
    }

    /// The compact-layout kernel on `buffer[0..<count]`: the same words and probes, on 8-byte slots
    /// and 8-bit weights summed in `Int32`s (scaled by 1/64 before the softmax).
    private mutating func compactScore(count n: Int, bigrams: Bool) -> (Double, Int) {
        var filled = self.filled
        defer { self.filled = filled }
        return buffer.withUnsafeMutableBufferPointer { buf in
            compactSlots.withUnsafeMutableBufferPointer { slots in
                compactWeights.withUnsafeBufferPointer { W in
                    (buf.baseAddress! + n).update(repeating: 0, count: 8)
                    let rowMask = Self.compactRows - 1
                    var z0: Int32 = 0
                    var z1: Int32 = 0
                    var z2: Int32 = 0
                    var previous: UInt64 = 0
                    var words = 0
                    Self.forEachWordHash(UnsafeRawPointer(buf.baseAddress!), count: n) { h in
                        words += 1
                        let j = Self.slot(for: h, in: slots, filled: &filled)
                        z0 &+= Int32(slots[j].class0)
                        z1 &+= Int32(slots[j].class1)
                        z2 &+= Int32(slots[j].class2)
                        if bigrams, words > 1 {
                            let p = (previous &* 0x9E37_79B9_7F4A_7C15) ^ h
                            let r = W[Int(truncatingIfNeeded: p ^ (p >> 31)) & rowMask]
                            z0 &+= Int32(Int8(truncatingIfNeeded: r))
                            z1 &+= Int32(Int8(truncatingIfNeeded: r >> 8))
                            z2 &+= Int32(Int8(truncatingIfNeeded: r >> 16))
                        }
                        previous = h
                    }
                    return (Self.softmaxScore(Double(z0) / 64, Double(z1) / 64, Double(z2) / 64), words)
                }
            }
        }
    }

    /// The kernel on `buffer[0..<count]`.
    private mutating func score(count n: Int, bigrams: Bool) -> (Double, Int) {
        var filled = self.filled
        defer { self.filled = filled }
        return buffer.withUnsafeMutableBufferPointer { buf in
            slots.withUnsafeMutableBufferPointer { slots in
                weights.withUnsafeBufferPointer { W in
                    (buf.baseAddress! + n).update(repeating: 0, count: 8)
                    let rowMask = UInt64(Self.weightRows - 1)
                    var z0 = 0.0
                    var z1 = 0.0
                    var z2 = 0.0
                    var previous: UInt64 = 0
                    var words = 0
                    Self.forEachWordHash(UnsafeRawPointer(buf.baseAddress!), count: n) { h in
                        words += 1
                        let j = Self.slot(for: h, in: slots, filled: &filled)
                        z0 += slots[j].class0
                        z1 += slots[j].class1
                        z2 += slots[j].class2
                        if bigrams, words > 1 {
                            let p = (previous &* 0x9E37_79B9_7F4A_7C15) ^ h
                            let at = 3 * Int(truncatingIfNeeded: (p ^ (p >> 31)) & rowMask)
                            z0 += Double(W[at])
                            z1 += Double(W[at + 1])
                            z2 += Double(W[at + 2])
                        }
                        previous = h
                    }
                    return (Self.softmaxScore(z0, z1, z2), words)
                }
            }
        }
    }
}
