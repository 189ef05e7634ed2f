import ArgumentParser
import FieldtestData
import Foundation
import TweetSentiment

/// `fieldtest classify`: labels tweets with a sentiment model.
struct ClassifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify tweets: input CSV 'id,text' → output CSV 'id,label,score' (score: polarity in [-1, 1]).",
        discussion:
            "Without --model the shipped Datasets/models/\(SentimentModelFile.defaultFileName) is used (found under $FIELDTEST_DATASETS or ./Datasets). "
            + "label is the most probable class; score is a graded polarity (the model's P(pos) - P(neg) blended with the "
            + "lexicon compound), so its sign can differ from the label when they disagree or neutral is most probable."
    )

    @Option(help: "Model file (.ftsm).")
    var model: String?
    @Option(help: "Input CSV with header and columns id,text (RFC 4180).")
    var input: String
    @OptionGroup var out: OutputCSV
    @Option(
        help:
            "Classes a label may take, comma-separated (default: negative,neutral,positive; negative,positive for a binary decision)."
    )
    var classes: String?
    @Option(
        help:
            "Threads classifying in parallel, each on its own run of rows (default: all cores; the output is the same for any value)."
    )
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        _ = try CommandSupport.classes(classes)
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let text = try SentimentCSV.classify(
            file: input, model: model, datasets: DatasetsLocation.current(option: nil),
            classes: try CommandSupport.classes(classes), jobs: jobs, output: out.output)
        try OutputText.write(text, to: out.output)
    }
}
