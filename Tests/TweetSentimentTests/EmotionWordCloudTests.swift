import FieldtestData
import Testing

@testable import TweetSentiment

/// Two positive tweets, one negative, one neutral (shared by the cloud and listing suites).
let fourTweets = [
    tweet("1", .positive, 0.9, at: 0, "love love this, good day"),
    tweet("2", .negative, -0.7, at: 0, "I hate it, not good"),
    tweet("3", .positive, 0.5, at: 0, "good vibes :)"),
    tweet("4", .neutral, 0, at: 0, "bus at 8"),
]

@Suite("Word cloud and listing")
struct WordCloudTests {
    let tweets = fourTweets

    @Test func countsLexiconTermsPerClass() {
        let cloud = EmotionWordCloud(tweets: tweets, lexicon: smallLexicon)
        let expected: [CloudTerm] = [
            CloudTerm(term: "good", count: 2, weight: 1), CloudTerm(term: "love", count: 2, weight: 1),
            CloudTerm(term: ":)", count: 1, weight: 0.5),
        ]
        #expect(cloud.top(5, of: .positive) == expected)
        #expect(cloud.top(5, of: .negative).map(\.term) == ["good", "hate"])
        #expect(cloud.top(1).map(\.term) == ["good"])
        #expect(cloud.top(1).first?.count == 3)
        #expect(cloud.top(5, of: .neutral).isEmpty)
    }

    @Test func zeroValenceTermsAreNotEmotionBearing() {
        let lexicon = SentimentLexicon(
            vader: ["good": 1.9, "bus": 0], afinn: ["hate": -3, "day": 0], afinnPhrases: [:])
        let cloud = EmotionWordCloud(tweets: tweets, lexicon: lexicon)
        #expect(cloud.counts == [["good": 1, "hate": 1], [:], ["good": 2]])
        #expect(cloud.distinctTerms() == 2)
    }

    @Test func incrementalWindowMatchesARecount() {
        // Hand counts over the window after the first two tweets leave it.
        var mood = CityMood(windowSeconds: 60)
        var cloud = EmotionWordCloud(lexicon: smallLexicon)
        let first = [tweets[0], tweets[1]]
        let later = [tweet("5", .positive, 0.8, at: 100, "love it, great great :)"), tweets[2], tweets[3]].map {
            var t = $0
            t.timeSeconds = 100
            return t
        }
        cloud.add(first)
        cloud.remove(mood.update(with: first, at: 0))
        cloud.add(later)
        cloud.remove(mood.update(with: later, at: 100))
        #expect(cloud.counts == [[:], [:], ["love": 1, "great": 2, ":)": 2, "good": 1]])
        #expect(cloud == EmotionWordCloud(tweets: mood.tweets, lexicon: smallLexicon))
        let top = cloud.top(2, of: .positive)
        #expect(top.map(\.term) == [":)", "great"])
        // Weights proportional to occurrence, relative to the largest count (tolerance 1e-12).
        #expect(abs((cloud.top(4).last?.weight ?? 0) - 0.5) < 1e-12)
    }
}

@Suite("Tweet listing")
struct TweetListingTests {
    let tweets = fourTweets

    @Test func listsByClassAndWord() {
        #expect(TweetListing.tweets(tweets, in: .positive).map(\.id) == ["1", "3"])
        #expect(TweetListing.tweets(tweets, containing: "GOOD").map(\.id) == ["1", "2", "3"])
        #expect(TweetListing.tweets(tweets, containing: "bus").map(\.id) == ["4"])
        #expect(TweetListing.tweets(tweets, containing: "two words").isEmpty)
        #expect(TweetListing.searchKey("GOOD") == "good")
        #expect(TweetListing.searchKey("two words") == nil)
    }

    @Test func searchWordsAreDistinctWithoutNegation() {
        #expect(TweetListing.searchWords(["not_good", "good", "day", "good"]) == ["good", "day"])
        #expect(TweetListing.searchWords(["<url>", "not_<user>", "ok"]) == ["ok"])
    }
}
