import FieldtestData
import Foundation
import TweetSentiment

/// `fieldtest train sentiment` as one call: a model trained and its figures, or, without an output,
/// the leave-one-out evaluation of `TrainingOptions.holdOut`.
public enum SentimentTrainingJob {
    /// The `--help` description of the command.
    public static let discussion = """
        Inputs are recognised by name and header (Sentiment140, airline, TweetEval, VADER *GroundTruth*, or \
        any CSV with 'text' and 'label' columns) and together must hold all three classes. One tweet in ten \
        of the --reserve sources is never trained on; development and reserved figures go to stderr. \
        The shipped model's command and figures: Datasets/models/README.md.
        --source-weight SOURCE=WEIGHT (0 leaves the source out), e.g. semEval=2 sentiment140=0.1; defaults: \
        sentiment140 0.1, airline 0.1, tweetEval 1, semEval 1, vader 1.5, labelledCSV 1. --pos-neg-only \
        sources train only the positive-vs-negative choice (partial labels).
        --hold-out: leave-one-out evaluation instead of training a model: hold out each SOURCE or SOURCE:GROUP \
        in turn (e.g. semEval:2015, the SemEval tweets posted in 2015, or vader), train on the rest and report \
        on it. --calibrate-on: the held-out parts on which to choose the --class-offsets that maximise their \
        mean macro-recall (default: none). --class-offsets are added after training.
        Example: fieldtest train sentiment --input Datasets/tweets/sentiment140_positive.txt \
        Datasets/tweets/airline_Tweets.csv Datasets/tweets/tweeteval_val_text.txt --output model.ftsm
        """

    /// What the command writes.
    public struct Result: Sendable {
        /// The model file's bytes (`SentimentModelCodec`), nil for a leave-one-out evaluation.
        public var model: Data?
        /// The trained-text index's bytes (`TrainedTextIndex`, written beside the model), nil without a model.
        public var trainedTexts: Data? = nil
        /// For standard output: the leave-one-out report (empty when a model was trained).
        public var report: String
        /// For standard error, each line ending in a newline: the time taken, and after training the
        /// development split's and the reserved share's figures.
        public var log: String
    }

    /// Trains on `inputs` with `options` (`SentimentTraining.run`) when `output` names the model file
    /// (only used in the log), else runs `SentimentCalibration.leaveOneOut` over `options.heldOutParts`.
    /// Same inputs, options and `seed` give the same model bytes.
    /// - Throws: `TrainingOptionsError` for options out of range, `SentimentError` from training.
    /// `fieldtest train sentiment` as one call: the input paths as the options give them (`-`: standard
    /// input, once), the lexicons of `lexicons` (nil: `datasets/lexicons`), and an `output` that names
    /// an input or a lexicon file refused before anything is read; then `run(inputs:lexiconDirectory:…)`.
    public static func run(
        files: [String], lexicons: String?, datasets: URL, options: TrainingOptions, seed: UInt64, output: String?
    ) throws -> Result {
        let paths = try OutputText.inputPaths(files)
        let lexiconDirectory =
            lexicons.map { URL(fileURLWithPath: $0) } ?? datasets.appendingPathComponent("lexicons")
        if let output {
            let lexiconFiles = SentimentCorpusFiles.lexiconFiles(in: lexiconDirectory)
                .map { OutputPathCheck.Input(option: lexicons == nil ? "lexicon" : "--lexicons", url: $0) }
            try OutputPathCheck.refuseOverwritingInputs(
                OutputPathCheck.tweetInputs(paths) + lexiconFiles, output: output)
            if output != OutputText.standardStreamName {
                let index = TrainedTextIndex.url(besideModel: URL(fileURLWithPath: output))
                try OutputPathCheck.refuseOverwritingInputs(
                    OutputPathCheck.tweetInputs(paths) + lexiconFiles, output: index.path,
                    outputOption: "--output's trained-text index")
            }
        }
        return try run(
            inputs: paths.map { URL(fileURLWithPath: $0) }, lexiconDirectory: lexiconDirectory, options: options,
            seed: seed, output: output)
    }

    public static func run(
        inputs: [URL], lexiconDirectory: URL, options: TrainingOptions, seed: UInt64, output: String?,
        displayName: (URL) -> String = { $0.relativePath }
    ) throws -> Result {
        let configuration = try TrainingConfiguration(options: options)
        let start = Date()
        guard let output else {
            let outcome = try SentimentCalibration.leaveOneOut(
                inputs: inputs, lexiconDirectory: lexiconDirectory, configuration: configuration, seed: seed,
                parts: options.heldOutParts, calibrateOn: options.calibrationParts, displayName: displayName)
            let seconds = Date().timeIntervalSince(start)
            return Result(
                model: nil, report: SentimentCalibration.report(outcome),
                log: String(format: "%d leave-one-out folds in %.1f s\n", outcome.parts.count, seconds))
        }
        let outcome = try SentimentTraining.run(
            inputs: inputs, lexiconDirectory: lexiconDirectory, configuration: configuration, seed: seed,
            developmentFraction: options.developmentFraction, displayName: displayName)
        let log = trainingLog(
            outcome, options: options, seed: seed, output: output, seconds: Date().timeIntervalSince(start))
        return Result(
            model: Data(SentimentModelCodec.encode(outcome.model)), trainedTexts: outcome.trainedTexts.encoded(),
            report: "", log: log)
    }

    /// The log of a training run: the model family, tweets trained on, `seconds` taken and `output`;
    /// then the development split's figures and the reserved share's, each when there is one.
    public static func trainingLog(
        _ outcome: TrainingOutcome, options: TrainingOptions, seed: UInt64, output: String, seconds: Double
    ) -> String {
        var parts = [
            String(
                format: "trained %@ on %d tweets in %.1f s → %@", options.model, outcome.trainingCount, seconds, output)
        ]
        if !outcome.development.isEmpty {
            parts.append(
                "development split (\(Int(options.developmentFraction * 100)) % of each source, seed \(seed)):\n"
                    + SentimentTrainer.report(outcome.development))
        }
        if !outcome.reserved.isEmpty {
            parts.append(
                "reserved evaluation share (\(outcome.reservedCount) tweets, never trained on):\n"
                    + SentimentTrainer.report(outcome.reserved))
        }
        return parts.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined()
    }
}

extension SentimentTrainingJob {
    /// `fieldtest train sentiment`: `run(files:lexicons:datasets:…)` as a command: the model (atomic,
    /// or `-`) and beside it the index of the texts it trained on, so a harness scores it only on
    /// tweets it never saw; the report on standard output, the log on standard error.
    public struct Request: CommandJob {
        /// The training files.
        public var input: [String]
        /// The lexicon folder (nil: `<datasets>/lexicons`).
        public var lexicons: String?
        /// The `--datasets` folders.
        public var datasetFolders: [String]
        /// The training options.
        public var options: TrainingOptions
        /// The random seed.
        public var seed: UInt64
        /// The model file (nil: the leave-one-out evaluation).
        public var output: String?

        /// A request.
        public init(
            input: [String], lexicons: String?, datasetFolders: [String], options: TrainingOptions, seed: UInt64,
            output: String?
        ) {
            (self.input, self.lexicons, self.datasetFolders) = (input, lexicons, datasetFolders)
            (self.options, self.seed, self.output) = (options, seed, output)
        }

        /// The folder the default lexicons are looked for in.
        var datasets: URL { DatasetsLocation.currentFolder(holding: "lexicons", options: datasetFolders) }

        /// The training files (with their companions), the lexicon files, the datasets; the model and its index.
        public var files: CommandFiles {
            var f = CommandFiles()
            f.inputs += OutputPathCheck.tweetInputs(input.filter { $0 != OutputText.standardStreamName })
            // The lexicon files, named as the option (or default folder) that chose them, before the datasets folder.
            let folder = URL(fileURLWithPath: lexicons ?? datasets.appendingPathComponent("lexicons").path)
            for url in (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil))
                ?? []
            {
                f.input(
                    lexicons.map { ($0 as NSString).appendingPathComponent(url.lastPathComponent) } ?? url.path,
                    option: lexicons == nil ? "lexicon" : "--lexicons")
            }
            f.datasets(options: datasetFolders)
            f.output(output, option: "--output")
            if let output, output != OutputText.standardStreamName {
                f.output(
                    TrainedTextIndex.url(besideModel: URL(fileURLWithPath: output)).path, option: "--output's index")
            }
            return f
        }

        /// Trains (or evaluates leave-one-out) and writes the model and its index.
        public func run() throws -> CommandJobOutcome {
            let result = try SentimentTrainingJob.run(
                files: input, lexicons: lexicons, datasets: datasets, options: options, seed: seed, output: output)
            if let output, let model = result.model {
                try OutputText.write(data: model, to: output)  // atomic, or `-`
                if output != OutputText.standardStreamName, let index = result.trainedTexts {
                    let url = TrainedTextIndex.url(besideModel: URL(fileURLWithPath: output))
                    try OutputText.write(data: index, to: url.path)
                }
            }
            print(result.report, terminator: "")
            JobNote.print(result.log)
            return .success
        }
    }
}
