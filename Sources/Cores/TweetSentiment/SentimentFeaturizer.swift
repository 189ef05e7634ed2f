import Foundation

/// A sparse feature vector: sorted, unique indices with their values.
public struct SparseFeatures: Sendable, Equatable {
    /// Feature indices, ascending and unique.
    public var indices: [Int32]
    /// Values, parallel to `indices`.
    public var values: [Float]

    /// Creates a vector.
    public init(indices: [Int32], values: [Float]) {
        self.indices = indices
        self.values = values
    }
}

/// Lexicon evidence for one tweet, negation-aware.
public struct LexiconScores: Sendable, Equatable {
    /// Sum of positive VADER valences (≥ 0).
    public var vaderPositive: Double = 0
    /// Sum of |negative VADER valences| (≥ 0).
    public var vaderNegative: Double = 0
    /// Sum of positive AFINN valences (≥ 0).
    public var afinnPositive: Double = 0
    /// Sum of |negative AFINN valences| (≥ 0).
    public var afinnNegative: Double = 0
    /// Lexicon tokens found inside a negation scope.
    public var negatedHits: Int = 0
    /// Number of `!` tokens.
    public var exclamations: Int = 0

    /// VADER's normalised compound score of the valence sum, `s / √(s² + 15)`
    /// (Hutto & Gilbert 2014), in (−1, 1).
    public var compound: Double {
        let s = vaderPositive - vaderNegative
        return s / (s * s + 15).squareRoot()
    }
}

/// Turns a tweet into hashed unigram + bigram indicators plus a few dense lexicon
/// features (Mohammad, Kiritchenko & Zhu 2013, "NRC-Canada: Building the
/// State-of-the-Art in Sentiment Analysis of Tweets", use the same mix).
///
/// Indices `0 ..< 2^hashBits` are word n-gram buckets; when `charBits > 0`, the
/// next `2^charBits` indices are buckets of character n-grams (lengths
/// `charGramLengths`, over each word's UTF-8 bytes padded with a space on both
/// sides, the `not_` prefix left out — scikit-learn's `char_wb` analyser; they
/// catch misspellings, inflections and hashtag fragments, Kiritchenko, Zhu &
/// Mohammad 2014); the last `lexiconFeatureCount` indices are lexicon features.
/// Word n-gram indicators are binary; character n-grams are counts (a gram
/// met twice in the tweet counts twice), so a tweet's character features are
/// the sum of its words' — which lets `SentimentScorer` cache each word's share.
/// With `normalizesGrams` the word group is scaled to unit Euclidean length and
/// the character group by 1/√(number of character n-grams in the tweet), so
/// long tweets do not outweigh short ones. Complexity: O(tokens + bytes × max gram length).
public struct SentimentFeaturizer: Sendable, Equatable {
    /// log2 of the number of n-gram buckets.
    public var hashBits: Int
    /// Whether adjacent-token bigrams are added.
    public var usesBigrams: Bool
    /// log2 of the number of character n-gram buckets (0 = no character n-grams).
    public var charBits: Int
    /// Lengths of the character n-grams, in bytes.
    public var charGramLengths: ClosedRange<Int>
    /// Whether the word group is scaled to unit length and the character group by 1/√(gram count).
    public var normalizesGrams: Bool
    /// The lexicon behind the dense features.
    public var lexicon: SentimentLexicon
    /// The tokenizer (negation marking on).
    public var tokenizer: TweetTokenizer { TweetTokenizer() }

    /// Number of dense lexicon features.
    public static let lexiconFeatureCount = 8
    /// Scale applied to valences inside a negation scope (VADER's `N_SCALAR`).
    public static let negationScale = -0.74

    /// The lexicon keyed by FNV-1a hashes (derived from `lexicon`).
    let table: LexiconHashTable

    /// Creates a featurizer.
    public init(
        hashBits: Int = 18, usesBigrams: Bool = true, charBits: Int = 0, charGramLengths: ClosedRange<Int> = 2...5,
        normalizesGrams: Bool = false, lexicon: SentimentLexicon
    ) {
        self.hashBits = hashBits
        self.usesBigrams = usesBigrams
        self.charBits = charBits
        self.charGramLengths = charGramLengths
        self.normalizesGrams = normalizesGrams
        self.lexicon = lexicon
        self.table = LexiconHashTable(lexicon)
    }

    /// Total feature dimension.
    public var dimension: Int { lexiconBase + Self.lexiconFeatureCount }

    /// Index of the first lexicon feature.
    public var lexiconBase: Int { (1 << hashBits) + (charBits > 0 ? 1 << charBits : 0) }

    /// Lexicon scores of a token list (a `not_` prefix flips and damps a valence).
    public func lexiconScores(_ tokens: [String]) -> LexiconScores {
        analyze(tokens: tokens, wantsFeatures: false).scores
    }

    /// The feature vector of `tokens`.
    public func features(tokens: [String]) -> SparseFeatures {
        analyze(tokens: tokens, wantsFeatures: true).features
    }

    /// Features and lexicon scores of `String` tokens (see `analyze(_:wantsFeatures:)`).
    public func analyze(tokens: [String], wantsFeatures: Bool = true) -> (
        features: SparseFeatures, scores: LexiconScores
    ) {
        analyze(TweetTokens(tokens), wantsFeatures: wantsFeatures)
    }

    /// Features and lexicon scores in one pass over the tokens. Word n-grams are hashed
    /// with `FeatureHashing.token`/`pair`; lexicon look-ups go through `table`, keyed by
    /// FNV-1a of the token without its `not_` prefix.
    public func analyze(_ tokens: TweetTokens, wantsFeatures: Bool = true) -> (
        features: SparseFeatures, scores: LexiconScores
    ) {
        var s = LexiconScores()
        var idx: [Int32] = []
        var charIdx: [Int32] = []
        let usesChars = wantsFeatures && charBits > 0
        let charOffset = Int32(1 << hashBits)
        if wantsFeatures { idx.reserveCapacity(tokens.count * 2 + Self.lexiconFeatureCount) }
        if usesChars { charIdx.reserveCapacity(tokens.count * 24) }
        var previous: UInt64? = nil
        var previousBase: UInt64? = nil
        tokens.bytes.withUnsafeBufferPointer { all in
            for k in 0..<tokens.count {
                let b = UnsafeBufferPointer(rebasing: all[tokens.range(k)])
                let t = TokenFacts(b)
                if usesChars {
                    forEachCharGram(b, start: t.baseStart) {
                        charIdx.append(charOffset + Int32(FeatureHashing.bucket($0, bits: charBits)))
                    }
                }
                if wantsFeatures {
                    idx.append(Int32(FeatureHashing.bucket(t.hash, bits: hashBits)))
                    if usesBigrams, let p = previous {
                        idx.append(Int32(FeatureHashing.bucket(FeatureHashing.pair(p, t.hash), bits: hashBits)))
                    }
                }
                previous = t.hash
                accumulateLexicon(t, entry: table.lookup(t.baseHash), b, previousBase: &previousBase, into: &s)
            }
        }
        guard wantsFeatures else { return (SparseFeatures(indices: [], values: []), s) }
        IndexSort.sort(&idx)
        var unique: [Int32] = []
        unique.reserveCapacity(idx.count + charIdx.count + Self.lexiconFeatureCount)
        for i in idx where unique.last != i { unique.append(i) }
        let wordCount = unique.count
        var values = [Float](
            repeating: normalizesGrams && wordCount > 0 ? 1 / Float(wordCount).squareRoot() : 1, count: wordCount)
        if usesChars && !charIdx.isEmpty {
            // Counts (a gram twice in the tweet counts twice), scaled by 1/√(number of grams).
            IndexSort.sort(&charIdx)
            let scale = normalizesGrams ? 1 / Double(charIdx.count).squareRoot() : 1
            var run = 0
            for (k, i) in charIdx.enumerated() {
                run += 1
                if k + 1 == charIdx.count || charIdx[k + 1] != i {
                    unique.append(i)
                    values.append(Float(Double(run) * scale))
                    run = 0
                }
            }
        }
        let base = Int32(lexiconBase)
        Self.forEachDenseFeature(s) { k, v in
            unique.append(base + Int32(k))
            values.append(Float(v))
        }
        return (SparseFeatures(indices: unique, values: values), s)
    }

    /// Calls `body` with the index (0 ..< `lexiconFeatureCount`) and value of each
    /// non-zero dense lexicon feature of `s`, in index order.
    @inline(__always)
    static func forEachDenseFeature(_ s: LexiconScores, _ body: (Int, Double) -> Void) {
        let noHit = s.vaderPositive == 0 && s.vaderNegative == 0 && s.afinnPositive == 0 && s.afinnNegative == 0
        if s.vaderPositive != 0 { body(0, log1p(s.vaderPositive)) }
        if s.vaderNegative != 0 { body(1, log1p(s.vaderNegative)) }
        if s.afinnPositive != 0 { body(2, log1p(s.afinnPositive)) }
        if s.afinnNegative != 0 { body(3, log1p(s.afinnNegative)) }
        let compound = s.compound
        if compound != 0 { body(4, compound) }
        if s.negatedHits > 0 { body(5, Double(min(s.negatedHits, 3)) / 3) }
        if s.exclamations > 0 { body(6, Double(min(s.exclamations, 3)) / 3) }
        if noHit { body(7, 1) }
    }

    /// Hashes of a token needed by the features: its word n-gram hash (`FeatureHashing.token`),
    /// the FNV-1a hash of its base (without a `not_` prefix; the lexicon key), whether it is
    /// negated or a `!`.
    struct TokenFacts {
        var hash: UInt64
        var baseHash: UInt64
        var baseStart: Int
        var negated: Bool
        var isBang: Bool

        init(hash: UInt64, baseHash: UInt64, baseStart: Int, negated: Bool, isBang: Bool) {
            self.hash = hash
            self.baseHash = baseHash
            self.baseStart = baseStart
            self.negated = negated
            self.isBang = isBang
        }

        @inline(__always)
        init(_ b: UnsafeBufferPointer<UInt8>) {
            let prefixCount = 4
            negated = b.count > prefixCount && b[0] == 0x6E && b[1] == 0x6F && b[2] == 0x74 && b[3] == 0x5F
            isBang = b.count == 1 && b[0] == 0x21
            baseStart = negated ? prefixCount : 0
            hash = FeatureHashing.token(b)
            baseHash = FeatureHashing.fnv1a(negated ? UnsafeBufferPointer(rebasing: b[prefixCount...]) : b)
        }
    }

    /// Calls `body` with the hash of every character n-gram of the token `b`
    /// (from byte `start`, padded with a space on both sides; none for `<…>`
    /// placeholders), in order of start position, then length.
    @inline(__always)
    func forEachCharGram(_ b: UnsafeBufferPointer<UInt8>, start: Int, _ body: (UInt64) -> Void) {
        guard let first = b.first, first != 0x3C || b.count < 3 else { return }
        let minGram = max(charGramLengths.lowerBound, 1)
        let maxGram = max(charGramLengths.upperBound, minGram)
        let count = b.count - start + 2
        @inline(__always) func byte(_ k: Int) -> UInt8 { k == 0 || k == count - 1 ? 0x20 : b[start + k - 1] }
        let seed = (FeatureHashing.offset ^ 0x02) &* FeatureHashing.prime
        for i in 0..<count {
            var g = seed
            var j = i
            while j < count, j - i < maxGram {
                g ^= UInt64(byte(j))
                g = g &* FeatureHashing.prime
                j += 1
                if j - i >= minGram { body(g) }
            }
        }
    }

    /// Adds token `t`'s lexicon evidence (`entry`, the look-up of its base) to `s` (VADER and AFINN valences, flipped
    /// and damped when negated; AFINN two-word phrases with the previous base).
    @inline(__always)
    func accumulateLexicon(
        _ t: TokenFacts, entry: LexiconHashTable.Entry?, _ b: UnsafeBufferPointer<UInt8>,
        previousBase: inout UInt64?, into s: inout LexiconScores
    ) {
        accumulateLexicon(
            isBang: t.isBang, negated: t.negated, vader: entry?.vader, afinn: entry?.afinn,
            endsPhrase: entry?.endsPhrase == true, base: UnsafeBufferPointer(rebasing: b[t.baseStart...]),
            baseHash: t.baseHash, previousBase: &previousBase, into: &s)
    }

    /// `accumulateLexicon` for a memo entry (the same arithmetic, without building the
    /// optional `LexiconHashTable.Entry` again).
    @inline(__always)
    func accumulateLexicon(
        _ e: WordEntry, _ b: UnsafeBufferPointer<UInt8>, previousBase: inout UInt64?, into s: inout LexiconScores
    ) {
        accumulateLexicon(
            isBang: e.isBang, negated: e.negated, vader: e.hasLexicon && !e.vader.isNaN ? e.vader : nil,
            afinn: e.hasLexicon && !e.afinn.isNaN ? e.afinn : nil, endsPhrase: e.hasLexicon && e.endsPhrase,
            base: UnsafeBufferPointer(rebasing: b[Int(e.baseStart)...]), baseHash: e.baseHash,
            previousBase: &previousBase, into: &s)
    }

    /// The shared arithmetic of both `accumulateLexicon`s: `base` is the token without its `not_` prefix.
    @inline(__always)
    private func accumulateLexicon(
        isBang: Bool, negated: Bool, vader: Double?, afinn: Double?, endsPhrase: Bool,
        base: UnsafeBufferPointer<UInt8>, baseHash: UInt64,
        previousBase: inout UInt64?, into s: inout LexiconScores
    ) {
        if isBang {
            s.exclamations += 1
            previousBase = nil
            return
        }
        let scale = negated ? Self.negationScale : 1
        var hit = false
        if let v = vader {
            let x = v * scale
            if x > 0 { s.vaderPositive += x } else { s.vaderNegative -= x }
            hit = true
        }
        var a = afinn
        if let p = previousBase, endsPhrase {
            let phraseHash = FeatureHashing.fnv1a(base, state: FeatureHashing.bigramState(p))
            if let phrase = table.lookup(phraseHash)?.phrase { a = phrase }
        }
        if let a {
            let x = a * scale
            if x > 0 { s.afinnPositive += x } else { s.afinnNegative -= x }
            hit = true
        }
        if hit && negated { s.negatedHits += 1 }
        previousBase = baseHash
    }

    /// The feature vector of `text`.
    public func features(_ text: String) -> SparseFeatures {
        var tokens = TweetTokens()
        tokenizer.tokenize(text, into: &tokens)
        return analyze(tokens).features
    }
}

/// Open-addressing table from 64-bit FNV-1a token hashes to lexicon valences,
/// so a look-up costs one multiply-free probe instead of hashing a `String`.
/// Two different tokens with equal 64-bit hashes would share an entry; with
/// ~11,000 keys the chance is about 10⁻¹¹. O(1) expected per look-up.
struct LexiconHashTable: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var vader: Double?
        var afinn: Double?
        var phrase: Double?
        /// Whether the token is the second word of some two-word phrase.
        var endsPhrase = false
    }
    private var keys: [UInt64]
    private var entries: [Entry]
    private var used: [Bool]
    private let mask: Int
    /// Whether any two-token phrase is present.
    let hasPhrases: Bool

    init(_ lexicon: SentimentLexicon) {
        var all: [UInt64: Entry] = [:]
        for (k, v) in lexicon.vader { all[FeatureHashing.unigram(k), default: Entry()].vader = v }
        for (k, v) in lexicon.afinn { all[FeatureHashing.unigram(k), default: Entry()].afinn = v }
        for (k, v) in lexicon.afinnPhrases {
            let parts = k.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let h = FeatureHashing.bigram(FeatureHashing.unigram(parts[0]), parts[1])
            all[h, default: Entry()].phrase = v
            all[FeatureHashing.unigram(parts[1]), default: Entry()].endsPhrase = true
        }
        var size = 16
        while size < all.count * 2 { size <<= 1 }
        mask = size - 1
        keys = [UInt64](repeating: 0, count: size)
        entries = [Entry](repeating: Entry(), count: size)
        used = [Bool](repeating: false, count: size)
        hasPhrases = !lexicon.afinnPhrases.isEmpty
        for k in all.keys.sorted() {
            var i = Int(truncatingIfNeeded: (k ^ (k >> 32))) & mask
            while used[i] { i = (i + 1) & mask }
            used[i] = true
            keys[i] = k
            entries[i] = all[k] ?? Entry()
        }
    }

    @inline(__always)
    func lookup(_ key: UInt64) -> Entry? {
        var i = Int(truncatingIfNeeded: (key ^ (key >> 32))) & mask
        while used[i] {
            if keys[i] == key { return entries[i] }
            i = (i + 1) & mask
        }
        return nil
    }
}
