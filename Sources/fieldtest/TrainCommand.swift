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
            abstract: "Train a three-class tweet sentiment model (reproducible: same inputs and seed give the same bytes).",
            discussion: """
            Inputs are recognised by name and header: Sentiment140 *positive*.txt / *negative*.txt, the airline \
            tweets CSV, TweetEval *_text.txt (labels from *_labels.txt beside it), VADER *GroundTruth* files, or \
            any CSV with 'text' and 'label' (negative/neutral/positive) columns. Development-split metrics go to stderr.
            Example: fieldtest train sentiment --input Datasets/tweets/sentiment140_positive.txt \
            Datasets/tweets/sentiment140_negative.txt Datasets/tweets/airline_Tweets.csv \
            Datasets/tweets/tweeteval_val_text.txt Datasets/tweets/vader_tweets_GroundTruth.train.txt --output model.ftsm
            """
        )

        @Option(name: .long, parsing: .upToNextOption, help: "Training files.")
        var input: [String]
        @Option(name: .long, help: "Model file to write (.ftsm).")
        var output: String
        @Option(name: .long, help: "Random seed for the split and the training order.")
        var seed: UInt64 = 42
        @Option(name: .long, help: "Model family: nb or logreg.")
        var model: String = "logreg"
        @Option(name: .long, help: "Fraction of each source held out for the development report (0 = train on all).")
        var devFraction: Double = 0.2
        @Option(name: .long, help: "Lexicon folder (default: <datasets>/lexicons).")
        var lexicons: String?
        @Option(name: .long, help: "Datasets folder (default: $FIELDTEST_DATASETS or ./Datasets).")
        var datasets: String?

        func validate() throws {
            func usage(_ message: String) throws -> Never {
                CommandSupport.printError("error: \(message)")
                throw CommandSupport.invalidInput
            }
            if input.isEmpty { try usage("give at least one --input file") }
            if SentimentModelKind(rawValue: model) == nil { try usage("--model must be 'nb' or 'logreg'") }
            if !(0..<1).contains(devFraction) { try usage("--dev-fraction must be in [0, 1)") }
        }

        func run() throws {
            var configuration = TrainingConfiguration()
            configuration.kind = SentimentModelKind(rawValue: model) ?? .logisticRegression
            let lexiconDirectory = lexicons.map { URL(fileURLWithPath: $0) }
                ?? CommandSupport.datasetsRoot(datasets).appendingPathComponent("lexicons")
            let start = Date()
            let outcome = try CommandSupport.guarded {
                try SentimentTraining.run(inputs: input.map { URL(fileURLWithPath: $0) }, lexiconDirectory: lexiconDirectory,
                                          configuration: configuration, seed: seed, developmentFraction: devFraction,
                                          displayName: { $0.relativePath })
            }
            try CommandSupport.guarded { try SentimentModelFile.save(outcome.model, to: URL(fileURLWithPath: output)) }
            CommandSupport.printError(String(format: "trained %@ on %d tweets in %.1f s → %@", model, outcome.trainingCount,
                                             Date().timeIntervalSince(start), output))
            if !outcome.development.isEmpty {
                CommandSupport.printError("development split (\(Int(devFraction * 100)) % of each source, seed \(seed)):\n"
                                          + SentimentTrainer.report(outcome.development))
            }
        }
    }
}
