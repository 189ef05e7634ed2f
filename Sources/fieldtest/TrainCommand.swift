import ArgumentParser
import FieldtestData
import Foundation
import TweetSentiment

/// `fieldtest train`: trains models from labelled data.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a model from labelled data.",
        subcommands: [Sentiment.self]
    )

    /// `fieldtest train sentiment`.
    struct Sentiment: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Train a three-class tweet sentiment model (reproducible: same inputs and seed give the same bytes).",
            discussion: """
                Inputs are recognised by name and header: Sentiment140 *positive*.txt / *negative*.txt, the airline \
                tweets CSV, TweetEval *_text.txt (labels from *_labels.txt beside it), VADER *GroundTruth* files, or \
                any CSV with 'text' and 'label' (negative/neutral/positive) columns. The inputs together must hold \
                tweets of all three classes (Sentiment140 has no neutral ones: add e.g. the airline, TweetEval or VADER \
                files); a file without labelled tweets, or training that diverges, is an error and no model is written. One tweet in ten of the --reserve \
                sources (by text hash, the same tweets every run) is never trained on; development-split metrics and the \
                reserved share's metrics go to stderr.
                Example: fieldtest train sentiment --input Datasets/tweets/sentiment140_positive.txt \
                Datasets/tweets/sentiment140_negative.txt Datasets/tweets/airline_Tweets.csv \
                Datasets/tweets/tweeteval_val_text.txt Datasets/tweets/vader_tweets_GroundTruth.train.txt --output model.ftsm
                """
        )

        @Option(name: .long, parsing: .upToNextOption, help: "Training files.")
        var input: [String]
        @Option(name: .long, help: "Model file to write (.ftsm); required unless --hold-out is given.")
        var output: String?
        @Option(name: .long, help: "Random seed for the split and the training order.")
        var seed: UInt64 = 42
        @Option(name: .long, help: "Model family: nb or logreg.")
        var model: String = "logreg"
        @Option(name: .long, help: "Fraction of each source held out for the development report (0 = train on all).")
        var devFraction: Double = 0.2
        @Option(name: .long, help: "Logistic regression: passes over the data, 1…1000 (default 6).")
        var epochs: Int?
        @Option(name: .long, help: "Logistic regression: L2 penalty per example step, 0…1 (default 1e-05).")
        var l2: Double?
        @Option(
            name: .long, help: "Logistic regression: AdaGrad base learning rate, above 0 and at most 10 (default 0.02)."
        )
        var learningRate: Double?
        @Option(
            name: .long, help: "log2 of the character n-gram buckets, 0 (no character n-grams) or 4…26 (default 18).")
        var charBits: Int?
        @Option(
            name: .long, parsing: .upToNextOption,
            help:
                "Source weights before class balancing, each in 0…1000000 (0 leaves the source out), e.g. semEval=2 sentiment140=0.1 (defaults: sentiment140 0.1, airline 0.1, tweetEval 1, semEval 1, vader 1.5, labelledCSV 1)."
        )
        var sourceWeight: [String] = []
        @Option(
            name: .long,
            help:
                "Sources whose evaluation share (one tweet in ten, by text hash) is never trained on, comma-separated, or 'none'."
        )
        var reserve: String = "airline"
        @Option(
            name: .long, parsing: .upToNextOption,
            help:
                "Leave-one-out evaluation instead of training a model: hold out each SOURCE or SOURCE:GROUP in turn (e.g. semEval:2015, the SemEval tweets posted in 2015, or vader), train on the rest and report on it."
        )
        var holdOut: [String] = []
        @Option(
            name: .long, parsing: .upToNextOption,
            help:
                "With --hold-out: the held-out parts on which to choose the --class-offsets that maximise their mean macro-recall (default: none)."
        )
        var calibrateOn: [String] = []
        @Option(
            name: .long,
            help:
                "Log-odds added to the negative,neutral,positive biases after training, each in -10…10 (default 0,0,0)."
        )
        var classOffsets: String?
        @Option(name: .long, help: "Lexicon folder (default: <datasets>/lexicons).")
        var lexicons: String?
        @Option(
            name: .long,
            help:
                "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
        )
        var datasets: String?

        /// The options as the library reads them.
        var options: TrainingOptions {
            var o = TrainingOptions()
            (o.model, o.epochs, o.l2, o.learningRate, o.charBits) = (model, epochs, l2, learningRate, charBits)
            (o.sourceWeights, o.reserve, o.classOffsets, o.holdOut, o.calibrateOn) = (
                sourceWeight, reserve, classOffsets, holdOut, calibrateOn
            )
            (o.developmentFraction, o.writesModel) = (devFraction, output != nil)
            return o
        }

        func validate() throws {
            do {
                if input.isEmpty { throw TrainingOptionsError(message: "give at least one --input file") }
                _ = try TrainingConfiguration(options: options)
            } catch {
                CommandSupport.printError(String(describing: error))
                throw CommandSupport.invalidInput
            }
        }

        func run() throws {
            let input = try OutputText.inputPaths(input)
            let configuration = try TrainingConfiguration(options: options)
            let lexiconDirectory =
                lexicons.map { URL(fileURLWithPath: $0) }
                ?? DatasetsLocation.current(option: datasets).appendingPathComponent("lexicons")
            let lexiconFiles = SentimentCorpusFiles.lexiconFiles(in: lexiconDirectory)
                .map { OutputPathCheck.Input(option: lexicons == nil ? "lexicon" : "--lexicons", url: $0) }
            let start = Date()
            guard let output else {
                let outcome = try SentimentCalibration.leaveOneOut(
                    inputs: input.map { URL(fileURLWithPath: $0) }, lexiconDirectory: lexiconDirectory,
                    configuration: configuration, seed: seed, parts: options.heldOutParts,
                    calibrateOn: options.calibrationParts, displayName: { $0.relativePath })
                print(SentimentCalibration.report(outcome), terminator: "")
                CommandSupport.printError(
                    String(
                        format: "%d leave-one-out folds in %.1f s", outcome.parts.count, Date().timeIntervalSince(start)
                    ))
                return
            }
            try OutputPathCheck.refuseOverwritingInputs(
                OutputPathCheck.tweetInputs(input) + lexiconFiles, output: output)
            let outcome = try SentimentTraining.run(
                inputs: input.map { URL(fileURLWithPath: $0) }, lexiconDirectory: lexiconDirectory,
                configuration: configuration, seed: seed, developmentFraction: devFraction,
                displayName: { $0.relativePath })
            try OutputText.write(data: Data(SentimentModelCodec.encode(outcome.model)), to: output)  // atomic, or `-`
            CommandSupport.printError(
                String(
                    format: "trained %@ on %d tweets in %.1f s → %@", model, outcome.trainingCount,
                    Date().timeIntervalSince(start), output))
            if !outcome.development.isEmpty {
                CommandSupport.printError(
                    "development split (\(Int(devFraction * 100)) % of each source, seed \(seed)):\n"
                        + SentimentTrainer.report(outcome.development))
            }
            if !outcome.reserved.isEmpty {
                CommandSupport.printError(
                    "reserved evaluation share (\(outcome.reservedCount) tweets, never trained on):\n"
                        + SentimentTrainer.report(outcome.reserved))
            }
        }
    }
}
