/// Classifies tweet after tweet with one model, reusing its buffers and
/// remembering what it worked out for each distinct token.
///
/// For logistic regression the featurizer's groups are additive over tokens
/// (word n-grams up to de-duplication, character n-gram counts, lexicon sums),
/// so the character n-gram share of the class scores (`Σ w[gram, class]` over a
/// token's 2–5-grams) and the token's lexicon entry are computed once per
/// distinct token and kept in a bounded memo (`WordMemo`): a tweet then costs
/// one memo probe per token and a few weight reads for its word n-grams instead
/// of hundreds of scattered character-gram weight reads. Memo hits and misses
/// give bit-identical results (entries are pure functions of the token's bytes,
/// summed in token order), so predictions do not depend on what was classified
/// before. A scorer is a value owned by one task; give each task its own.
/// Complexity per tweet: O(bytes) to tokenize and hash, O(bytes × max gram length)
/// for each token not yet in the memo.
public struct SentimentScorer {
    /// The model.
    public let model: SentimentModel
    var tokens = TweetTokens()
    var scratch = ScoringScratch()
    var memo: WordMemo
    /// The ASCII scanner and its output buffers (see `predictASCII`).
    let scanner = ASCIITweetScanner()
    var asciiBytes: [UInt8] = []
    var asciiEnds: [Int32] = []

    /// Default bound on remembered tokens (the bundled 120,000 tweets hold 69,820 distinct tokens; the memo then takes 24 MiB).
    public static let defaultMemoCapacity = 1 << 17

    /// A scorer for `model` remembering up to `memoCapacity` distinct tokens
    /// (0 = none; when full, the memo starts over).
    public init(model: SentimentModel, memoCapacity: Int = SentimentScorer.defaultMemoCapacity) {
        self.model = model
        self.memo = WordMemo(capacity: memoCapacity)
    }

    /// Classifies `text` (same result as `model.predict(text)`). Logistic-regression
    /// models take the ASCII fast path when the text (HTML references decoded) is ASCII.
    public mutating func predict(_ text: String) -> SentimentPrediction {
        if case .logisticRegression(let m) = model {
            var text = text
            let fast: SentimentPrediction? = text.withUTF8 { raw in
                guard raw.contains(0x26) else { return Self.isASCII(raw) ? Self.predictASCII(raw, model: m, scanner: scanner, out: &asciiBytes, ends: &asciiEnds, memo: &memo, scratch: &scratch) : nil }
                var decoded = tokens.scratch
                tokens.scratch = []
                defer { tokens.scratch = decoded }
                HTMLEntities.decode(raw, into: &decoded)
                return decoded.withUnsafeBufferPointer { Self.isASCII($0) ? Self.predictASCII($0, model: m, scanner: scanner, out: &asciiBytes, ends: &asciiEnds, memo: &memo, scratch: &scratch) : nil }
            }
            if let fast { return fast }
        }
        model.featurizer.tokenizer.tokenize(text, into: &tokens)
        return predict(tokens: tokens)
    }

    /// Whether every byte is below 0x80.
    @inline(__always)
    static func isASCII(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for b in s { any |= b }
        return any < 0x80
    }

    /// Classifies the ASCII text `s` (HTML references decoded): `scanner` tokenizes
    /// it into `out` and `ends` (grown as needed), then `m` scores those tokens.
    static func predictASCII(_ s: UnsafeBufferPointer<UInt8>, model m: LogisticRegressionClassifier, scanner: ASCIITweetScanner,
                             out: inout [UInt8], ends: inout [Int32], memo: inout WordMemo, scratch: inout ScoringScratch) -> SentimentPrediction {
        let byteCapacity = ASCIITweetScanner.outputCapacity(s.count)
        if out.count < byteCapacity { out = [UInt8](repeating: 0, count: byteCapacity) }
        if ends.count < s.count + 1 { ends = [Int32](repeating: 0, count: s.count + 1) }
        return out.withUnsafeMutableBufferPointer { out in
            ends.withUnsafeMutableBufferPointer { ends in
                let count = scanner.tokenize(s, out: out.baseAddress!, ends: ends.baseAddress!)
                let used = count == 0 ? 0 : Int(ends[count - 1])
                return m.predict(bytes: UnsafeBufferPointer(rebasing: out[..<used]), ends: UnsafeBufferPointer(rebasing: ends[..<count]),
                                 memo: &memo, scratch: &scratch)
            }
        }
    }

    /// The tokens the ASCII fast path makes of `text`, or nil when `text` does not take it (for tests).
    mutating func asciiTokens(_ text: String) -> [String]? {
        var text = text
        var decoded: [UInt8] = []
        text.withUTF8 { HTMLEntities.decode($0, into: &decoded) }
        guard decoded.withUnsafeBufferPointer(Self.isASCII) else { return nil }
        var out = [UInt8](repeating: 0, count: ASCIITweetScanner.outputCapacity(decoded.count))
        var ends = [Int32](repeating: 0, count: decoded.count + 1)
        let count = decoded.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in ends.withUnsafeMutableBufferPointer { e in scanner.tokenize(s, out: o.baseAddress!, ends: e.baseAddress!) } }
        }
        return (0..<count).map { k in String(decoding: out[(k == 0 ? 0 : Int(ends[k - 1])) ..< Int(ends[k])], as: UTF8.self) }
    }

    /// Classifies already tokenized text.
    public mutating func predict(tokens: TweetTokens) -> SentimentPrediction {
        switch model {
        case .logisticRegression(let m):
            return m.predict(tokens, memo: &memo, scratch: &scratch)
        case .naiveBayes(let m):
            let (f, scores) = m.featurizer.analyze(tokens)
            return NaiveBayesClassifier.prediction(probabilities: m.probabilities(f), compound: m.lexiconScoreWeight == 0 ? 0 : scores.compound,
                                                   weight: m.lexiconScoreWeight)
        }
    }
}

/// What a logistic-regression model needs to know about one token (96 bytes).
struct WordEntry {
    /// FNV-1a of the token's bytes.
    var hash: UInt64
    /// FNV-1a of the token without its `not_` prefix.
    var baseHash: UInt64
    /// The token's first 16 bytes, zero-padded (the whole key when `keyLength` ≤ 16).
    var key0: UInt64 = 0, key1: UInt64 = 0
    /// Per-class sums of the weights of the token's character n-grams.
    var char0: Double = 0, char1: Double = 0, char2: Double = 0
    /// VADER and AFINN valences of the base (NaN: none).
    var vader: Double, afinn: Double
    /// Number of character n-grams.
    var gramCount: Int32 = 0
    /// Word unigram bucket.
    var unigram: Int32
    /// Where a key longer than 16 bytes is kept in the memo's arena.
    var keyStart: Int32 = 0
    /// Key length in bytes (0: empty slot).
    var keyLength: Int32 = 0
    /// Byte offset of the base (4 when negated, else 0).
    var baseStart: Int8
    var negated: Bool
    var isBang: Bool
    /// Whether the base has a lexicon entry, and whether it ends a two-word phrase.
    var hasLexicon: Bool, endsPhrase: Bool

    init(facts t: SentimentFeaturizer.TokenFacts, lexicon: LexiconHashTable.Entry?, unigram: Int32) {
        hash = t.hash
        baseHash = t.baseHash
        vader = lexicon?.vader ?? .nan
        afinn = lexicon?.afinn ?? .nan
        hasLexicon = lexicon != nil
        endsPhrase = lexicon?.endsPhrase ?? false
        self.unigram = unigram
        baseStart = Int8(t.baseStart)
        negated = t.negated
        isBang = t.isBang
    }

    /// The lexicon entry as looked up (same values as `LexiconHashTable.lookup`).
    var lexicon: LexiconHashTable.Entry? {
        guard hasLexicon else { return nil }
        var e = LexiconHashTable.Entry()
        if !vader.isNaN { e.vader = vader }
        if !afinn.isNaN { e.afinn = afinn }
        e.endsPhrase = endsPhrase
        return e
    }

    /// The facts `accumulateLexicon` needs.
    var facts: SentimentFeaturizer.TokenFacts {
        SentimentFeaturizer.TokenFacts(hash: hash, baseHash: baseHash, baseStart: Int(baseStart), negated: negated, isBang: isBang)
    }
}

/// A bounded open-addressing memo from token bytes to `WordEntry`, keyed by
/// the full bytes (the 64-bit hash only picks the slot), so two tokens never
/// share an entry. Entries sit in the table itself and keys up to 16 bytes
/// inside the entry, so a hit usually touches one or two adjacent cache lines.
/// O(token length) per probe.
struct WordMemo {
    let capacity: Int
    private var table: [WordEntry] = []
    private var mask = 0
    private var filled = 0
    private var arena: [UInt8] = []

    init(capacity: Int) {
        self.capacity = max(capacity, 0)
    }

    /// The first 16 bytes of `token`, zero-padded, as two little-endian words.
    @inline(__always)
    static func inlineKey(_ token: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var k0: UInt64 = 0, k1: UInt64 = 0
        let n = min(token.count, 16)
        for k in 0..<min(n, 8) { k0 |= UInt64(token[k]) << (8 * UInt64(k)) }
        if n > 8 { for k in 8..<n { k1 |= UInt64(token[k]) << (8 * UInt64(k - 8)) } }
        return (k0, k1)
    }

    /// The entry of `token` (hash `hash`), computed by `make` when absent.
    @inline(__always)
    mutating func entry(_ token: UnsafeBufferPointer<UInt8>, hash: UInt64, make: () -> WordEntry) -> WordEntry {
        guard capacity > 0, token.count > 0 else { return make() }
        if table.isEmpty {
            var size = 16
            while size < 2 * capacity { size <<= 1 }
            let empty = WordEntry(facts: SentimentFeaturizer.TokenFacts(hash: 0, baseHash: 0, baseStart: 0, negated: false, isBang: false),
                                  lexicon: nil, unigram: 0)
            table = [WordEntry](repeating: empty, count: size)
            mask = size - 1
        }
        let (k0, k1) = Self.inlineKey(token)
        var i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        let found: WordEntry? = table.withUnsafeBufferPointer { T in
            while true {
                let e = T[i]
                if e.keyLength == 0 { return nil }
                if e.hash == hash, Int(e.keyLength) == token.count, e.key0 == k0, e.key1 == k1,
                   token.count <= 16 || equalLongKey(e, token) { return e }
                i = (i + 1) & mask
            }
        }
        if let found { return found }
        if filled >= capacity {
            // Full: start over (results never depend on the memo's contents).
            table.withUnsafeMutableBufferPointer { T in for k in T.indices { T[k].keyLength = 0 } }
            filled = 0
            arena.removeAll(keepingCapacity: true)
            i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        }
        var e = make()
        e.key0 = k0
        e.key1 = k1
        e.keyLength = Int32(token.count)
        if token.count > 16 {
            e.keyStart = Int32(arena.count)
            arena.append(contentsOf: token)
        }
        table[i] = e
        filled += 1
        return e
    }

    private func equalLongKey(_ e: WordEntry, _ token: UnsafeBufferPointer<UInt8>) -> Bool {
        arena.withUnsafeBufferPointer { a in
            let start = Int(e.keyStart)
            guard start + token.count <= a.count else { return false }
            for k in 0..<token.count where a[start + k] != token[k] { return false }
            return true
        }
    }
}

extension LogisticRegressionClassifier {
    /// Classifies `text` through the same arithmetic as `SentimentScorer` (without a memo).
    /// The score is `(1 − w)·(P(pos) − P(neg)) + w·compound` (see `SentimentClassifier`). O(bytes × max gram length).
    public func predict(_ text: String) -> SentimentPrediction {
        var tokens = TweetTokens()
        featurizer.tokenizer.tokenize(text, into: &tokens)
        var memo = WordMemo(capacity: 0)
        var scratch = ScoringScratch()
        return predict(tokens, memo: &memo, scratch: &scratch)
    }

    /// Classifies an already tokenized tweet (as `predict(_:)`).
    public func predict(tokens: [String]) -> SentimentPrediction {
        var memo = WordMemo(capacity: 0)
        var scratch = ScoringScratch()
        return predict(TweetTokens(tokens), memo: &memo, scratch: &scratch)
    }

    /// Classifies a tokenized tweet with the per-token memo (see `SentimentScorer`).
    func predict(_ tokens: TweetTokens, memo: inout WordMemo, scratch: inout ScoringScratch) -> SentimentPrediction {
        tokens.bytes.withUnsafeBufferPointer { bytes in
            tokens.ends.withUnsafeBufferPointer { ends in
                predict(bytes: bytes, ends: ends, memo: &memo, scratch: &scratch)
            }
        }
    }

    /// Classifies the tweet whose tokens are `bytes[ends[k-1] ..< ends[k]]` (the first from 0),
    /// the layout of `TweetTokens`, with the per-token memo.
    func predict(bytes all: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int32>,
                 memo: inout WordMemo, scratch: inout ScoringScratch) -> SentimentPrediction {
        let f = featurizer
        let d = f.dimension
        guard weights.count == 3 * d, bias.count == 3 else {
            var tokens = TweetTokens()
            tokens.bytes = Array(all)
            tokens.ends = Array(ends)
            let (features, scores) = f.analyze(tokens)
            return Self.prediction(probabilities: probabilities(features), compound: scores.compound, weight: lexiconScoreWeight)
        }
        var s = LexiconScores()
        var z0 = bias[0], z1 = bias[1], z2 = bias[2]
        var c0 = 0.0, c1 = 0.0, c2 = 0.0
        var grams = 0
        scratch.buckets.removeAll(keepingCapacity: true)
        let usesChars = f.charBits > 0
        let charOffset = 1 << f.hashBits
        weights.withUnsafeBufferPointer { W in
            do {
                var previous: UInt64? = nil
                var previousBase: UInt64? = nil
                for k in 0..<ends.count {
                    let b = UnsafeBufferPointer(rebasing: all[(k == 0 ? 0 : Int(ends[k - 1])) ..< Int(ends[k])])
                    // The token's hash and its bigram hash with the previous token in one pass
                    // (two independent multiply chains).
                    var h = FeatureHashing.offset
                    var g = FeatureHashing.bigramState(previous ?? 0)
                    for x in b {
                        h ^= UInt64(x); h = h &* FeatureHashing.prime
                        g ^= UInt64(x); g = g &* FeatureHashing.prime
                    }
                    let e = memo.entry(b, hash: h) {
                        let t = SentimentFeaturizer.TokenFacts(b)
                        var e = WordEntry(facts: t, lexicon: f.table.lookup(t.baseHash),
                                          unigram: Int32(FeatureHashing.bucket(t.hash, bits: f.hashBits)))
                        if usesChars {
                            var a0 = 0.0, a1 = 0.0, a2 = 0.0
                            var n: Int32 = 0
                            f.forEachCharGram(b, start: t.baseStart) { g in
                                let at = 3 * (charOffset + FeatureHashing.bucket(g, bits: f.charBits))
                                a0 += Double(W[at]); a1 += Double(W[at + 1]); a2 += Double(W[at + 2])
                                n += 1
                            }
                            e.char0 = a0; e.char1 = a1; e.char2 = a2; e.gramCount = n
                        }
                        return e
                    }
                    scratch.buckets.append(e.unigram)
                    if f.usesBigrams, previous != nil {
                        scratch.buckets.append(Int32(FeatureHashing.bucket(g, bits: f.hashBits)))
                    }
                    previous = h
                    c0 += e.char0; c1 += e.char1; c2 += e.char2
                    grams += Int(e.gramCount)
                    f.accumulateLexicon(e.facts, entry: e.lexicon, b, previousBase: &previousBase, into: &s)
                }
            }
            // Word n-grams: binary, de-duplicated, scaled to unit length.
            var w0 = 0.0, w1 = 0.0, w2 = 0.0
            var unique = 0
            scratch.forEachDistinctBucket { j in
                unique += 1
                let at = 3 * Int(j)
                w0 += Double(W[at]); w1 += Double(W[at + 1]); w2 += Double(W[at + 2])
            }
            if unique > 0 {
                let scale = f.normalizesGrams ? 1 / Double(Float(unique).squareRoot()) : 1
                z0 += w0 * scale; z1 += w1 * scale; z2 += w2 * scale
            }
            if grams > 0 {
                let scale = f.normalizesGrams ? 1 / Double(grams).squareRoot() : 1
                z0 += c0 * scale; z1 += c1 * scale; z2 += c2 * scale
            }
            let base = f.lexiconBase
            SentimentFeaturizer.forEachDenseFeature(s) { k, v in
                let at = 3 * (base + k)
                let x = Float(v)
                z0 += Double(W[at] * x); z1 += Double(W[at + 1] * x); z2 += Double(W[at + 2] * x)
            }
        }
        return Self.prediction(probabilities: softmax3(z0, z1, z2), compound: lexiconScoreWeight == 0 ? 0 : s.compound, weight: lexiconScoreWeight)
    }
}

/// Per-tweet scratch space: the word n-gram buckets and a small stamped hash set
/// that finds the distinct ones in O(n) (sorting beyond its size).
struct ScoringScratch {
    var buckets: [Int32] = []
    private var keys = [Int32](repeating: 0, count: ScoringScratch.setSize)
    private var stamps = [UInt32](repeating: 0, count: ScoringScratch.setSize)
    private var stamp: UInt32 = 0
    static let setSize = 256

    init() { buckets.reserveCapacity(128) }

    /// Calls `body` once per distinct value in `buckets`, in first-seen order
    /// (ascending when there are more than half the set's size).
    @inline(__always)
    mutating func forEachDistinctBucket(_ body: (Int32) -> Void) {
        guard buckets.count <= Self.setSize / 2 else {
            IndexSort.sort(&buckets)
            var last: Int32 = -1
            for j in buckets where j != last { last = j; body(j) }
            return
        }
        stamp &+= 1
        if stamp == 0 {
            for k in stamps.indices { stamps[k] = 0 }
            stamp = 1
        }
        let mask = Self.setSize - 1
        for j in buckets {
            var i = Int((UInt32(bitPattern: j) &* 0x9E37_79B1) >> 24) & mask
            while stamps[i] == stamp {
                if keys[i] == j { break }
                i = (i + 1) & mask
            }
            if stamps[i] == stamp { continue }
            stamps[i] = stamp
            keys[i] = j
            body(j)
        }
    }
}
