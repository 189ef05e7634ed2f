import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import Capabilities
@testable import TweetSentiment

/// `fieldtest classify` and `fieldtest evaluate sentiment` as one call each, with the shipped model.
@Suite("Sentiment file jobs")
struct SentimentFileJobsTests {
    let datasets = SystemEvaluationTests.datasets

    @Test func classifyReadsTheFileAndLabelsEachRow() throws {
        let input = try SystemEvaluationTests.temporaryFile("in.csv", "id,text\n1,I love this!\n2,I hate this.\n")
        let output = input.deletingLastPathComponent().appendingPathComponent("out-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: output) }
        try SentimentCSV.classify(
            file: input.path, model: nil, datasets: datasets, classes: Set(SentimentLabel.allCases), jobs: 1,
            output: output.path)
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.hasPrefix("id,label,score\n1,positive,") && text.contains("\n2,negative,"))
        // The output may not replace the input it reads.
        #expect(throws: (any Error).self) {
            try SentimentCSV.classify(
                file: input.path, model: nil, datasets: datasets, classes: [.negative, .positive], jobs: 1,
                output: input.path)
        }
    }

    @Test func evaluateGivesTheTableAndTheCSVOfTheSameFigures() throws {
        let input = try SystemEvaluationTests.temporaryFile(
            "labelled.csv", "text,label\nI love this!,positive\nI hate this.,negative\nThe bus is at 8.,neutral\n")
        let report = try SentimentEvaluation.report(
            files: [input.path], model: nil, datasets: datasets, classes: Set(SentimentLabel.allCases),
            reservedOnly: false, output: nil)
        #expect(report.text.contains("all"))
        #expect(report.csv.hasPrefix("source,classes,metric,value\n"))
        let noDefault = TemporaryFiles.url("no-datasets")
        #expect(throws: SentimentModelFile.NoDefaultModel.self) {
            try SentimentEvaluation.report(
                files: [input.path], model: nil, datasets: noDefault, classes: [.positive], reservedOnly: false,
                output: nil)
        }
    }
}
