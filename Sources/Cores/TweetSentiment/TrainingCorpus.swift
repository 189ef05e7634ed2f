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

    /// Creates an example.
    public init(text: String, label: SentimentLabel, source: CorpusSource, meanRating: Double? = nil) {
        self.text = text
        self.label = label
        self.source = source
        self.meanRating = meanRating
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
            TrainingExample(text: $0.text, label: $0.label(neutralThreshold: neutralThreshold), source: .vader, meanRating: $0.meanRating)
        }
    }

    /// The corpus without the `EvaluationShare` of `sources` (`training`), and that share (`reserved`).
    public func reservingEvaluationShare(of sources: Set<CorpusSource>) -> (training: TrainingCorpus, reserved: TrainingCorpus) {
        guard !sources.isEmpty else { return (self, TrainingCorpus()) }
        var train = TrainingCorpus(), reserved = TrainingCorpus()
        for e in examples {
            if sources.contains(e.source) && EvaluationShare.contains(e.text) { reserved.examples.append(e) } else { train.examples.append(e) }
        }
        return (train, reserved)
    }

    /// Splits into training and development parts: within every (source, class)
    /// stratum a seeded shuffle puts `round(fraction × size)` examples in
    /// development. Deterministic for a given generator state. Complexity: O(n).
    public func split(developmentFraction fraction: Double,
                      using rng: inout some RandomNumberGenerator) -> (training: TrainingCorpus, development: TrainingCorpus) {
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
        var train = TrainingCorpus(), dev = TrainingCorpus()
        for (i, e) in examples.enumerated() {
            if isDev[i] { dev.examples.append(e) } else { train.examples.append(e) }
        }
        return (train, dev)
    }
}
