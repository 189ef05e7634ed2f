import FieldtestData
import Foundation
import Testing

@testable import TweetSentiment

/// A Snowflake status ID for a UTC instant (milliseconds since 1970) and a sequence number.
func snowflakeID(milliseconds: UInt64, sequence: UInt64 = 7) -> UInt64 {
    (milliseconds - SemEvalTweet.snowflakeEpochMilliseconds) << 22 | sequence
}

/// Milliseconds since 1970 of a UTC date and time.
func utcMilliseconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0)
    -> UInt64
{
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(
        from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    return UInt64((date.timeIntervalSince1970 * 1000).rounded())
}

@Suite("SemEval tweets loader")
struct SemEvalTweetsLoaderTests {
    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func parsesHeaderAndRows() throws {
        let file =
            "id\tlabel\ttext\n11\tpositive\tsunny and warm :)\n12\tneutral\tbus at 8\r\n13\tnegative\tlate again\n"
        let loaded = try SemEvalTweetsLoader.parse(Self.bytes(file), file: "t.tsv")
        #expect(loaded.records.map(\.id) == [11, 12, 13])
        #expect(loaded.records.map(\.label) == [.positive, .neutral, .negative])
        #expect(loaded.records.map(\.text) == ["sunny and warm :)", "bus at 8", "late again"])
        #expect(loaded.records.map(\.line) == [2, 3, 4])
        #expect(loaded.report.rowsLoaded == 3)
    }

    @Test func rejectsAnotherHeader() {
        #expect(throws: DataError.self) {
            try SemEvalTweetsLoader.parse(Self.bytes("label\tid\ttext\n1\tpositive\tx\n"), file: "t.tsv")
        }
        #expect(!SemEvalTweetsLoader.looksLikeSemEval(Self.bytes("id\tlabel\ttext2\n")))
    }

    @Test(arguments: ["1\tgood\tnice", "x1\tpositive\tnice", "1\tpositive", "1\tpositive\t  "])
    func badRowsAreErrorsOrSkippedWhenLenient(row: String) throws {
        let file = "id\tlabel\ttext\n5\tneutral\tok then\n\(row)\n"
        #expect(throws: DataError.self) { try SemEvalTweetsLoader.parse(Self.bytes(file), file: "t.tsv") }
        let lenient = try SemEvalTweetsLoader.parse(Self.bytes(file), file: "t.tsv", policy: .lenient)
        #expect(lenient.records.map(\.id) == [5])
        #expect(lenient.report.rowsLoaded == 1)
    }

    @Test func duplicateIDsAreRejected() {
        let file = "id\tlabel\ttext\n5\tneutral\tok then\n5\tpositive\tyay\n"
        #expect(
            throws: DataError.invalidField(
                file: "t.tsv", line: 3, field: "id", value: "5", reason: "duplicate tweet ID")
        ) {
            try SemEvalTweetsLoader.parse(Self.bytes(file), file: "t.tsv")
        }
    }

    @Test func postedYearIsReadFromSnowflakeIDs() {
        func year(_ id: UInt64) -> Int? { SemEvalTweet(id: id, label: .neutral, text: "x", line: 1).postedYear }
        #expect(year(snowflakeID(milliseconds: utcMilliseconds(2014, 12, 31, 23, 59, 59))) == 2014)
        #expect(year(snowflakeID(milliseconds: utcMilliseconds(2015, 1, 1))) == 2015)
        #expect(year(snowflakeID(milliseconds: utcMilliseconds(2012, 10, 20, 12))) == 2012)
        // Sequential pre-Snowflake IDs carry no time.
        #expect(year(20) == nil)
        #expect(year(29_000_000_000) == nil)
    }

    /// SemEval-2013's layout: a user ID before the label, labels in quotes, `objective-OR-neutral`.
    @Test func semEval2013LayoutAndLabels() throws {
        let file =
            "364183816548130816\t15140428\t\"positive\"\tsunny at the beach!!!!\n"
            + "263405084770172928\t591166521\t\"objective-OR-neutral\"\tmeeting at 4\n"
            + "262163168678248449\t35266263\tNegative\tworst day\n"
        let loaded = try SemEvalTweetsLoader.parse(Self.bytes(file), file: "twitter-test-B.tsv")
        #expect(loaded.records.map(\.label) == [.positive, .neutral, .negative])
        #expect(loaded.records.map(\.text) == ["sunny at the beach!!!!", "meeting at 4", "worst day"])
    }

    /// Other tab-separated files are not taken for SemEval rows: VADER's ratings, plain text, a row
    /// whose second column is no label.
    @Test(arguments: ["1\t2.726315789\tSo lucky.\n", "just a tweet\n", "12\tgood\tnice\n", ""])
    func otherFilesAreNotSemEval(text: String) {
        #expect(!SemEvalTweetsLoader.looksLikeSemEval(Self.bytes(text)))
    }
}

@Suite("Leave-one-out calibration")
struct SentimentCalibrationTests {
    @Test func heldOutPartsParse() {
        #expect(HeldOutPart("semEval:2015") == HeldOutPart(source: .semEval, group: "2015"))
        #expect(HeldOutPart("vader") == HeldOutPart(source: .vader))
        #expect(HeldOutPart("vader")?.description == "vader")
        #expect(HeldOutPart("semEval:2015")?.description == "semEval:2015")
        #expect(HeldOutPart("semEval:") == nil)
        #expect(HeldOutPart("twitter:2015") == nil)
    }

    @Test func holdingOutDropsRepeatsOfHeldOutTweetsFromOtherSources() {
        var corpus = TrainingCorpus()
        corpus.add(semEval: [
            SemEvalTweet(
                id: snowflakeID(milliseconds: utcMilliseconds(2015, 5, 1)), label: .positive,
                text: "@somebody Loving the new album http://t.co/x", line: 2),
            SemEvalTweet(
                id: snowflakeID(milliseconds: utcMilliseconds(2013, 5, 1)), label: .neutral, text: "bus at 8", line: 3),
        ])
        corpus.add(
            [
                LabelledTweet(text: "@user loving the new album", label: .positive, line: 1),
                LabelledTweet(text: "the train leaves soon", label: .neutral, line: 2),
            ], source: .tweetEval)
        let (train, held, dropped) = corpus.holdingOut(HeldOutPart(source: .semEval, group: "2015"))
        #expect(held.examples.map(\.text) == ["@somebody Loving the new album http://t.co/x"])
        #expect(train.examples.map(\.text) == ["bus at 8", "the train leaves soon"])
        #expect(dropped == 1)
        let whole = corpus.holdingOut(HeldOutPart(source: .tweetEval))
        #expect(whole.heldOut.examples.count == 2)
        #expect(whole.training.examples.map(\.text) == ["bus at 8"])
    }

    @Test func macroRecallWithOffsetsMatchesAHandCount() {
        // Two neutral tweets that lean negative; offsets +0.5 on neutral recover one of them.
        let p = HeldOutPredictions(
            logProbabilities: [
                [log(0.5), log(0.4), log(0.1)], [log(0.7), log(0.2), log(0.1)],
                [log(0.8), log(0.1), log(0.1)], [log(0.1), log(0.2), log(0.7)],
            ],
            labels: [.neutral, .neutral, .negative, .positive])
        #expect(abs(p.macroRecall(offsets: [0, 0, 0]) - (1 + 0 + 1) / 3) < 1e-12)
        #expect(abs(p.macroRecall(offsets: [0, 0.5, 0]) - (1 + 0.5 + 1) / 3) < 1e-12)
    }

    @Test func bestOffsetsCorrectAShiftedDecisionAndPreferTheSmallestCorrection() {
        // Every neutral tweet is 0.4 nats short of negative; negatives and positives are clear.
        var p = HeldOutPredictions()
        for k in 0..<20 {
            let d = Double(k) * 0.01
            p.logProbabilities.append([0, -0.4 - d, -3])
            p.labels.append(.neutral)
            p.logProbabilities.append([0, -1.5 - d, -3])
            p.labels.append(.negative)
            p.logProbabilities.append([-3, -1.5 - d, 0])
            p.labels.append(.positive)
        }
        let (offsets, score) = SentimentCalibration.bestOffsets([p])
        #expect(p.macroRecall(offsets: [0, 0, 0]) < 0.7)
        #expect(score == 1)
        // Neutral needs an offset above 0.59 and below 1.5; the smallest such grid step is 0.6.
        #expect(offsets[0] == 0 && offsets[2] == 0)
        #expect(abs(offsets[1] - 0.6) < 1e-9)
    }

    @Test func offsetsAreAddedToTheTrainedBiasOnly() throws {
        var plain = TrainingConfiguration()
        var shifted = TrainingConfiguration()
        plain.hashBits = 12
        plain.charBits = 10
        shifted = plain
        shifted.classLogOffsets = [0.25, -0.5, 0.125]
        var r1 = SeededGenerator(seed: 3)
        var r2 = SeededGenerator(seed: 3)
        guard
            case .logisticRegression(let a) = SentimentTrainer.train(
                corpus: smallCorpus(), lexicon: smallLexicon, configuration: plain, using: &r1),
            case .logisticRegression(let b) = SentimentTrainer.train(
                corpus: smallCorpus(), lexicon: smallLexicon, configuration: shifted, using: &r2)
        else {
            Issue.record("expected logistic regression models")
            return
        }
        #expect(a.weights == b.weights)
        #expect(zip(a.bias, b.bias).map { $1 - $0 } == [0.25, -0.5, 0.125])
    }

    @Test(arguments: [[0.0, 0.0], [0, 0, 11], [0, .nan, 0]])
    func offsetsOutOfRangeAreRejected(offsets: [Double]) {
        var c = TrainingConfiguration()
        c.classLogOffsets = offsets
        #expect(throws: SentimentError.self) { try c.validate() }
    }

    /// Four groups of three-class tweets: two SemEval years and a bundled-style source.
    static func groupedCorpus() -> TrainingCorpus {
        var corpus = smallCorpus()
        let base = smallCorpus().examples
        var tweets: [SemEvalTweet] = []
        for (k, e) in base.enumerated() {
            let when = k % 2 == 0 ? utcMilliseconds(2013, 1, 1 + k) : utcMilliseconds(2015, 1, 1 + k)
            tweets.append(
                SemEvalTweet(
                    id: snowflakeID(milliseconds: when, sequence: UInt64(k)), label: e.label,
                    text: e.text + " (\(k % 2 == 0 ? "then" : "now"))", line: k + 2))
        }
        corpus.add(semEval: tweets)
        return corpus
    }

    @Test func leaveOneOutHoldsEachPartOutAndIsDeterministic() throws {
        var c = TrainingConfiguration()
        c.hashBits = 12
        c.charBits = 10
        c.logisticRegression.epochs = 10
        let parts = [
            HeldOutPart(source: .semEval, group: "2013"), HeldOutPart(source: .semEval, group: "2015"),
            HeldOutPart(source: .labelledCSV),
        ]
        let run = { () throws(SentimentError) -> SentimentCalibration.Outcome in
            try SentimentCalibration.leaveOneOut(
                corpus: Self.groupedCorpus(), lexicon: smallLexicon, configuration: c, seed: 4,
                parts: parts, calibrateOn: Set(parts.prefix(2)))
        }
        let a = try run()
        let b = try run()
        #expect(a.parts.map(\.part) == parts)
        #expect(a.parts.map(\.predictions.labels.count) == [15, 15, 30])
        // The held-out part and nothing else is left out (no texts repeat across the parts).
        #expect(a.parts.map(\.trainingCount) == [45, 45, 30])
        #expect(a.parts.map(\.droppedDuplicates) == [0, 0, 0])
        #expect(a.offsets == b.offsets)
        #expect(a.parts.map(\.evaluation) == b.parts.map(\.evaluation))
        #expect(a.offsets[0] == 0 && a.offsets[2] == 0)
        #expect(a.meanMacroRecallAfter >= a.meanMacroRecallBefore)
        #expect(a.parts[2].ownBestOffsets != nil)
        let report = SentimentCalibration.report(a)
        #expect(report.contains("held out semEval:2015: 15 tweets; trained on 45"))
        #expect(report.contains("chosen --class-offsets"))
    }
}
