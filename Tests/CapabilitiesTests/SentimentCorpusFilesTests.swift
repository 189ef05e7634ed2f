import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import Capabilities
@testable import TweetSentiment

/// The shipped model, read once, for the file jobs' tests.
enum SentimentFilesFixtures {
    static let datasets = ServedCoreTests.repo.appendingPathComponent("Datasets")
    static let shipped = Result { try SentimentModelFile.load(nil, datasets: datasets) }
    static func model() throws -> SentimentModel { try shipped.get() }
}

/// Labelled tweet files read into a corpus (`SentimentCorpusFiles`), and model files.
@Suite("Sentiment corpus and model files")
struct SentimentCorpusFilesTests {
    /// A Snowflake status ID for a UTC instant (milliseconds since 1970).
    static func snowflakeID(milliseconds: UInt64) -> UInt64 {
        (milliseconds - SemEvalTweet.snowflakeEpochMilliseconds) << 22 | 7
    }

    /// Milliseconds since 1970 of midnight UTC on a date.
    static func utcMilliseconds(_ year: Int, _ month: Int, _ day: Int) -> UInt64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day))!
        return UInt64((date.timeIntervalSince1970 * 1000).rounded())
    }

    @Test func trainingFilesRecogniseTheLayoutAndGroupByYear() throws {
        let dir = TemporaryFiles.url("semeval")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = Self.snowflakeID(milliseconds: Self.utcMilliseconds(2013, 3, 1))
        let b = Self.snowflakeID(milliseconds: Self.utcMilliseconds(2015, 9, 1))
        let url = dir.appendingPathComponent("tweets.tsv")
        try Data("id\tlabel\ttext\n\(a)\tpositive\tnice day\n\(b)\tnegative\tawful day\n".utf8).write(to: url)
        let corpus = try SentimentCorpusFiles.load([url])
        #expect(corpus.examples.map(\.source) == [.semEval, .semEval])
        #expect(corpus.examples.map(\.group) == ["2013", "2015"])
    }

    /// The organisers' own files have no header (the SemEval-2017 test gold is a headerless `.txt`);
    /// they are recognised by their rows, whatever the file is called.
    @Test func headerlessRowsAreReadFromAnyFileName() throws {
        let (a, b) = (Self.snowflakeID(milliseconds: Self.utcMilliseconds(2016, 11, 25)), UInt64(42))
        let file = "\u{FEFF}\(a)\tneutral\tbus at 8\n\(b)\tpositive\tlove it\t\n"
        let loaded = try SemEvalTweetsLoader.parse(Array(file.utf8), file: "gold.txt")
        #expect(loaded.records.map(\.id) == [a, b])
        #expect(loaded.records.map(\.label) == [.neutral, .positive])
        #expect(loaded.records.map(\.text) == ["bus at 8", "love it"])
        #expect(loaded.records.map(\.line) == [1, 2])
        #expect(loaded.report.rowsLoaded == 2)
        let dir = TemporaryFiles.url("semeval")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("SemEval2017-task4-test.subtask-A.english.txt")
        try Data(file.utf8).write(to: url)
        let corpus = try SentimentCorpusFiles.load([url])
        #expect(corpus.examples.map(\.source) == [.semEval, .semEval])
        #expect(corpus.examples.map(\.group).first == "2016")
    }

    @Test func saveAndLoadThroughAFile() throws {
        let url = TemporaryFiles.url("ftsm.ftsm")
        defer { try? FileManager.default.removeItem(at: url) }
        let model = try SentimentFilesFixtures.model()
        try SentimentModelFile.save(model, to: url)
        #expect(try SentimentModelFile.load(url) == model)
    }

    @Test func reportCSVListsEachEvaluatedClass() throws {
        let corpus = TrainingCorpus(examples: [
            TrainingExample(text: "I love it, great day :)", label: .positive, source: .labelledCSV),
            TrainingExample(text: "hate this, terrible", label: .negative, source: .labelledCSV),
        ])
        let all = SentimentTrainer.evaluate(
            try SentimentFilesFixtures.model(), on: corpus, classes: [.negative, .positive], includesTotal: true)
        let csv = SentimentTrainer.reportCSV(all)
        #expect(csv.hasPrefix("source,classes,metric,value\nlabelledCSV,negative+positive,n,2\n"))
        #expect(csv.contains("all,negative+positive,accuracy,"))
        #expect(!csv.contains("recall_neutral"))
    }
}

@Suite("CSV classification")
struct SentimentCSVTests {
    @Test func classifiesQuotedRows() throws {
        let input = "id,text\n1,\"I love it, great day :)\"\n2,\"hate this\nterrible\"\n"
        let out = try SentimentCSV.classify(
            Array(input.utf8), file: "in.csv", model: try SentimentFilesFixtures.model())
        let lines = out.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "id,label,score")
        #expect(lines[1].hasPrefix("1,positive,"))
        #expect(lines[2].hasPrefix("2,negative,-"))
    }

    @Test func parallelRunsGiveTheSameBytesInInputOrder() throws {
        // Enough rows for three runs of `rowsPerJob`, plus a remainder, so every boundary is crossed.
        let count = 3 * SentimentCSV.rowsPerJob + 7
        let texts = [
            "I love it, great day :)", "hate this\nterrible", "the bus leaves at 8", "not good at all!!!",
            "soooo happy #WinningDay",
        ]
        var input = CSVWriter()
        input.row(["id", "text"])
        for k in 0..<count { input.row(["t\(k)", texts[k % texts.count] + (k % 3 == 0 ? " \(k)" : "")]) }
        let model = try SentimentFilesFixtures.model()
        let serial = try SentimentCSV.classify(input.bytes, file: "in.csv", model: model, jobs: 1)
        let lines = serial.split(separator: "\n")
        #expect(lines.count == count + 1)
        for k in [0, 1, SentimentCSV.rowsPerJob - 1, SentimentCSV.rowsPerJob, count - 1] {
            #expect(lines[k + 1].hasPrefix("t\(k),"))
        }
        for jobs in [2, 3, 4, 16] {
            #expect(
                try SentimentCSV.classify(input.bytes, file: "in.csv", model: model, jobs: jobs) == serial,
                "jobs \(jobs)")
        }
    }

    /// The byte-level reading (`CSVByteColumns`) and the general one (`CSVTable`) give the same output.
    @Test func fastReadingWritesWhatTheGeneralReadingWrites() throws {
        var input = CSVWriter()
        input.row(["text", "id", "note"])
        let texts =
            ScorerExactnessTests.tricky + [
                "caf\u{E9} au lait :)", "\"quoted\" text, with comma", "two\r\nlines", "", "&lt;3 &amp; more",
            ]
        for (k, text) in texts.enumerated() { input.row([text, k % 4 == 0 ? "id \"\(k)\", quoted" : "r\(k)", "n"]) }
        let bytes = input.bytes
        #expect(CSVByteColumns.scan(bytes, columns: ["id", "text"]) != nil)
        for model in [try SentimentFilesFixtures.model()] {
            let general = try SentimentCSV.classifyReadingTable(
                bytes, file: "in.csv", model: model, classes: Set(SentimentLabel.allCases), jobs: 1)
            #expect(try SentimentCSV.classify(bytes, file: "in.csv", model: model) == general)
            #expect(general.split(separator: "\n").count > texts.count)
            let binary: Set<SentimentLabel> = [.negative, .positive]
            #expect(
                try SentimentCSV.classify(bytes, file: "in.csv", model: model, classes: binary)
                    == (try SentimentCSV.classifyReadingTable(
                        bytes, file: "in.csv", model: model, classes: binary, jobs: 1)))
        }
    }

    @Test func missingColumnIsAnError() {
        #expect(throws: DataError.missingColumn(file: "in.csv", column: "text")) {
            try SentimentCSV.classify(
                Array("id,tweet\n1,hi\n".utf8), file: "in.csv", model: try SentimentFilesFixtures.model())
        }
    }
}
