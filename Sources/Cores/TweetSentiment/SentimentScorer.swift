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
///
/// `predictAll` stages a batch: each tweet is tokenized by `TweetTokenizer` into a padded
/// buffer, so its tokens are hashed and compared eight bytes at a time (same results bit for
/// bit, checked by `ScorerExactnessTests`).
/// Complexity per tweet: O(bytes) to tokenize and hash, O(bytes × max gram length)
/// for each token not yet in the memo.
public struct SentimentScorer {
    /// The model.
    public let model: SentimentModel
    var tokens = TweetTokens()
    var scratch = ScoringScratch()
    var memo: WordMemo
    /// The logistic-regression model, held by reference so the hot path borrows it
    /// instead of copying the enum payload (and retaining its arrays) per tweet.
    let logistic: LogisticModelBox?

    /// Default bound on remembered tokens: 98,304 (the bundled 120,000 tweets hold about 70,000 distinct tokens); the memo then takes 8 MiB, 2^17 slots of 64 bytes filled to at most 3/4.
    public static let defaultMemoCapacity = 3 << 15

    /// A scorer for `model` remembering up to `memoCapacity` distinct tokens
    /// (0 = none; when full, the memo starts over).
    public init(model: SentimentModel, memoCapacity: Int = SentimentScorer.defaultMemoCapacity) {
        self.model = model
        self.memo = WordMemo(capacity: memoCapacity)
        if case .logisticRegression(let m) = model { logistic = LogisticModelBox(m) } else { logistic = nil }
    }

    /// Classifies `text` (same result as `model.predict(text)`).
    public mutating func predict(_ text: String) -> SentimentPrediction {
        model.featurizer.tokenizer.tokenize(text, into: &tokens)
        return predict(tokens: tokens)
    }

    /// Classifies `texts` in order, calling `body` with each index and prediction (the same
    /// predictions as `predict(_:)` text by text). Logistic-regression models stage each
    /// text (tokenized into a padded buffer and hashed) before it is scored; results never
    /// depend on what the memo holds.
    public mutating func predictAll(_ texts: [String], _ body: (Int, SentimentPrediction) -> Void) {
        guard let box = logistic, box.model.hasScoringShape, !texts.isEmpty else {
            for (i, t) in texts.enumerated() { body(i, predict(t)) }
            return
        }
        var current = StagedTweet()
        var next = StagedTweet()
        stage(texts[0], into: &current, model: box)
        for i in texts.indices {
            if i + 1 < texts.count { stage(texts[i + 1], into: &next, model: box) }
            body(i, finish(current, model: box))
            swap(&current, &next)
        }
    }

    /// Classifies `count` texts given as valid UTF-8 bytes (`utf8(i)` for text `i`, valid while
    /// it is used) in order, calling `body` with each index and prediction: the same predictions
    /// and staging as `predictAll(_:_:)`.
    public mutating func predictAll(
        count: Int, utf8: (Int) -> UnsafeBufferPointer<UInt8>, _ body: (Int, SentimentPrediction) -> Void
    ) {
        guard let box = logistic, box.model.hasScoringShape, count > 0 else {
            for i in 0..<count { body(i, predict(String(decoding: utf8(i), as: UTF8.self))) }
            return
        }
        var current = StagedTweet()
        var next = StagedTweet()
        stage(utf8: utf8(0), into: &current, model: box)
        for i in 0..<count {
            if i + 1 < count { stage(utf8: utf8(i + 1), into: &next, model: box) }
            body(i, finish(current, model: box))
            swap(&current, &next)
        }
    }

    /// A tweet tokenized and hashed (pass 1), waiting to be scored; buffers only grow.
    struct StagedTweet {
        /// Token bytes (followed by at least 16 bytes of padding) and token ends.
        var bytes: [UInt8] = []
        var ends: [Int32] = []
        var hashes: [UInt64] = []
        var buckets: [Int32] = []
        var tokenCount = 0
        var byteCount = 0
        var bucketCount = 0

        /// Copies `tokens` in, padded.
        mutating func load(_ tokens: TweetTokens) {
            if bytes.count < tokens.bytes.count + 32 { bytes = [UInt8](repeating: 0, count: tokens.bytes.count + 32) }
            if ends.count < tokens.count { ends = [Int32](repeating: 0, count: tokens.count) }
            for k in tokens.bytes.indices { bytes[k] = tokens.bytes[k] }
            for k in tokens.ends.indices { ends[k] = tokens.ends[k] }
            tokenCount = tokens.count
            byteCount = tokens.bytes.count
        }
    }

    /// Tokenizes `text` into `t` with `TweetTokenizer`, then runs pass 1 (`hashTokens`) on it.
    mutating func stage(_ text: String, into t: inout StagedTweet, model box: LogisticModelBox) {
        box.model.featurizer.tokenizer.tokenize(text, into: &tokens)
        t.load(tokens)
        hash(&t, model: box)
    }

    /// `stage` for a text given as valid UTF-8 bytes.
    mutating func stage(utf8 raw: UnsafeBufferPointer<UInt8>, into t: inout StagedTweet, model box: LogisticModelBox) {
        stage(String(decoding: raw, as: UTF8.self), into: &t, model: box)
    }

    /// Pass 1 on a tokenized tweet: `hashTokens`.
    mutating func hash(_ t: inout StagedTweet, model box: LogisticModelBox) {
        if t.hashes.count < t.tokenCount { t.hashes = [UInt64](repeating: 0, count: max(t.tokenCount, 64)) }
        if t.buckets.count < 2 * t.tokenCount { t.buckets = [Int32](repeating: 0, count: max(2 * t.tokenCount, 128)) }
        let (count, bytes) = (t.tokenCount, t.byteCount)
        t.bucketCount = t.bytes.withUnsafeBufferPointer { all in
            t.ends.withUnsafeBufferPointer { ends in
                t.hashes.withUnsafeMutableBufferPointer { hashes in
                    t.buckets.withUnsafeMutableBufferPointer { buckets in
                        box.model.hashTokens(
                            UnsafeBufferPointer(rebasing: all[..<bytes]),
                            ends: UnsafeBufferPointer(rebasing: ends[..<count]),
                            padded: all.count - bytes >= 8, hashes: hashes.baseAddress!, buckets: buckets.baseAddress!)
                    }
                }
            }
        }
    }

    /// Passes 2 and 3 (`score`) on a staged tweet.
    mutating func finish(_ t: StagedTweet, model box: LogisticModelBox) -> SentimentPrediction {
        t.bytes.withUnsafeBufferPointer { all in
            t.ends.withUnsafeBufferPointer { ends in
                t.hashes.withUnsafeBufferPointer { hashes in
                    t.buckets.withUnsafeBufferPointer { buckets in
                        box.model.score(
                            UnsafeBufferPointer(rebasing: all[..<t.byteCount]),
                            ends: UnsafeBufferPointer(rebasing: ends[..<t.tokenCount]),
                            hashes: hashes, buckets: UnsafeBufferPointer(rebasing: buckets[..<t.bucketCount]),
                            padded: all.count - t.byteCount >= 16, memo: &memo, scratch: &scratch)
                    }
                }
            }
        }
    }

    /// Classifies already tokenized text.
    public mutating func predict(tokens: TweetTokens) -> SentimentPrediction {
        switch model {
        case .logisticRegression(let m):
            return m.predict(tokens, memo: &memo, scratch: &scratch)
        case .naiveBayes(let m):
            let (f, scores) = m.featurizer.analyze(tokens)
            return NaiveBayesClassifier.prediction(
                probabilities: m.probabilities(f), compound: m.lexiconScoreWeight == 0 ? 0 : scores.compound,
                weight: m.lexiconScoreWeight)
        }
    }
}

/// A logistic-regression model behind a reference (see `SentimentScorer.logistic`).
final class LogisticModelBox {
    let model: LogisticRegressionClassifier
    init(_ model: LogisticRegressionClassifier) { self.model = model }
}

/// What a logistic-regression model needs to know about one token, as the scoring
/// loop uses it (`WordMemo` stores it in a compact form).
struct WordEntry {
    /// FNV-1a of the token without its `not_` prefix (the lexicon key).
    var baseHash: UInt64
    /// Per-class sums of the weights of the token's character n-grams.
    var char0: Double = 0, char1: Double = 0, char2: Double = 0
    /// VADER and AFINN valences of the base (NaN: none).
    var vader: Double, afinn: Double
    /// Number of character n-grams.
    var gramCount: Int32 = 0
    /// Byte offset of the base (4 when negated, else 0).
    var baseStart: Int8
    var negated: Bool
    var isBang: Bool
    /// Whether the base has a lexicon entry, and whether it ends a two-word phrase.
    var hasLexicon: Bool, endsPhrase: Bool

    init(facts t: SentimentFeaturizer.TokenFacts, lexicon: LexiconHashTable.Entry?) {
        baseHash = t.baseHash
        vader = lexicon?.vader ?? .nan
        afinn = lexicon?.afinn ?? .nan
        hasLexicon = lexicon != nil
        endsPhrase = lexicon?.endsPhrase ?? false
        baseStart = Int8(t.baseStart)
        negated = t.negated
        isBang = t.isBang
    }
}

/// One slot of `WordMemo`: a `WordEntry` with its key, in 64 bytes (one cache line;
/// the table is 64-byte aligned). Valences live beside the table (`WordMemo.valences`),
/// as most tokens have none.
struct WordMemoSlot {
    /// The token's first 16 bytes, zero-padded (the whole key when `keyLength` ≤ 16).
    var key0: UInt64 = 0, key1: UInt64 = 0
    var char0: Double = 0, char1: Double = 0, char2: Double = 0
    var baseHash: UInt64 = 0
    /// Index of the valences in `WordMemo.valences` (when `hasLexicon`).
    var valence: Int32 = 0
    /// Where a key longer than 16 bytes is kept in the memo's arena.
    var keyStart: Int32 = 0
    /// Key length in bytes (0: empty slot).
    var keyLength: UInt16 = 0
    var gramCount: UInt16 = 0
    /// `negated`, `isBang`, `hasLexicon`, `endsPhrase` as bits 0–3.
    var flags: UInt8 = 0
}

/// The slots of a `WordMemo`, 64-byte aligned (shared by copies until one inserts).
final class WordMemoStorage {
    let slots: UnsafeMutablePointer<WordMemoSlot>
    let count: Int

    init(count: Int) {
        self.count = count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<WordMemoSlot>.stride, alignment: 64)
        slots = raw.initializeMemory(as: WordMemoSlot.self, repeating: WordMemoSlot(), count: count)
    }

    func copy() -> WordMemoStorage {
        let c = WordMemoStorage(count: count)
        c.slots.update(from: slots, count: count)
        return c
    }

    deinit {
        slots.deinitialize(count: count)
        UnsafeMutableRawPointer(slots).deallocate()
    }
}

/// A bounded open-addressing memo from token bytes to `WordEntry`, keyed by
/// the full bytes (the 64-bit hash only picks the slot), so two tokens never
/// share an entry. Keys up to 16 bytes sit inside the slot, so a hit usually
/// touches one cache line. Tokens longer than `maxKeyLength` are not remembered.
/// O(token length) per probe.
struct WordMemo {
    let capacity: Int
    private var storage: WordMemoStorage? = nil
    private var mask = 0
    private var filled = 0
    private var arena: [UInt8] = []
    /// VADER and AFINN valences of remembered lexicon tokens.
    private var valences: [(vader: Double, afinn: Double)] = []
    /// Longest token remembered (its n-gram count fits the slot's 16 bits).
    static let maxKeyLength = 4096

    init(capacity: Int) {
        self.capacity = max(capacity, 0)
    }

    /// The first 16 bytes of `token`, zero-padded, as two little-endian words.
    @inline(__always)
    static func inlineKey(_ token: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var k0: UInt64 = 0
        var k1: UInt64 = 0
        let n = min(token.count, 16)
        for k in 0..<min(n, 8) { k0 |= UInt64(token[k]) << (8 * UInt64(k)) }
        if n > 8 { for k in 8..<n { k1 |= UInt64(token[k]) << (8 * UInt64(k - 8)) } }
        return (k0, k1)
    }

    /// Home slot of `hash`.
    @inline(__always)
    func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask }

    /// `inlineKey` from two 8-byte loads, for a token followed by at least 16 readable bytes.
    @inline(__always)
    static func paddedKey(_ token: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        let p = UnsafeRawPointer(token.baseAddress!)
        let n = UInt64(min(token.count, 16))
        let k0 = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self)) & (n >= 8 ? UInt64.max : (1 << (8 * n)) &- 1)
        let k1 =
            n <= 8
            ? 0
            : UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                & (n == 16 ? UInt64.max : (1 << (8 * (n - 8))) &- 1)
        return (k0, k1)
    }

    /// The remembered entry of `token` (hash `hash`), if any. `padded`: at least 16 readable bytes follow `token`.
    @inline(__always)
    func find(_ token: UnsafeBufferPointer<UInt8>, hash: UInt64, padded: Bool = false) -> WordEntry? {
        findSlot(token, hash: hash, padded: padded).map { entry($0.pointee) }
    }

    /// The slot remembering `token` (hash `hash`), if any, valid until the next `insert`.
    /// `padded`: at least 16 readable bytes follow `token`.
    @inline(__always)
    func findSlot(_ token: UnsafeBufferPointer<UInt8>, hash: UInt64, padded: Bool = false) -> UnsafePointer<
        WordMemoSlot
    >? {
        guard let storage, token.count > 0, token.count <= Self.maxKeyLength else { return nil }
        let slots = storage.slots
        let (k0, k1) = padded ? Self.paddedKey(token) : Self.inlineKey(token)
        var i = home(hash)
        while true {
            let length = slots[i].keyLength
            if length == 0 { return nil }
            if Int(length) == token.count, slots[i].key0 == k0, slots[i].key1 == k1,
                token.count <= 16 || equalLongKey(slots[i], token)
            {
                return UnsafePointer(slots + i)
            }
            i = (i + 1) & mask
        }
    }

    /// The entry a slot holds.
    @inline(__always)
    func entry(_ e: WordMemoSlot) -> WordEntry {
        var w = WordEntry(
            facts: SentimentFeaturizer.TokenFacts(
                hash: 0, baseHash: e.baseHash, baseStart: e.flags & 1 != 0 ? 4 : 0,
                negated: e.flags & 1 != 0, isBang: e.flags & 2 != 0), lexicon: nil)
        w.char0 = e.char0
        w.char1 = e.char1
        w.char2 = e.char2
        w.gramCount = Int32(e.gramCount)
        w.hasLexicon = e.flags & 4 != 0
        w.endsPhrase = e.flags & 8 != 0
        if w.hasLexicon {
            let v = valences[Int(e.valence)]
            w.vader = v.vader
            w.afinn = v.afinn
        }
        return w
    }

    /// Remembers `entry` for `token` (hash `hash`, not remembered yet); when the memo is
    /// full it starts over first (results never depend on the memo's contents).
    mutating func insert(_ entry: WordEntry, for token: UnsafeBufferPointer<UInt8>, hash: UInt64) {
        guard capacity > 0, token.count > 0, token.count <= Self.maxKeyLength, entry.gramCount <= Int32(UInt16.max)
        else { return }
        if storage == nil {
            var size = 16
            while 3 * size < 4 * capacity { size <<= 1 }  // load factor at most 3/4
            storage = WordMemoStorage(count: size)
            mask = size - 1
        } else if !isKnownUniquelyReferenced(&storage!) {
            storage = storage!.copy()
        }
        let slots = storage!.slots
        if filled >= capacity {
            for k in 0...mask { slots[k].keyLength = 0 }
            filled = 0
            arena.removeAll(keepingCapacity: true)
            valences.removeAll(keepingCapacity: true)
        }
        var i = home(hash)
        while slots[i].keyLength != 0 { i = (i + 1) & mask }
        let (k0, k1) = Self.inlineKey(token)
        var e = WordMemoSlot(
            key0: k0, key1: k1, char0: entry.char0, char1: entry.char1, char2: entry.char2, baseHash: entry.baseHash)
        e.keyLength = UInt16(token.count)
        e.gramCount = UInt16(entry.gramCount)
        e.flags =
            (entry.negated ? 1 : 0) | (entry.isBang ? 2 : 0) | (entry.hasLexicon ? 4 : 0) | (entry.endsPhrase ? 8 : 0)
        if entry.hasLexicon {
            e.valence = Int32(valences.count)
            valences.append((entry.vader, entry.afinn))
        }
        if token.count > 16 {
            e.keyStart = Int32(arena.count)
            arena.append(contentsOf: token)
        }
        slots[i] = e
        filled += 1
    }

    private func equalLongKey(_ e: WordMemoSlot, _ token: UnsafeBufferPointer<UInt8>) -> Bool {
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
    /// the layout of `TweetTokens`, with the per-token memo, in three passes over the tokens:
    /// 1. hash every token and its bigram with the previous one (`hashTokens`);
    /// 2. look each token up in the memo (character n-gram sums, lexicon evidence), in token order;
    /// 3. sum the weights of the distinct word n-grams.
    /// Every sum is taken in the same order as `SentimentFeaturizer.analyze` + `probabilities` would
    /// group it, so memo hits and misses give the same bits.
    func predict(
        bytes all: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int32>,
        memo: inout WordMemo, scratch: inout ScoringScratch
    ) -> SentimentPrediction {
        guard hasScoringShape else {
            var tokens = TweetTokens()
            tokens.bytes = Array(all)
            tokens.ends = Array(ends)
            let (features, scores) = featurizer.analyze(tokens)
            return Self.prediction(
                probabilities: probabilities(features), compound: scores.compound, weight: lexiconScoreWeight)
        }
        let tokenCount = ends.count
        scratch.prepare(tokenCount: tokenCount)
        // The buffers leave `scratch` for the tweet (a swap: no copy, no reference counting).
        var hashArray: [UInt64] = []
        var bucketArray: [Int32] = []
        swap(&hashArray, &scratch.hashes)
        swap(&bucketArray, &scratch.buckets)
        defer {
            swap(&hashArray, &scratch.hashes)
            swap(&bucketArray, &scratch.buckets)
        }
        return hashArray.withUnsafeMutableBufferPointer { hashes in
            bucketArray.withUnsafeMutableBufferPointer { buckets in
                let bucketCount = hashTokens(
                    all, ends: ends, padded: false, hashes: hashes.baseAddress!, buckets: buckets.baseAddress!)
                return score(
                    all, ends: ends, hashes: UnsafeBufferPointer(hashes),
                    buckets: UnsafeBufferPointer(rebasing: buckets[..<bucketCount]),
                    padded: false, memo: &memo, scratch: &scratch)
            }
        }
    }

    /// Whether the weights and biases have the featurizer's shape (else `predict` goes through `analyze`).
    var hasScoringShape: Bool { weights.count == 3 * featurizer.dimension && bias.count == 3 }

    /// Pass 1 of `predict(bytes:ends:…)`: the hash of every token (`FeatureHashing.token`; `padded`:
    /// at least 8 readable bytes follow `all`) into `hashes` (one per token) and
    /// its word n-gram buckets into `buckets` (at most two per token), unigram then bigram with the
    /// previous token. Returns the number of buckets.
    func hashTokens(
        _ all: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int32>, padded: Bool,
        hashes: UnsafeMutablePointer<UInt64>,
        buckets: UnsafeMutablePointer<Int32>
    ) -> Int {
        let hashBits = featurizer.hashBits
        let usesBigrams = featurizer.usesBigrams
        var bucketCount = 0
        var previous: UInt64 = 0
        for k in 0..<ends.count {
            let b = UnsafeBufferPointer(rebasing: all[(k == 0 ? 0 : Int(ends[k - 1]))..<Int(ends[k])])
            // Eight bytes per step; with padding the last step is one masked load (same hash).
            let h = padded ? FeatureHashing.token(padded: b) : FeatureHashing.token(b)
            hashes[k] = h
            buckets[bucketCount] = Int32(truncatingIfNeeded: FeatureHashing.bucket(h, bits: hashBits))
            bucketCount += 1
            if usesBigrams, k > 0 {
                buckets[bucketCount] = Int32(
                    truncatingIfNeeded: FeatureHashing.bucket(FeatureHashing.pair(previous, h), bits: hashBits))
                bucketCount += 1
            }
            previous = h
        }
        return bucketCount
    }

    /// Passes 2 and 3 of `predict(bytes:ends:…)` given pass 1's `hashes` and `buckets`: memo
    /// look-ups in token order, then the distinct word n-grams, then the prediction.
    /// `padded`: at least 16 readable bytes follow every token.
    func score(
        _ all: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int32>, hashes: UnsafeBufferPointer<UInt64>,
        buckets words: UnsafeBufferPointer<Int32>, padded: Bool,
        memo: inout WordMemo, scratch: inout ScoringScratch
    ) -> SentimentPrediction {
        let normalizes = featurizer.normalizesGrams
        var s = LexiconScores()
        var z0 = bias[0]
        var z1 = bias[1]
        var z2 = bias[2]
        var c0 = 0.0
        var c1 = 0.0
        var c2 = 0.0
        var grams = 0
        weights.withUnsafeBufferPointer { W in
            // Pass 2: per-token memo entries (character n-gram sums, lexicon evidence), in token order.
            var previousBase: UInt64? = nil
            for k in 0..<ends.count {
                let b = UnsafeBufferPointer(rebasing: all[(k == 0 ? 0 : Int(ends[k - 1]))..<Int(ends[k])])
                // A remembered token without lexicon evidence (most of them) is read from its slot in place.
                let e: WordEntry
                if let slot = memo.findSlot(b, hash: hashes[k], padded: padded) {
                    if slot.pointee.flags & 6 == 0 {  // neither `isBang` nor `hasLexicon`
                        c0 += slot.pointee.char0
                        c1 += slot.pointee.char1
                        c2 += slot.pointee.char2
                        grams += Int(slot.pointee.gramCount)
                        // all `accumulateLexicon` does for a token without lexicon entry
                        previousBase = slot.pointee.baseHash
                        continue
                    }
                    e = memo.entry(slot.pointee)
                } else {
                    e = wordEntry(b, weights: W)
                    memo.insert(e, for: b, hash: hashes[k])
                }
                c0 += e.char0
                c1 += e.char1
                c2 += e.char2
                grams += Int(e.gramCount)
                if e.hasLexicon || e.isBang {
                    featurizer.accumulateLexicon(e, b, previousBase: &previousBase, into: &s)
                } else {
                    previousBase = e.baseHash  // all `accumulateLexicon` does for a token without lexicon entry
                }
            }

            // Pass 3: word n-grams: binary, de-duplicated, scaled to unit length.
            var w0 = 0.0
            var w1 = 0.0
            var w2 = 0.0
            var unique = 0
            scratch.forEachDistinct(words) { j in
                unique += 1
                let at = 3 * Int(j)
                w0 += Double(W[at])
                w1 += Double(W[at + 1])
                w2 += Double(W[at + 2])
            }
            if unique > 0 {
                let scale = normalizes ? 1 / Double(Float(unique).squareRoot()) : 1
                z0 += w0 * scale
                z1 += w1 * scale
                z2 += w2 * scale
            }
            if grams > 0 {
                let scale = normalizes ? 1 / Double(grams).squareRoot() : 1
                z0 += c0 * scale
                z1 += c1 * scale
                z2 += c2 * scale
            }
            let base = featurizer.lexiconBase
            SentimentFeaturizer.forEachDenseFeature(s) { k, v in
                let at = 3 * (base + k)
                let x = Float(v)
                z0 += Double(W[at] * x)
                z1 += Double(W[at + 1] * x)
                z2 += Double(W[at + 2] * x)
            }
        }
        return Self.prediction(
            probabilities: softmax3(z0, z1, z2), compound: lexiconScoreWeight == 0 ? 0 : s.compound,
            weight: lexiconScoreWeight)
    }

    /// The memo entry of token `b`: its hashes, lexicon entry, and the sums of its character n-grams' weights.
    func wordEntry(_ b: UnsafeBufferPointer<UInt8>, weights W: UnsafeBufferPointer<Float>) -> WordEntry {
        let f = featurizer
        let t = SentimentFeaturizer.TokenFacts(b)
        var e = WordEntry(facts: t, lexicon: f.table.lookup(t.baseHash))
        if f.charBits > 0 {
            let charOffset = 1 << f.hashBits
            var a0 = 0.0
            var a1 = 0.0
            var a2 = 0.0
            var n: Int32 = 0
            f.forEachCharGram(b, start: t.baseStart) { g in
                let at = 3 * (charOffset + FeatureHashing.bucket(g, bits: f.charBits))
                a0 += Double(W[at])
                a1 += Double(W[at + 1])
                a2 += Double(W[at + 2])
                n += 1
            }
            e.char0 = a0
            e.char1 = a1
            e.char2 = a2
            e.gramCount = n
        }
        return e
    }
}

/// Per-tweet scratch space: token hashes, the word n-gram buckets, and a small
/// stamped hash set that finds the distinct buckets in O(n) (sorting beyond its size).
/// Buffers only grow, and are used through unsafe pointers (one uniqueness check per tweet).
struct ScoringScratch {
    /// Token hashes (pass 1 of the scoring loop).
    var hashes: [UInt64] = []
    /// Word n-gram buckets (pass 1 of the scoring loop).
    var buckets: [Int32] = []
    private var keys = [Int32](repeating: 0, count: ScoringScratch.setSize)
    private var stamps = [UInt32](repeating: 0, count: ScoringScratch.setSize)
    private var stamp: UInt32 = 0
    static let setSize = 256

    init() {}

    /// Makes room for a tweet of `tokenCount` tokens (at most two word n-grams each).
    @inline(__always)
    mutating func prepare(tokenCount: Int) {
        if hashes.count < tokenCount { hashes = [UInt64](repeating: 0, count: max(tokenCount, 64)) }
        if buckets.count < 2 * tokenCount { buckets = [Int32](repeating: 0, count: max(2 * tokenCount, 128)) }
    }

    /// Calls `body` once per distinct value in `buckets`, in first-seen order
    /// (ascending when there are more than half the set's size).
    @inline(__always)
    mutating func forEachDistinct(_ buckets: UnsafeBufferPointer<Int32>, _ body: (Int32) -> Void) {
        guard buckets.count <= Self.setSize / 2 else {
            var sorted = Array(buckets)
            IndexSort.sort(&sorted)
            var last: Int32 = -1
            for j in sorted where j != last {
                last = j
                body(j)
            }
            return
        }
        stamp &+= 1
        if stamp == 0 {
            for k in stamps.indices { stamps[k] = 0 }
            stamp = 1
        }
        let stamp = stamp
        let mask = Self.setSize - 1
        keys.withUnsafeMutableBufferPointer { keys in
            stamps.withUnsafeMutableBufferPointer { stamps in
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
    }
}
