import FieldtestData
import Foundation
import Testing

@testable import Capabilities
@testable import TweetSentiment

/// `SentimentEvaluation`, the entry point of `fieldtest evaluate sentiment`, and the option
/// parsing the sentiment commands share.
@Suite("Sentiment evaluation entry point")
struct SentimentEvaluationRunTests {
    @Test(arguments: [
        ("negative,positive", [SentimentLabel.negative, .positive]), (" Neutral , positive", [.neutral, .positive]),
        ("negative,neutral,positive", SentimentLabel.allCases),
    ])
    func classListParses(text: String, labels: [SentimentLabel]) throws {
        #expect(try SentimentEvaluation.classes(text) == Set(labels))
    }

    @Test func classListErrorsSayWhatIsAllowed() throws {
        #expect(throws: SentimentEvaluation.ClassListError.unknownClass("happy")) {
            try SentimentEvaluation.classes("negative,happy")
        }
        #expect(throws: SentimentEvaluation.ClassListError.tooFewClasses) {
            try SentimentEvaluation.classes("positive,positive")
        }
        #expect(
            SentimentEvaluation.ClassListError.unknownClass("x").description
                == "error: --classes: 'x' is not a class; use negative, neutral, positive (comma-separated)")
        #expect(try SentimentEvaluation.classes(nil) == Set(SentimentLabel.allCases))
    }

    /// A labelled CSV of one class, evaluated among the two other classes, selects no rows.
    @Test func filtersThatLeaveNoRowAreAnError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("eval-\(UUID().uuidString).csv")
        try "text,label\ngood day,positive\nlovely,positive\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let model = SentimentEvaluationTests.model
        let error = try #require(throws: SentimentEvaluation.NoRowsSelected.self) {
            try SentimentEvaluation.run(model, inputs: [file], classes: [.negative, .neutral], reservedOnly: false)
        }
        #expect(error.loadedCount == 2 && error.reservedCount == nil && error.present == [.positive])
        #expect(
            error.description.hasSuffix(
                "excludes every label present (positive); include at least one of positive in --classes"))
    }

    @Test func reservedSourcesAndSourceWeightsParse() {
        #expect(TrainingConfiguration.reservedSources(parsing: "none") == [])
        #expect(TrainingConfiguration.reservedSources(parsing: "airline, tweetEval") == [.airline, .tweetEval])
        #expect(TrainingConfiguration.reservedSources(parsing: "airline,") == nil)
        #expect(
            TrainingConfiguration.sourceWeights(parsing: ["tweetEval=10", "vader=0.5"]) == [
                .tweetEval: 10, .vader: 0.5,
            ])
        #expect(TrainingConfiguration.sourceWeights(parsing: ["tweetEval"]) == nil)
        #expect(TrainingConfiguration.sourceWeights(parsing: ["nosuch=1"]) == nil)
    }
}

/// The default model is looked for in the datasets folder's `models/`, and its absence says how to point at one.
@Suite("Default sentiment model lookup")
struct DefaultSentimentModelTests {
    @Test func missingDefaultModelSaysWhereItLooked() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-models-\(UUID().uuidString)")
        let expected = empty.appendingPathComponent("models").appendingPathComponent(SentimentModelFile.defaultFileName)
        #expect(SentimentModelFile.url(nil, datasets: empty) == expected)
        #expect(SentimentModelFile.url("m.ftsm", datasets: empty) == URL(fileURLWithPath: "m.ftsm"))
        #expect(throws: SentimentModelFile.NoDefaultModel(url: expected)) {
            try SentimentModelFile.load(nil, datasets: empty)
        }
    }
}
