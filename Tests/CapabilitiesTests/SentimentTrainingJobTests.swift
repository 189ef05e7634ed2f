import FieldtestData
import Foundation
import Testing

@testable import Capabilities
@testable import TweetSentiment

/// `fieldtest train sentiment` as one call (`SentimentTrainingJob`).
@Suite("Sentiment training job")
struct SentimentTrainingJobTests {
    static let lexicons = SystemEvaluationTests.datasets.appendingPathComponent("lexicons")

    func corpus() throws -> URL {
        let rows = (0..<20).map { i in
            ["great day \(i),positive", "awful day \(i),negative", "the bus at \(i),neutral"]
        }
        return try SystemEvaluationTests.temporaryFile(
            "c.csv", "text,label\n" + rows.joined().joined(separator: "\n") + "\n")
    }

    func options(output: Bool, holdOut: [String] = []) -> TrainingOptions {
        var o = TrainingOptions()
        (o.charBits, o.epochs, o.reserve, o.developmentFraction) = (0, 2, "none", 0.25)
        (o.writesModel, o.holdOut) = (output, holdOut)
        return o
    }

    @Test func trainingGivesTheModelBytesAndALogOfItsFigures() throws {
        let input = try corpus()
        let result = try SentimentTrainingJob.run(
            inputs: [input], lexiconDirectory: Self.lexicons, options: options(output: true), seed: 7,
            output: "m.ftsm")
        let model = try SentimentModelCodec.decode([UInt8](try #require(result.model)), file: "m.ftsm")
        #expect(model.parametersAreFinite)
        #expect(result.report.isEmpty)
        #expect(result.log.hasPrefix("trained logreg on 45 tweets in "))
        #expect(result.log.contains(" s → m.ftsm\ndevelopment split (25 % of each source, seed 7):\n"))
        #expect(!result.log.contains("reserved evaluation share"))
        #expect(result.log.hasSuffix("\n"))
        // Same inputs and seed: the same bytes.
        let again = try SentimentTrainingJob.run(
            inputs: [input], lexiconDirectory: Self.lexicons, options: options(output: true), seed: 7,
            output: "m.ftsm")
        #expect(again.model == result.model)
    }

    @Test func anOutputOverALexiconFileIsRefusedBeforeTraining() throws {
        let lexicon = try #require(SentimentCorpusFiles.lexiconFiles(in: Self.lexicons).first)
        #expect(throws: OutputPathCheck.OverwritesInput.self) {
            try SentimentTrainingJob.run(
                files: [try corpus().path], lexicons: nil, datasets: SystemEvaluationTests.datasets,
                options: options(output: true), seed: 7, output: lexicon.path)
        }
    }

    @Test func optionsThatContradictTheOutputAreRefused() {
        #expect(throws: TrainingOptionsError.self) {
            try SentimentTrainingJob.run(
                inputs: [], lexiconDirectory: Self.lexicons, options: options(output: false), seed: 1, output: nil)
        }
    }
}
