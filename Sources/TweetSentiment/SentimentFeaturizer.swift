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
/// Indices `0 ..< 2^hashBits` are n-gram buckets (value 1, binary presence);
/// indices from `2^hashBits` on are the `lexiconFeatureCount` lexicon features.
/// Complexity: O(tokens).
public struct SentimentFeaturizer: Sendable, Equatable {
    /// log2 of the number of n-gram buckets.
    public var hashBits: Int
    /// Whether adjacent-token bigrams are added.
    public var usesBigrams: Bool
    /// The lexicon behind the dense features.
    public var lexicon: SentimentLexicon
    /// The tokenizer (negation marking on).
    public var tokenizer: TweetTokenizer { TweetTokenizer() }

    /// Number of dense lexicon features.
    public static let lexiconFeatureCount = 8
    /// Scale applied to valences inside a negation scope (VADER's `N_SCALAR`).
    public static let negationScale = -0.74

    /// Creates a featurizer.
    public init(hashBits: Int = 18, usesBigrams: Bool = true, lexicon: SentimentLexicon) {
        self.hashBits = hashBits
        self.usesBigrams = usesBigrams
        self.lexicon = lexicon
    }

    /// Total feature dimension.
    public var dimension: Int { (1 << hashBits) + Self.lexiconFeatureCount }

    /// Lexicon scores of a token list (a `not_` prefix flips and damps a valence).
    public func lexiconScores(_ tokens: [String]) -> LexiconScores {
        var s = LexiconScores()
        var previousBase: String? = nil
        for token in tokens {
            if token == "!" { s.exclamations += 1; previousBase = nil; continue }
            let negated = token.hasPrefix(TweetTokenizer.negationPrefix)
            let base = negated ? String(token.dropFirst(TweetTokenizer.negationPrefix.count)) : token
            let scale = negated ? Self.negationScale : 1
            var hit = false
            if let v = lexicon.vader[base] {
                let x = v * scale
                if x > 0 { s.vaderPositive += x } else { s.vaderNegative -= x }
                hit = true
            }
            var a = lexicon.afinn[base]
            if let p = previousBase, let phrase = lexicon.afinnPhrases[p + " " + base] { a = phrase }
            if let a {
                let x = a * scale
                if x > 0 { s.afinnPositive += x } else { s.afinnNegative -= x }
                hit = true
            }
            if hit && negated { s.negatedHits += 1 }
            previousBase = base
        }
        return s
    }

    /// The feature vector of `tokens`.
    public func features(tokens: [String]) -> SparseFeatures {
        var idx: [Int32] = []
        idx.reserveCapacity(tokens.count * 2)
        var previous: UInt64? = nil
        for t in tokens {
            let h = FeatureHashing.unigram(t)
            idx.append(Int32(FeatureHashing.bucket(h, bits: hashBits)))
            if usesBigrams, let p = previous {
                idx.append(Int32(FeatureHashing.bucket(FeatureHashing.bigram(p, t), bits: hashBits)))
            }
            previous = h
        }
        idx.sort()
        var unique: [Int32] = []
        unique.reserveCapacity(idx.count + Self.lexiconFeatureCount)
        for i in idx where unique.last != i { unique.append(i) }
        var values = [Float](repeating: 1, count: unique.count)
        let s = lexiconScores(tokens)
        let dense: [Double] = [
            log1p(s.vaderPositive), log1p(s.vaderNegative),
            log1p(s.afinnPositive), log1p(s.afinnNegative),
            s.compound, Double(min(s.negatedHits, 3)) / 3,
            Double(min(s.exclamations, 3)) / 3,
            (s.vaderPositive == 0 && s.vaderNegative == 0 && s.afinnPositive == 0 && s.afinnNegative == 0) ? 1 : 0,
        ]
        let base = Int32(1 << hashBits)
        for (k, v) in dense.enumerated() where v != 0 {
            unique.append(base + Int32(k))
            values.append(Float(v))
        }
        return SparseFeatures(indices: unique, values: values)
    }

    /// The feature vector of `text`.
    public func features(_ text: String) -> SparseFeatures {
        features(tokens: tokenizer.tokenize(text))
    }
}

