import FieldtestData
import Foundation

/// Problems with training or model inputs, with what to do about them.
public enum SentimentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An input file's layout could not be recognised.
    case unknownInput(file: String)
    /// A data file failed to load.
    case data(DataError)
    /// A model file is damaged or of another format or version.
    case invalidModel(file: String, reason: String)
    /// Nothing to train on.
    case emptyCorpus
    /// Holding out the development split (and the reserved share) left nothing to train on;
    /// `strata` are the `source/class` groups (e.g. `labelledCSV/positive`) whose every tweet was held out.
    case noTrainingExamplesLeft(strata: [String], developmentFraction: Double)
    /// An input file loaded without error but holds no labelled tweets (e.g. a header only).
    case noExamples(file: String)
    /// A training setting is outside its documented range.
    case invalidConfiguration(parameter: String, reason: String)
    /// The training set lacks classes the three-class model predicts.
    case missingClasses([SentimentLabel], heldOut: Bool)
    /// Every example of `classes` has an empty (or all-blank) text: `blank` of the corpus's `total`
    /// examples are blank. A class learnt from no words is not learnt.
    case blankTexts([SentimentLabel], blank: Int, total: Int)
    /// Every training example has weight 0 (e.g. `--source-weight SOURCE=0` for the only source).
    case zeroTotalWeight
    /// Training diverged: the parameters are not finite numbers.
    case nonFiniteModel

    /// A compiler-style message.
    public var description: String {
        switch self {
        case .unknownInput(let file):
            return
                "\(file): error: unrecognised labelled tweets file; use a Sentiment140 *_positive.txt/*_negative.txt or original polarity,id,date,query,user,text CSV, an airline tweets CSV, a TweetEval *_text.txt (with *_labels.txt beside it), a VADER tweets_GroundTruth file, a SemEval *.tsv (id, label, text), or a CSV with 'text' and 'label' columns"
        case .data(let e):
            return e.description
        case .invalidModel(let file, let reason):
            return "\(file): error: invalid sentiment model: \(reason)"
        case .emptyCorpus:
            return "error: no training examples; pass at least one --input file"
        case .noTrainingExamplesLeft(let strata, let fraction):
            let groups = strata.isEmpty ? "" : " for source/class \(strata.joined(separator: ", "))"
            return
                "error: holding out the development split (--dev-fraction \(fraction)) and the reserved share left no training examples\(groups); "
                + "the split holds out that fraction of each source/class group (rounded), so lower --dev-fraction (e.g. 0.2, or 0 to train on all), "
                + "reserve fewer sources (--reserve none) or add more labelled tweets"
        case .noExamples(let file):
            return
                "\(file): error: no labelled tweets in this file (only a header or blank lines); add labelled rows or leave the file out"
        case .invalidConfiguration(let parameter, let reason):
            return "error: \(parameter) \(reason)"
        case .missingClasses(let missing, let heldOut):
            let names = missing.map(\.name).joined(separator: ", ")
            return
                "error: the training data has no \(names) examples\(heldOut ? " left after holding out the development split and the reserved share" : ""); "
                + "the model predicts negative, neutral and positive, so every class needs labelled tweets: add a source with "
                + (missing == [.neutral]
                    ? "neutral tweets (e.g. the airline tweets, TweetEval or VADER files; Sentiment140 has none)"
                    : "\(names) tweets")
                + (heldOut ? ", or lower --dev-fraction / --reserve" : "")
        case .blankTexts(let classes, let blank, let total):
            return
                "error: every \(classes.map(\.name).joined(separator: ", ")) example has an empty text (\(blank) of \(total) "
                + "training tweets are blank); each class the model learns needs tweets with words: remove the blank rows "
                + "or check the text column"
        case .zeroTotalWeight:
            return "error: every training tweet has weight 0; give the sources you train on a --source-weight above 0"
        case .nonFiniteModel:
            return
                "error: training diverged (weights are not finite numbers); no model written; lower --learning-rate, --l2 or the --source-weight values"
        }
    }
}

/// Reads training corpora and lexicons from files (the I/O edge of the module;
/// the algorithms never touch files).
public enum SentimentCorpusFiles {
    /// Loads each input, recognising its layout by name and header:
    /// `*positive*.txt` / `*negative*.txt` (Sentiment140 lines), the original Sentiment140
    /// CSV (no header; `polarity,id,date,query,user,text` with polarity 0/2/4), a CSV with
    /// `airline_sentiment` (airline tweets), `*_text.txt` (TweetEval; labels from
    /// `*_labels.txt`), `*GroundTruth*` (VADER), SemEval rows `id TAB label TAB text` in any file,
    /// header line optional, as the organisers distribute them (SemEval tweets with status IDs,
    /// grouped by the year posted; `SemEvalTweetsLoader`), or a CSV with `text,label`. An input
    /// without a single labelled tweet is `SentimentError.noExamples` naming it.
    public static func load(
        _ inputs: [URL], displayName: (URL) -> String = { $0.path },
        policy: LoadPolicy = .strict
    ) throws(SentimentError) -> TrainingCorpus {
        var corpus = TrainingCorpus()
        var emptyInputs: [String] = []
        do throws(DataError) {
            for url in inputs {
                let name = url.lastPathComponent
                let shown = displayName(url)
                let countBefore = corpus.examples.count
                defer { if corpus.examples.count == countBefore { emptyInputs.append(shown) } }
                guard FileManager.default.isReadableFile(atPath: url.path) else {
                    throw DataError.unreadable(file: shown, reason: "no such file or not readable")
                }
                // Read once: standard input (`-`) cannot be read twice.
                let bytes = try readFileBytes(url, displayName: shown)
                try NULCheck.refuse(bytes, file: shown, field: "text")
                if name.lowercased().hasSuffix(".csv") {
                    try addCSV(bytes, file: shown, policy: policy, to: &corpus)
                    continue
                }
                if SemEvalTweetsLoader.looksLikeSemEval(bytes) || name.lowercased().hasSuffix(".tsv") {
                    // Recognised by content: the SemEval-2017 test gold, for one, is a headerless `.txt`.
                    corpus.add(semEval: try SemEvalTweetsLoader.parse(bytes, file: shown, policy: policy).records)
                } else if name.contains("GroundTruth") {
                    corpus.add(
                        vader: try VaderTweetsLoader.loadGroundTruth(url: url, displayName: shown, policy: policy)
                            .records)
                } else if name.contains("_text"), let labels = TweetEvalLoader.labelsURL(forText: url) {
                    corpus.add(
                        try TweetEvalLoader.load(text: url, labels: labels, displayName: displayName, policy: policy)
                            .records,
                        source: .tweetEval)
                } else if let label = Sentiment140Loader.label(forFileName: name) {
                    corpus.add(
                        try Sentiment140Loader.load(url: url, label: label, displayName: shown, policy: policy).records,
                        source: .sentiment140)
                } else if Self.looksLikeCSV(bytes) {
                    // A CSV without the name to tell it, such as standard input (`--input -`).
                    try addCSV(bytes, file: shown, policy: policy, to: &corpus)
                } else {
                    throw DataError.badLayout(file: shown, line: 1, reason: Self.unknownLayout)
                }
            }
        } catch {
            throw .data(error)
        }
        if let file = emptyInputs.first { throw .noExamples(file: file) }
        return corpus
    }

    /// Adds a CSV input: the original Sentiment140 CSV, airline tweets, or `text,label` rows.
    static func addCSV(_ bytes: [UInt8], file: String, policy: LoadPolicy, to corpus: inout TrainingCorpus)
        throws(DataError)
    {
        if Sentiment140Loader.looksLikeOriginalCSV(bytes) {
            corpus.add(
                try Sentiment140Loader.parseOriginalCSV(bytes, file: file, policy: policy).records,
                source: .sentiment140)
            return
        }
        let table = try CSVTable(bytes: bytes, file: file)
        if table.header.position(of: "airline_sentiment") != nil {
            corpus.add(
                try AirlineTweetsLoader.parse(bytes, file: file, policy: policy).records.map(\.labelled),
                source: .airline)
        } else if table.header.position(of: "text") != nil, table.header.position(of: "label") != nil {
            let loaded = try table.load(policy: policy) { (row: CSVRow) throws(DataError) -> LabelledTweet? in
                guard let label = SentimentLabel(name: try row.string("label")) else {
                    throw row.invalid("label", "expected negative, neutral or positive")
                }
                return LabelledTweet(text: try row.string("text"), label: label, line: row.line)
            }
            corpus.add(loaded.records, source: .labelledCSV)
        } else {
            throw DataError.badLayout(file: file, line: 1, reason: Self.unknownLayout)
        }
    }

    /// Whether `bytes` read as one of the CSV layouts `addCSV` takes, told by content alone.
    static func looksLikeCSV(_ bytes: [UInt8]) -> Bool {
        if Sentiment140Loader.looksLikeOriginalCSV(bytes) { return true }
        let first = LabelledTweetStream.firstLine(bytes)
        guard let header = try? CSVReader(fileName: "").records(Array(first.utf8)).first?.fields else { return false }
        let names = Set(header.map { $0.trimmingCharacters(in: .whitespaces) })
        return names.contains("airline_sentiment") || (names.contains("text") && names.contains("label"))
    }

    static let unknownLayout =
        "unrecognised labelled tweets file; use a Sentiment140 *_positive.txt/*_negative.txt or original polarity,id,date,query,user,text CSV, an airline tweets CSV, a TweetEval *_text.txt (with *_labels.txt beside it), a VADER *GroundTruth* file, SemEval rows id<TAB>label<TAB>text (header line optional), or a CSV with 'text' and 'label' columns"

    /// The training inputs bundled in a datasets folder (`tweets/…`).
    public static func bundledInputs(datasets root: URL) -> [URL] {
        [
            "sentiment140_positive.txt", "sentiment140_negative.txt", "airline_Tweets.csv", "tweeteval_val_text.txt",
            "vader_tweets_GroundTruth.train.txt",
        ].map { root.appendingPathComponent("tweets").appendingPathComponent($0) }
    }

    /// Names of the lexicon files `lexicon(directory:)` reads from its folder.
    public static let lexiconFileNames = [
        "vader_lexicon.txt", "emoji_utf8_lexicon.txt", "AFINN-en-165.txt", "AFINN-emoticon-8.txt",
    ]

    /// The lexicon files `lexicon(directory:)` reads from `directory`.
    public static func lexiconFiles(in directory: URL) -> [URL] {
        lexiconFileNames.map { directory.appendingPathComponent($0) }
    }

    /// Loads the VADER lexicon, the VADER emoji lexicon and AFINN-165 plus the
    /// AFINN emoticon list from `directory` (the bundled `lexicons/` layout, `lexiconFileNames`).
    public static func lexicon(directory: URL, displayName: (URL) -> String = { $0.path }) throws(SentimentError)
        -> SentimentLexicon
    {
        func file(_ n: String) -> URL { directory.appendingPathComponent(n) }
        do throws(DataError) {
            let vader = try LexiconLoaders.loadVader(
                url: file("vader_lexicon.txt"), displayName: displayName(file("vader_lexicon.txt")))
            let emoji = try LexiconLoaders.loadEmoji(
                url: file("emoji_utf8_lexicon.txt"), displayName: displayName(file("emoji_utf8_lexicon.txt")))
            let afinn = try LexiconLoaders.loadAFINN(
                url: file("AFINN-en-165.txt"), displayName: displayName(file("AFINN-en-165.txt")))
            let emoticons = try LexiconLoaders.loadAFINN(
                url: file("AFINN-emoticon-8.txt"), displayName: displayName(file("AFINN-emoticon-8.txt")))
            return SentimentLexicon(
                vader: vader.records, emoji: emoji.records, afinn: [afinn.records, emoticons.records])
        } catch {
            throw .data(error)
        }
    }
}

/// The outcome of `SentimentTraining.run`.
public struct TrainingOutcome: Sendable {
    /// The model trained on the training part.
    public var model: SentimentModel
    /// Evaluation on the development part (empty when there is none).
    public var development: [SentimentModel.Evaluation]
    /// Examples trained on.
    public var trainingCount: Int
    /// Evaluation on the reserved `EvaluationShare` (empty when nothing was reserved).
    public var reserved: [SentimentModel.Evaluation] = []
    /// Examples reserved (neither trained on nor in the development part).
    public var reservedCount: Int = 0
    /// The texts trained on, by content (written beside the model).
    public var trainedTexts = TrainedTextIndex(texts: [])
}

extension SentimentModel {
    /// Per-source evaluation results.
    public typealias Evaluation = SourceEvaluation
}

/// The training entry point used by `fieldtest train sentiment`.
public enum SentimentTraining {
    /// Loads `inputs` and the lexicons, sets aside the `EvaluationShare` of
    /// `configuration.reservedSources`, splits off a seeded development part
    /// (`developmentFraction` of every source × class stratum of the rest), trains and
    /// evaluates on both. Same files + configuration + seed ⇒ identical model bytes.
    /// Throws `.invalidConfiguration` for settings out of range (`TrainingConfiguration.validate`),
    /// `.missingClasses` when the inputs, or what is left of them for training, lack a class,
    /// `.zeroTotalWeight` and `.nonFiniteModel` (see `SentimentTrainer.checkedTrain`).
    public static func run(
        inputs: [URL], lexiconDirectory: URL, configuration: TrainingConfiguration, seed: UInt64,
        developmentFraction: Double, displayName: (URL) -> String = { $0.path }
    ) throws(SentimentError) -> TrainingOutcome {
        try configuration.validate()
        let corpus = try SentimentCorpusFiles.load(inputs, displayName: displayName)
        guard !corpus.examples.isEmpty else { throw .emptyCorpus }
        let missing = SentimentTrainer.missingClasses(in: corpus)
        guard missing.isEmpty else { throw .missingClasses(missing, heldOut: false) }
        let lexicon = try SentimentCorpusFiles.lexicon(directory: lexiconDirectory, displayName: displayName)
        var rng = SeededGenerator(seed: seed)
        let (kept, reserved) = corpus.reservingEvaluationShare(of: configuration.reservedSources)
        let (train, dev) = kept.split(developmentFraction: developmentFraction, using: &rng)
        guard !train.examples.isEmpty else {
            let strata = Set(kept.examples.map { $0.source.rawValue + "/" + $0.label.name })
            throw .noTrainingExamplesLeft(strata: strata.sorted(), developmentFraction: developmentFraction)
        }
        let missingInTraining = SentimentTrainer.missingClasses(in: train)
        guard missingInTraining.isEmpty else { throw .missingClasses(missingInTraining, heldOut: true) }
        let model = try SentimentTrainer.checkedTrain(
            corpus: train, lexicon: lexicon, configuration: configuration, using: &rng)
        let evaluation = dev.examples.isEmpty ? [] : SentimentTrainer.evaluate(model, on: dev)
        let reservedEvaluation = reserved.examples.isEmpty ? [] : SentimentTrainer.evaluate(model, on: reserved)
        return TrainingOutcome(
            model: model, development: evaluation, trainingCount: train.examples.count,
            reserved: reservedEvaluation, reservedCount: reserved.examples.count,
            trainedTexts: TrainedTextIndex(texts: train.examples.map(\.text)))
    }
}

/// Builds the benchmark input: the bundled tweet texts cycled to a given count.
public enum SentimentBenchmarkInput {
    /// `count` tweets made by repeating `corpus`'s texts in order; line breaks
    /// inside a text become spaces so each tweet is one line for the baselines.
    /// With `sources`, only that many of the texts are cycled, evenly spaced through
    /// the corpus (so every source file keeps its share): a smaller working set, to
    /// see how much of the throughput depends on the caches. The first
    /// `min(sources, corpus size)` tweets of the result are then all different texts.
    public static func replicate(_ corpus: TrainingCorpus, count: Int, sources: Int? = nil) -> [String] {
        let all = corpus.examples.count
        let kept = min(max(sources ?? all, 0), all)
        guard kept > 0 else { return [] }
        // Example k·all/kept for k in 0..<kept: distinct indices, spread over the whole corpus.
        let texts = (0..<kept).map { k in
            let text = corpus.examples[k * all / kept].text
            // Most tweets are one line already; only those with a line break are rewritten.
            guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
            return String(decoding: text.utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
        }
        return (0..<max(count, 0)).map { texts[$0 % texts.count] }
    }

    /// Classifies every tweet and returns a checksum of the labels and scores
    /// (so the work cannot be optimised away and runs can be compared).
    public static func classifyAll(_ tweets: [String], model: SentimentModel) -> (labels: [Int], scoreSum: Double) {
        var labels = [0, 0, 0]
        var sum = 0.0
        var scorer = SentimentScorer(model: model)
        scorer.predictAll(tweets) { _, p in
            labels[p.label.rawValue] += 1
            sum += p.score
        }
        return (labels, sum)
    }
}
