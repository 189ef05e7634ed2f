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
                Inputs are read as 'fieldtest train sentiment' reads them, and the original Sentiment140 CSV (no \
                header; polarity 0/2/4, e.g. testdata.manual.2009.06.14.csv); for VADER *GroundTruth* files, Pearson r \
                is against the mean human rating. One row per source, then 'all'. --classes negative,positive \
                evaluates as Go et al. (2009) did: neutral examples left out, each decision P(positive) vs P(negative).
                Example: fieldtest evaluate sentiment --input testdata.manual.2009.06.14.csv --classes negative,positive
                """
        )

        @Option(parsing: .upToNextOption, help: "Labelled files.")
        var input: [String]
        @Option(help: "Model file (.ftsm; default: the shipped default model).")
        var model: String?
        @Option(help: "Classes to decide among, comma-separated (default: negative,neutral,positive).")
        var classes: String?
        @Option(help: "Also write the figures as CSV (source,classes,metric,value) to this file.")
        var output: String?
        @Flag(
            help:
                "Score only the evaluation share (one tweet in ten, by text hash) that 'train sentiment --reserve' keeps out of training: the shipped model never saw the airline tweets' share."
        )
        var reservedOnly = false

        func validate() throws {
            if input.isEmpty { throw ValidationError("give at least one --input file") }
            _ = try CommandSupport.classes(classes)
        }

        func run() throws {
            let report = try SentimentEvaluation.report(
                files: input, model: model, datasets: DatasetsLocation.current(option: nil),
                classes: try CommandSupport.classes(classes), reservedOnly: reservedOnly, output: output)
            // Beside a CSV on standard output, the table goes to standard error.
            if output == OutputText.standardStreamName {
                CommandSupport.printError(report.text)
            } else {
                print(report.text)
            }
            if let output { try OutputText.write(report.csv, to: output) }
        }
    }
}
