import Foundation
import Testing

@testable import FieldtestData

/// Locates a tweets fixture copied into the test bundle.
private func fixture(_ name: String) throws -> URL {
    let base = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return base.appendingPathComponent("tweets").appendingPathComponent(name)
}

/// The bundled datasets folder, found from this file's location.
private let datasets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Datasets").standardizedFileURL

@Suite("Sentiment140 loader")
struct Sentiment140LoaderTests {
    @Test func loadsLinesWithTheFileLabel() throws {
        let loaded = try Sentiment140Loader.load(
            url: fixture("s140_positive.txt"), label: .positive, displayName: "pos.txt")
        #expect(loaded.records.count == 3)
        #expect(loaded.records.map(\.line) == [1, 3, 4])
        #expect(loaded.records.allSatisfy { $0.label == .positive })
        #expect(loaded.records[2].text == "café au lait 😍")
    }

    @Test func invalidUTF8IsLocatedWhenStrict() throws {
        #expect(throws: DataError.invalidUTF8(file: "bad.txt", line: 2, field: nil)) {
            try Sentiment140Loader.load(url: fixture("s140_bad_utf8.txt"), label: .negative, displayName: "bad.txt")
        }
    }

    @Test func invalidUTF8IsSkippedAndCountedWhenLenient() throws {
        let loaded = try Sentiment140Loader.load(
            url: fixture("s140_bad_utf8.txt"), label: .negative,
            displayName: "bad.txt", policy: .lenient)
        #expect(loaded.records.map(\.text) == ["fine line", "another fine line"])
        #expect(loaded.report.rowsSkipped == 1)
        #expect(loaded.report.rowsLoaded == 2)
    }

    @Test(arguments: [
        ("sentiment140_positive.txt", SentimentLabel?.some(.positive)),
        ("negative.txt", .some(.negative)), ("tweets.txt", nil),
    ])
    func labelFromFileName(name: String, expected: SentimentLabel?) {
        #expect(Sentiment140Loader.label(forFileName: name) == expected)
    }
}

@Suite("Airline tweets loader")
struct AirlineTweetsLoaderTests {
    @Test func readsQuotedMultiLineFields() throws {
        let loaded = try AirlineTweetsLoader.load(url: fixture("airline_small.csv"), displayName: "air.csv")
        #expect(loaded.records.count == 4)
        let multi = loaded.records[2]
        #expect(
            multi.text
                == "@VirginAmerica seriously would pay $30 a flight.\nit's really the only bad thing about flying VA")
        #expect(multi.line == 4)
        #expect(multi.negativeReason == "Can't Tell")
        #expect(loaded.records[3].line == 6)
        #expect(loaded.records[1].text.contains("\"entertainment\""))
        #expect(loaded.records.map(\.sentiment) == [.neutral, .negative, .negative, .positive])
        #expect(loaded.records[0].tweetID == 570_306_133_677_760_513)
    }

    @Test func unknownLabelIsALocatedError() throws {
        #expect(
            throws: DataError.invalidField(
                file: "air.csv", line: 4, field: "airline_sentiment", value: "angry",
                reason: "expected negative, neutral or positive")
        ) {
            try AirlineTweetsLoader.load(url: fixture("airline_bad_label.csv"), displayName: "air.csv")
        }
    }

    @Test func lenientSkipsTheBadRow() throws {
        let loaded = try AirlineTweetsLoader.load(
            url: fixture("airline_bad_label.csv"), displayName: "air.csv", policy: .lenient)
        #expect(loaded.records.map(\.sentiment) == [.neutral, .positive])
        #expect(loaded.report.rowsSkipped == 1)
    }

    @Test(arguments: [
        ("2/24/2015 11:35", true), ("12/1/2015 0:05", true), ("13/1/2015 1:00", false),
        ("2/24/2015", false), ("2/24/2015 11:5", false), ("2/24/2015 24:00", false),
    ])
    func timestamps(text: String, valid: Bool) {
        #expect(AirlineTweetsLoader.isTimestamp(text) == valid)
    }
}

@Suite("TweetEval loader")
struct TweetEvalLoaderTests {
    @Test func joinsTextsAndLabels() throws {
        let loaded = try TweetEvalLoader.load(
            text: fixture("tweeteval_text.txt"), labels: fixture("tweeteval_labels.txt"),
            mapping: fixture("tweeteval_mapping.txt"))
        #expect(loaded.records.map(\.label) == [.neutral, .negative, .positive])
        #expect(loaded.records[2].text == "best day ever @user")
    }

    @Test func lineCountsMustMatch() throws {
        #expect(
            throws: DataError.badLayout(
                file: "l.txt", line: 3,
                reason: "2 labels for 3 tweets in t.txt; the files must have one line each per tweet")
        ) {
            try TweetEvalLoader.parse(
                text: readFileBytes(fixture("tweeteval_text.txt")), textFile: "t.txt",
                labels: readFileBytes(fixture("tweeteval_labels_short.txt")), labelsFile: "l.txt")
        }
    }

    @Test func labelOutsideTheMappingIsAnError() throws {
        #expect(
            throws: DataError.invalidField(file: "l.txt", line: 2, field: "label", value: "3", reason: "outside 0…2")
        ) {
            try TweetEvalLoader.parse(
                text: readFileBytes(fixture("tweeteval_text.txt")), textFile: "t.txt",
                labels: readFileBytes(fixture("tweeteval_labels_bad.txt")), labelsFile: "l.txt")
        }
        let lenient = try TweetEvalLoader.parse(
            text: readFileBytes(fixture("tweeteval_text.txt")), textFile: "t.txt",
            labels: readFileBytes(fixture("tweeteval_labels_bad.txt")), labelsFile: "l.txt",
            policy: .lenient)
        #expect(lenient.records.map(\.label) == [.neutral, .positive])
        #expect(lenient.records.map(\.line) == [1, 3])
        #expect(lenient.report.rowsSkipped == 1)
    }

    @Test func swappedMappingIsRejected() throws {
        #expect(
            throws: DataError.invalidField(
                file: "m.txt", line: 2, field: "name", value: "positive",
                reason: "expected 'neutral' for index 1")
        ) {
            try TweetEvalLoader.loadMapping(url: fixture("tweeteval_mapping_swapped.txt"), displayName: "m.txt")
        }
    }
}

@Suite("VADER tweets loader")
struct VaderTweetsLoaderTests {
    @Test func groundTruthWithCRLF() throws {
        let loaded = try VaderTweetsLoader.loadGroundTruth(url: fixture("vader_gt.txt"))
        #expect(loaded.records.map(\.id) == [1, 4, 7])
        #expect(abs(loaded.records[0].meanRating - 2.726315789) < 1e-12)
        #expect(loaded.records[0].text == "So lucky &amp; happy.")
        #expect(loaded.records.map { $0.label() } == [.positive, .negative, .neutral])
    }

    @Test func ratingsListMustMatchTheMean() throws {
        let ok = try VaderTweetsLoader.loadRatings(url: fixture("vader_ratings.txt"))
        #expect(ok.records.map(\.ratings) == [[2, 3, 3, 2], [-2, -3]])
        #expect(
            throws: DataError.invalidField(
                file: "r.txt", line: 2, field: "mean", value: "-1.0",
                reason: "differs from the mean of the listed ratings (-2.5)")
        ) {
            try VaderTweetsLoader.loadRatings(url: fixture("vader_ratings_bad_mean.txt"), displayName: "r.txt")
        }
    }

    @Test(arguments: [
        (0.49, SentimentLabel.neutral), (0.5, .positive), (-0.5, .negative), (-0.2, .neutral), (3.9, .positive),
    ])
    func meanToClassMapping(mean: Double, expected: SentimentLabel) {
        #expect(VaderTweet(id: 1, meanRating: mean, text: "x", line: 1).label() == expected)
    }
}

@Suite("Bundled tweet datasets")
struct BundledTweetDatasetsTests {
    @Test(arguments: [
        ("tweets/sentiment140_positive.txt", DatasetFormat.tweetLines, 50000),
        ("tweets/airline_Tweets.csv", .airlineTweets, 14640),
        ("tweets/tweeteval_val_text.txt", .tweetevalText, 2000),
        ("tweets/tweeteval_val_labels.txt", .tweetevalLabels, 2000),
        ("tweets/tweeteval_mapping.txt", .tweetevalMapping, 3),
        ("tweets/vader_tweets_GroundTruth.train.txt", .vaderGroundTruth, 3360),
        ("tweets/vader_tweets_anonDataRatings.train.txt", .vaderRatings, 3360),
        ("lexicons/vader_lexicon.txt", .vaderLexicon, 7520),
        ("lexicons/emoji_utf8_lexicon.txt", .emojiLexicon, 3570),
        ("lexicons/AFINN-111.txt", .afinn, 2477),
    ])
    func strictCountsMatchTheManifest(file: String, format: DatasetFormat, rows: Int) throws {
        let n = try TweetLoaders.countRecords(
            format: format, url: datasets.appendingPathComponent(file), displayName: file)
        #expect(n == rows)
    }

    @Test func airlineClassCountsMatchTheSource() throws {
        let loaded = try AirlineTweetsLoader.load(url: datasets.appendingPathComponent("tweets/airline_Tweets.csv"))
        let counts = Dictionary(grouping: loaded.records, by: \.sentiment).mapValues(\.count)
        #expect(counts == [.negative: 9178, .neutral: 3099, .positive: 2363])
    }
}
