import ArgumentParser
import FieldtestData
import Foundation
import TweetSentiment

/// `fieldtest evaluate`: measures a model on labelled data it was not trained on.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Evaluate a model on held-out labelled data.",
        subcommands: [Sentiment.self]
    )

    /// `fieldtest evaluate sentiment`.
    struct Sentiment: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Accuracy, per-class precision/recall/F1, macro-F1, macro-recall and Pearson r of a sentiment model on labelled tweets.",
            discussion: """
                Inputs are read like 'fieldtest train sentiment' inputs: Sentiment140 *positive*.txt / *negative*.txt or \
                the original Sentiment140 CSV (no header; polarity,id,date,query,user,text with polarity 0/2/4, e.g. \
                testdata.manual.2009.06.14.csv), the airline tweets CSV, TweetEval *_text.txt (labels from *_labels.txt), \
                VADER *GroundTruth* files (Pearson r of the score against the mean human rating), or any CSV with 'text' \
                and 'label' columns. One row per source, then 'all'.
                --classes negative,positive evaluates as Go et al. (2009) did on the Sentiment140 test set: neutral \
                examples are left out and each decision is P(positive) vs P(negative).
                Example: fieldtest evaluate sentiment --input testdata.manual.2009.06.14.csv --classes negative,positive
                """
        )

        @Option(name: .long, parsing: .upToNextOption, help: "Labelled files.")
        var input: [String]
        @Option(name: .long, help: "Model file (.ftsm; default: the shipped default model).")
        var model: String?
        @Option(name: .long, help: "Classes to decide among, comma-separated (default: negative,neutral,positive).")
        var classes: String?
        @Option(name: .long, help: "Also write the figures as CSV (source,classes,metric,value) to this file.")
        var output: String?
        @Flag(
            name: .long,
            help:
                "Score only the evaluation share (one tweet in ten, by text hash) that 'train sentiment --reserve' keeps out of training: the shipped model never saw the airline tweets' share."
        )
        var reservedOnly = false

        func validate() throws {
            if input.isEmpty { throw ValidationError("give at least one --input file") }
            _ = try CommandSupport.classes(classes)
        }

        func run() throws {
            let input = try OutputText.inputPaths(input)
            let chosen = try CommandSupport.classes(classes)
            let modelURL = SentimentModelFile.url(model, datasets: DatasetsLocation.current(option: nil))
            try OutputPathCheck.refuseOverwritingInputs(
                OutputPathCheck.tweetInputs(input) + [.init(option: "--model", url: modelURL)], output: output)
            let classifier = try SentimentModelFile.load(model, datasets: DatasetsLocation.current(option: nil))
            let evaluations = try SentimentEvaluation.run(
                classifier, inputs: input.map { URL(fileURLWithPath: $0) }, classes: chosen,
                reservedOnly: reservedOnly, displayName: { $0.relativePath })
            let report = SentimentTrainer.report(evaluations)  // beside a CSV on standard output, on standard error
            if output == OutputText.standardStreamName { CommandSupport.printError(report) } else { print(report) }
            if let output { try OutputText.write(SentimentTrainer.reportCSV(evaluations), to: output) }
        }
    }
}
