import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import Capabilities
@testable import TweetSentiment

/// Labelled tweets read by content where no name tells their layout, and NUL bytes refused at their line.
@Suite("Tweet inputs at the boundary")
struct TweetInputBoundsTests {
    static func folder() throws -> URL {
        let dir = TemporaryFiles.url("tweet-bounds")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static let labelled = "text,label\ngreat flight,positive\nlost my bag,negative\nit is a plane,neutral\n"

    @Test("N31: a text,label CSV without a .csv name (as standard input is named) reads as by path")
    func n31LabelledCSVIsToldByContent() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let named = dir.appendingPathComponent("tweets.csv")
        let unnamed = dir.appendingPathComponent("stdin")
        try Self.labelled.write(to: named, atomically: true, encoding: .utf8)
        try Self.labelled.write(to: unnamed, atomically: true, encoding: .utf8)
        let byName = try SentimentCorpusFiles.load([named]).examples
        let byContent = try SentimentCorpusFiles.load([unnamed]).examples
        #expect(byName.count == 3)
        #expect(byContent == byName)
        // Anything else is still an unrecognised file.
        let other = dir.appendingPathComponent("fd1")
        try "just words\nmore words\n".write(to: other, atomically: true, encoding: .utf8)
        #expect(throws: SentimentError.self) { try SentimentCorpusFiles.load([other]) }
    }

    @Test(
        "N29: a NUL byte in tweet text is refused at its file and line by train and evaluate's reader and by classify")
    func n29NULInTweetTextIsRefused() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("nul.csv")
        try Data(Array("text,label\ngood,positive\nbad\u{0}day,negative\n".utf8)).write(to: file)
        do {
            _ = try SentimentCorpusFiles.load([file], displayName: { _ in "nul.csv" })
            Issue.record("a NUL byte in a tweet was accepted")
        } catch {
            #expect(error.description.hasPrefix("nul.csv:3:"), "\(error)")
            #expect(error.description.contains("NUL"), "\(error)")
        }
        let queries = dir.appendingPathComponent("q.csv")
        try Data(Array("id,text\n1,fine\n2,not\u{0}fine\n".utf8)).write(to: queries)
        let out = dir.appendingPathComponent("out.csv")
        #expect(throws: DataError.self) {
            try SentimentCSV.classify(
                file: queries.path, model: nil, datasets: Self.datasets, classes: Set(SentimentLabel.allCases), jobs: 1,
                output: out.path)
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    static let datasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Datasets")
}
