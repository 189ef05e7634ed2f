import FieldtestData

/// Where a training example came from; sources get their own weights and their
/// own development-split report.
public enum CorpusSource: String, Sendable, CaseIterable, Codable {
    /// Sentiment140 distant-supervision tweets (positive/negative only).
    case sentiment140
    /// Crowdflower US airline tweets (three classes).
    case airline
    /// TweetEval / SemEval-2017 Task 4A tweets (three classes).
    case tweetEval
    /// SemEval 2013–2016 Twitter message-polarity tweets with status IDs (three classes;
    /// `TrainingExample.group` is the year each was posted).
    case semEval
    /// VADER ground-truth tweets (mean rating mapped to a class).
    case vader
    /// A user-supplied `text,label` CSV.
    case labelledCSV
}

/// One training or evaluation example.
public struct TrainingExample: Sendable, Equatable {
    /// The tweet text.
    public var text: String
    /// The class.
    public var label: SentimentLabel
    /// The source corpus.
    public var source: CorpusSource
    /// The human mean rating (−4 … 4) for VADER tweets, else nil.
    public var meanRating: Double?
    /// A part of the source that can be held out on its own (`HeldOutPart`): for SemEval
    /// tweets the UTC year they were posted (e.g. `"2015"`), else nil.
    public var group: String?

    /// Creates an example.
    public init(
        text: String, label: SentimentLabel, source: CorpusSource, meanRating: Double? = nil, group: String? = nil
    ) {
        self.text = text
        self.label = label
        self.source = source
        self.meanRating = meanRating
        self.group = group
    }
}

/// A part of the training inputs held out as a development set that does not come from a
/// random split of the training sources: a whole source (`vader`), or one group of a source
/// (`semEval:2015`, the SemEval tweets posted in 2015). Written `source[:group]`.
public struct HeldOutPart: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The source held out.
    public var source: CorpusSource
    /// The group of the source held out (nil: the whole source).
    public var group: String?

    /// Creates a part.
    public init(source: CorpusSource, group: String? = nil) {
        self.source = source
        self.group = group
    }

    /// Parses `source` or `source:group`; nil when the source is unknown or the group empty.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let source = CorpusSource(rawValue: parts[0]) else { return nil }
        if parts.count == 2, parts[1].isEmpty { return nil }
        self.init(source: source, group: parts.count == 2 ? parts[1] : nil)
    }

    /// `source` or `source:group`.
    public var description: String { group.map { "\(source.rawValue):\($0)" } ?? source.rawValue }

    /// Whether `example` belongs to the part.
    public func contains(_ example: TrainingExample) -> Bool {
        example.source == source && (group == nil || example.group == group)
    }
}

/// A fixed share of labelled tweets kept out of training so that they can always be
/// scored as unseen: a tweet belongs to it when the 64-bit FNV-1a hash of its text's
/// UTF-8 bytes is divisible by 10 (about one tweet in ten, chosen by content, not by
/// position or seed — the same tweets in any file, order or run; a text repeated in a
/// file is on one side only). The default training configuration reserves the share of
/// the airline tweets, which the miCity scenarios replay, so their MIC-14 accuracy is
/// measured on tweets the shipped model never saw.
public enum EvaluationShare {
    /// One tweet in `modulus` (by text hash) is reserved.
    public static let modulus: UInt64 = 10

    /// Whether `text` is in the reserved share.
    public static func contains(_ text: String) -> Bool {
        FeatureHashing.fnv1a(text) % modulus == 0
    }
}

/// A set of labelled examples from several sources.
public struct TrainingCorpus: Sendable, Equatable {
    /// The examples, in the order they were added.
    public var examples: [TrainingExample]

    /// Creates a corpus.
    public init(examples: [TrainingExample] = []) { self.examples = examples }

    /// Adds labelled tweets from `source`.
    public mutating func add(_ tweets: [LabelledTweet], source: CorpusSource) {
        examples += tweets.map { TrainingExample(text: $0.text, label: $0.label, source: source) }
    }

    /// Adds VADER tweets, classed by `VaderTweet.label(neutralThreshold:)`.
    public mutating func add(vader tweets: [VaderTweet], neutralThreshold: Double = VaderTweet.neutralThreshold) {
        examples += tweets.map {
            TrainingExample(
                text: $0.text, label: $0.label(neutralThreshold: neutralThreshold), source: .vader,
                meanRating: $0.meanRating)
        }
    }

    /// Adds SemEval tweets, grouped by the year they were posted (`SemEvalTweet.postedYear`;
    /// tweets with pre-2010 sequential IDs get no group).
    public mutating func add(semEval tweets: [SemEvalTweet]) {
        examples += tweets.map {
            TrainingExample(text: $0.text, label: $0.label, source: .semEval, group: $0.postedYear.map(String.init))
        }
    }

    /// The corpus without `part` (`training`), and `part` (`heldOut`). Any training tweet whose
    /// text matches a held-out one (`duplicateKey`: the same tokens, mentions and URLs ignored)
    /// is dropped too, so that a tweet another source repeats (the TweetEval validation tweets
    /// are also SemEval 2016 tweets) is not trained on and then scored as unseen.
    /// Complexity: O(total text length).
    public func holdingOut(_ part: HeldOutPart) -> (
        training: TrainingCorpus, heldOut: TrainingCorpus, droppedDuplicates: Int
    ) {
        var train = TrainingCorpus()
        var held = TrainingCorpus()
        for e in examples {
            if part.contains(e) { held.examples.append(e) } else { train.examples.append(e) }
        }
        let tokenizer = TweetTokenizer(marksNegation: false)
        let heldKeys = Set(held.examples.map { Self.duplicateKey($0.text, tokenizer: tokenizer) })
        let before = train.examples.count
        train.examples.removeAll { heldKeys.contains(Self.duplicateKey($0.text, tokenizer: tokenizer)) }
        return (train, held, before - train.examples.count)
    }

    /// The text as the tokenizer reads it, without mentions and URLs (which some
    /// redistributions of the same tweets replace or drop), tokens joined by spaces.
    static func duplicateKey(_ text: String, tokenizer: TweetTokenizer) -> String {
        tokenizer.tokenize(text).filter { $0 != TweetTokenizer.urlToken && $0 != TweetTokenizer.userToken }.joined(
            separator: " ")
    }

    /// The corpus without the `EvaluationShare` of `sources` (`training`), and that share (`reserved`).
    public func reservingEvaluationShare(of sources: Set<CorpusSource>) -> (
        training: TrainingCorpus, reserved: TrainingCorpus
    ) {
        guard !sources.isEmpty else { return (self, TrainingCorpus()) }
        var train = TrainingCorpus()
        var reserved = TrainingCorpus()
        for e in examples {
            if sources.contains(e.source) && EvaluationShare.contains(e.text) {
                reserved.examples.append(e)
            } else {
                train.examples.append(e)
            }
        }
        return (train, reserved)
    }

    /// Splits into training and development parts: within every (source, class)
    /// stratum a seeded shuffle puts `round(fraction × size)` examples in
    /// development. Deterministic for a given generator state. Complexity: O(n).
    public func split(
        developmentFraction fraction: Double,
        using rng: inout some RandomNumberGenerator
    ) -> (training: TrainingCorpus, development: TrainingCorpus) {
        var strata: [String: [Int]] = [:]
        var keys: [String] = []
        for (i, e) in examples.enumerated() {
            let k = e.source.rawValue + "/" + e.label.name
            if strata[k] == nil { keys.append(k) }
            strata[k, default: []].append(i)
        }
        var isDev = [Bool](repeating: false, count: examples.count)
        let f = max(0, min(1, fraction))
        for k in keys.sorted() {
            var idx = strata[k] ?? []
            idx.shuffle(using: &rng)
            let m = Int((f * Double(idx.count)).rounded())
            for i in idx.prefix(m) { isDev[i] = true }
        }
        var train = TrainingCorpus()
        var dev = TrainingCorpus()
        for (i, e) in examples.enumerated() {
            if isDev[i] { dev.examples.append(e) } else { train.examples.append(e) }
        }
        return (train, dev)
    }
}
