import FieldtestData
import Foundation
import TweetSentiment

/// Reads training corpora and lexicons from files: the sentiment capability's I/O edge (the core,
/// `TweetSentiment`, takes the corpus and lexicon as values and never touches files).
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

extension SentimentEvaluation {
    /// Loads the labelled `inputs` (as `SentimentCorpusFiles.load` reads them), keeps only the
    /// `EvaluationShare` of every source when `reservedOnly`, and evaluates `model` deciding among
    /// `classes`. Throws `NoRowsSelected` when the filters leave no tweet to score.
    public static func run(
        _ model: some SentimentClassifier, inputs: [URL], classes: Set<SentimentLabel>, reservedOnly: Bool,
        displayName: (URL) -> String = { $0.path }
    ) throws -> [SourceEvaluation] {
        let loaded = try SentimentCorpusFiles.load(inputs, displayName: displayName)
        let corpus = reservedOnly ? loaded.reservingEvaluationShare(of: Set(CorpusSource.allCases)).reserved : loaded
        guard corpus.examples.contains(where: { classes.contains($0.label) }) else {
            throw NoRowsSelected(
                files: inputs.map(displayName), loadedCount: loaded.examples.count,
                reservedCount: reservedOnly ? corpus.examples.count : nil,
                present: Set(corpus.examples.map(\.label)), chosen: classes)
        }
        return SentimentTrainer.evaluate(model, on: corpus, classes: classes, includesTotal: true)
    }
}

extension SentimentCalibration {
    /// Loads `inputs` and the lexicons, then runs `leaveOneOut(corpus:…)` (the entry point of
    /// `fieldtest train sentiment --hold-out`).
    public static func leaveOneOut(
        inputs: [URL], lexiconDirectory: URL, configuration: TrainingConfiguration, seed: UInt64,
        parts: [HeldOutPart], calibrateOn: Set<HeldOutPart>,
        displayName: (URL) -> String = { $0.path }
    ) throws(SentimentError) -> Outcome {
        try configuration.validate()
        let corpus = try SentimentCorpusFiles.load(inputs, displayName: displayName)
        guard !corpus.examples.isEmpty else { throw .emptyCorpus }
        let lexicon = try SentimentCorpusFiles.lexicon(directory: lexiconDirectory, displayName: displayName)
        return try leaveOneOut(
            corpus: corpus, lexicon: lexicon, configuration: configuration, seed: seed, parts: parts,
            calibrateOn: calibrateOn)
    }
}
