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
            abstract: "Accuracy, per-class precision/recall/F1, macro-F1, macro-recall and Pearson r of a sentiment model on labelled tweets.",
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
        @Flag(name: .long, help: "Score only the evaluation share (one tweet in ten, by text hash) that 'train sentiment --reserve' keeps out of training: the shipped model never saw the airline tweets' share.")
        var reservedOnly = false

        func validate() throws {
            if input.isEmpty { throw ValidationError("give at least one --input file") }
            _ = try SentimentClassesOption.parse(classes)
        }

        func run() throws {
            let chosen = try SentimentClassesOption.parse(classes)
            try OutputPathCheck.refuseOverwritingInputs(
                OutputPathCheck.tweetInputs(input) + [.init(option: "--model", url: CommandSupport.sentimentModelURL(model))],
                output: output)
            let classifier = try CommandSupport.loadSentimentModel(model)
            let evaluations = try CommandSupport.guarded { () throws -> [SourceEvaluation] in
                let loaded = try SentimentCorpusFiles.load(input.map { URL(fileURLWithPath: $0) }, displayName: { $0.relativePath })
                let corpus = reservedOnly ? loaded.reservingEvaluationShare(of: Set(CorpusSource.allCases)).reserved : loaded
                guard corpus.examples.contains(where: { chosen.contains($0.label) }) else {
                    throw NoRowsSelected(files: input, loadedCount: loaded.examples.count, reservedCount: reservedOnly ? corpus.examples.count : nil,
                                         present: Set(corpus.examples.map(\.label)), chosen: chosen)
                }
                return SentimentTrainer.evaluate(classifier, on: corpus, classes: chosen, includesTotal: true)
            }
            print(SentimentTrainer.report(evaluations))
            if let output {
                try CommandSupport.guarded { try CommandSupport.emit(SentimentTrainer.reportCSV(evaluations), to: output) }
            }
        }
    }
}

/// `evaluate sentiment` found labelled tweets but the filters (`--reserved-only`, `--classes`) left none to score.
struct NoRowsSelected: Error, CustomStringConvertible {
    var files: [String]
    /// Labelled tweets read from `files`.
    var loadedCount: Int
    /// Tweets of the evaluation share, with `--reserved-only`; else nil.
    var reservedCount: Int?
    /// Classes of the tweets left after `--reserved-only`.
    var present: Set<SentimentLabel>
    var chosen: Set<SentimentLabel>

    var description: String {
        func names(_ s: Set<SentimentLabel>) -> String { SentimentLabel.allCases.filter(s.contains).map(\.name).joined(separator: ", ") }
        let source = files.joined(separator: ", ")
        if reservedCount == 0 {
            return "\(source): error: no rows selected: none of the \(loadedCount) labelled tweets is in the evaluation share "
                + "(one tweet in ten, by text hash) that --reserved-only scores; drop --reserved-only to evaluate them all"
        }
        return "\(source): error: no rows selected: --classes \(names(chosen)) excludes every label present (\(names(present)))"
            + "\(reservedCount == nil ? "" : " in the evaluation share --reserved-only keeps"); include at least one of \(names(present)) in --classes"
    }
}

/// Parses a `--classes` list such as `negative,positive`.
enum SentimentClassesOption {
    static func parse(_ text: String?) throws -> Set<SentimentLabel> {
        guard let text else { return Set(SentimentLabel.allCases) }
        var out = Set<SentimentLabel>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let label = SentimentLabel(name: part.trimmingCharacters(in: .whitespaces).lowercased()) else {
                CommandSupport.printError("error: --classes: '\(part)' is not a class; use negative, neutral, positive (comma-separated)")
                throw CommandSupport.invalidInput
            }
            out.insert(label)
        }
        if out.count < 2 {
            CommandSupport.printError("error: --classes needs at least two classes, e.g. negative,positive")
            throw CommandSupport.invalidInput
        }
        return out
    }
}
