import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import Capabilities
@testable import TweetSentiment

/// Training from files (`SentimentTraining.run`) refuses data that would give a useless model,
/// naming the files and options.
@Suite("Training validation of files")
struct SentimentTrainingValidationTests {
    /// The repository's `Datasets` folder (for the lexicons).
    static let datasets = ServedCoreTests.repo.appendingPathComponent("Datasets")

    /// Writes `text` to a fresh temporary file named `name`.
    func temporaryFile(_ name: String, _ text: String) throws -> URL {
        let dir = TemporaryFiles.url("fieldtest-training")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url
    }

    func train(_ inputs: [URL], developmentFraction: Double = 0) throws(SentimentError) -> TrainingOutcome {
        var c = TrainingConfiguration()
        c.hashBits = 10
        c.charBits = 0
        return try SentimentTraining.run(
            inputs: inputs, lexiconDirectory: Self.datasets.appendingPathComponent("lexicons"),
            configuration: c, seed: 3, developmentFraction: developmentFraction,
            displayName: { $0.lastPathComponent })
    }

    @Test("the combined training set must hold every class; the error lists the missing ones")
    func everyClassIsNeeded() throws {
        let positives = try temporaryFile("ponly.csv", "text,label\ngreat day,positive\nlove it,positive\n")
        #expect(throws: SentimentError.missingClasses([.negative, .neutral], heldOut: false)) { try train([positives]) }
        let posNeg = try temporaryFile("pn.csv", "text,label\ngreat day,positive\nawful day,negative\n")
        #expect(throws: SentimentError.missingClasses([.neutral], heldOut: false)) { try train([posNeg]) }
        #expect(SentimentError.missingClasses([.neutral], heldOut: false).description.contains("Sentiment140 has none"))
        // Classes may come from different files: together they cover all three.
        let neutral = try temporaryFile("neutral.csv", "text,label\nthe bus leaves at 8,neutral\n")
        let outcome = try train([posNeg, neutral])
        #expect(outcome.trainingCount == 3)
        #expect(outcome.model.parametersAreFinite)
    }

    @Test("a development split that leaves nothing to train on names the held-out groups and --dev-fraction")
    func devSplitLeavingNoTrainingExamples() throws {
        let full = try temporaryFile(
            "full.csv", "text,label\ngreat day,positive\nawful day,negative\nthe bus,neutral\n")
        let expected = SentimentError.noTrainingExamplesLeft(
            strata: ["labelledCSV/negative", "labelledCSV/neutral", "labelledCSV/positive"],
            developmentFraction: 0.999)
        #expect(throws: expected) { try train([full], developmentFraction: 0.999) }
        #expect(
            expected.description.contains(
                "--dev-fraction 0.999) and the reserved share left no training examples for source/class labelledCSV/negative"
            ))
        #expect(expected.description.contains("lower --dev-fraction"))
        #expect(!expected.description.contains("pass at least one --input file"))
    }

    @Test("an input without labelled tweets is named in the error")
    func headerOnlyInputIsNamed() throws {
        let full = try temporaryFile(
            "full.csv", "text,label\ngreat day,positive\nawful day,negative\nthe bus,neutral\n")
        let empty = try temporaryFile("header_only.csv", "text,label\n")
        #expect(throws: SentimentError.noExamples(file: "header_only.csv")) { try train([full, empty]) }
        #expect(
            SentimentError.noExamples(file: "header_only.csv").description.hasPrefix(
                "header_only.csv: error: no labelled tweets"))
    }
}
