import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import Capabilities
@testable import TweetSentiment

/// `SentimentEvaluation.run` over labelled files, the entry point of `fieldtest evaluate sentiment`.
@Suite("Sentiment evaluation of files")
struct SentimentEvaluationFilesTests {
    /// A labelled CSV of one class, evaluated among the two other classes, selects no rows.
    @Test func filtersThatLeaveNoRowAreAnError() throws {
        let file = TemporaryFiles.url("eval.csv")
        try "text,label\ngood day,positive\nlovely,positive\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let model = try SentimentFilesFixtures.model()
        let error = try #require(throws: SentimentEvaluation.NoRowsSelected.self) {
            try SentimentEvaluation.run(model, inputs: [file], classes: [.negative, .neutral], reservedOnly: false)
        }
        #expect(error.loadedCount == 2 && error.reservedCount == nil && error.present == [.positive])
        #expect(
            error.description.hasSuffix(
                "excludes every label present (positive); include at least one of positive in --classes"))
    }
}

/// The default model is looked for in the datasets folder's `models/`, and its absence says how to point at one.
@Suite("Default sentiment model lookup")
struct DefaultSentimentModelTests {
    @Test func missingDefaultModelSaysWhereItLooked() throws {
        let empty = TemporaryFiles.url("no-models")
        let expected = empty.appendingPathComponent("models").appendingPathComponent(SentimentModelFile.defaultFileName)
        #expect(SentimentModelFile.url(nil, datasets: empty) == expected)
        #expect(SentimentModelFile.url("m.ftsm", datasets: empty) == URL(fileURLWithPath: "m.ftsm"))
        #expect(throws: SentimentModelFile.NoDefaultModel(url: expected)) {
            try SentimentModelFile.load(nil, datasets: empty)
        }
    }
}
