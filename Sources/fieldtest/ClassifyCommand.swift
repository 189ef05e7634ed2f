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

    @Option(name: .long, help: "Model file (.ftsm).")
    var model: String?
    @Option(name: .long, help: "Input CSV with header and columns id,text (RFC 4180).")
    var input: String
    @Option(name: .long, help: "Output CSV (default: standard output).")
    var output: String?
    @Option(
        name: .long,
        help:
            "Classes a label may take, comma-separated (default: negative,neutral,positive; negative,positive for a binary decision)."
    )
    var classes: String?
    @Option(
        name: .long,
        help:
            "Threads classifying in parallel, each on its own run of rows (default: all cores; the output is the same for any value)."
    )
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        _ = try CommandSupport.classes(classes)
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let chosen = try CommandSupport.classes(classes)
        let input = OutputText.inputPath(input)
        try OutputPathCheck.refuseOverwritingInputs(
            [
                .init(option: "--input", url: URL(fileURLWithPath: input)),
                .init(
                    option: "--model",
                    url: SentimentModelFile.url(model, datasets: DatasetsLocation.current(option: nil))),
            ], output: output)
        let classifier = try SentimentModelFile.load(model, datasets: DatasetsLocation.current(option: nil))
        let bytes = try readFileBytes(URL(fileURLWithPath: input), displayName: input)
        let text = try SentimentCSV.classify(bytes, file: input, model: classifier, classes: chosen, jobs: jobs)
        try OutputText.write(text, to: output)
    }
}
