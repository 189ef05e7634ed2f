import FieldtestData
import Testing
@testable import TweetSentiment

func tweet(_ id: String, _ label: SentimentLabel, _ score: Double, at t: Double, _ text: String = "") -> ClassifiedTweet {
    ClassifiedTweet(id: id, text: text, tokens: TweetTokenizer().tokenize(text), label: label, score: score, timeSeconds: t)
}

@Suite("City mood")
struct CityMoodTests {
    @Test func readingOverTheWindow() {
        var mood = CityMood(windowSeconds: 100)
        mood.update(with: [tweet("1", .positive, 0.8, at: 0), tweet("2", .negative, -0.6, at: 0)], at: 0)
        mood.update(with: [tweet("3", .positive, 0.4, at: 80), tweet("4", .neutral, 0, at: 80)], at: 80)
        var r = mood.reading
        #expect(r.label == .positive)
        #expect(r.counts == [1, 1, 2])
        // Tolerance 1e-12: small exact ratios.
        #expect(abs(r.confidence - 0.5) < 1e-12)
        #expect(abs(r.netPolarity - 0.25) < 1e-12)
        #expect(abs(r.meanScore - 0.15) < 1e-12)
        // At t = 100 the two tweets of t = 0 leave the window.
        mood.evict(at: 100)
        r = mood.reading
        #expect(r.counts == [0, 1, 1])
        #expect(r.label == .neutral)   // tie → neutral
        mood.evict(at: 500)
        #expect(mood.reading == MoodReading(label: .neutral, confidence: 0, counts: [0, 0, 0], netPolarity: 0, meanScore: 0))
    }

    @Test func difficultyIsMonotone() {
        var last = Double.infinity
        for k in -10...10 {
            let d = GameDifficulty.difficulty(netPolarity: Double(k) / 10)
            #expect(d < last)
            #expect((1...2).contains(d))
            last = d
        }
        #expect(abs(GameDifficulty.difficulty(netPolarity: -1) - 2) < 1e-12)
        #expect(abs(GameDifficulty.pointsMultiplier(netPolarity: 1) - 2) < 1e-12)
        #expect(abs(GameDifficulty.difficulty(netPolarity: 7) - 1) < 1e-12)
    }
}

@Suite("Word cloud and listing")
struct WordCloudTests {
    let tweets = [
        tweet("1", .positive, 0.9, at: 0, "love love this, good day"),
        tweet("2", .negative, -0.7, at: 0, "I hate it, not good"),
        tweet("3", .positive, 0.5, at: 0, "good vibes :)"),
        tweet("4", .neutral, 0, at: 0, "bus at 8"),
    ]

    @Test func countsLexiconTermsPerClass() {
        let cloud = EmotionWordCloud(tweets: tweets, lexicon: smallLexicon)
        let expected: [CloudTerm] = [CloudTerm(term: "good", count: 2, weight: 1), CloudTerm(term: "love", count: 2, weight: 1),
                                     CloudTerm(term: ":)", count: 1, weight: 0.5)]
        #expect(cloud.top(5, of: .positive) == expected)
        #expect(cloud.top(5, of: .negative).map(\.term) == ["good", "hate"])
        #expect(cloud.top(1).map(\.term) == ["good"])
        #expect(cloud.top(1).first?.count == 3)
        #expect(cloud.top(5, of: .neutral).isEmpty)
    }

    @Test func listsByClassAndWord() {
        #expect(TweetListing.tweets(tweets, in: .positive).map(\.id) == ["1", "3"])
        #expect(TweetListing.tweets(tweets, containing: "GOOD").map(\.id) == ["1", "2", "3"])
        #expect(TweetListing.tweets(tweets, containing: "bus").map(\.id) == ["4"])
        #expect(TweetListing.tweets(tweets, containing: "two words").isEmpty)
    }
}

@Suite("Rate limiting")
struct RateLimitTests {
    @Test func bucketRefillsAtItsRate() {
        var b = TokenBucket(capacity: 2, refillPerSecond: 0.5)
        let first = b.tryTake(at: 0)
        let second = b.tryTake(at: 0)
        #expect(first && second)
        let third = b.tryTake(at: 0)
        #expect(!third)
        #expect(abs(b.nextAvailableSeconds(at: 0) - 2) < 1e-12)
        let early = b.tryTake(at: 1.9)
        let onTime = b.tryTake(at: 2)
        #expect(!early && onTime)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func burstsNeverExceedTheWindowLimit(seed: UInt64) {
        // A client wanting far more than allowed: bursts of 1–40 attempts at random virtual times.
        let limit = 15, window = 900.0
        var api = EmulatedTweetAPI(stream: (0..<50).map { RecordedTweet(id: "\($0)", text: "t\($0)") }, requestLimit: limit, windowSeconds: window)
        var client = RateLimitedClient(bucket: .never(exceeding: limit, perWindowOf: window))
        var rng = SeededGenerator(seed: seed)
        var t = 0.0
        var sent = 0
        while t < 20 * window {
            t += Double.random(in: 0...120, using: &rng)
            for _ in 0..<Int.random(in: 1...40, using: &rng) where client.acquire(at: t) {
                sent += 1
                if case .tweets = api.fetch(count: 100, at: t) { client.recordSuccess() }
            }
        }
        #expect(sent > 100)
        #expect(api.maxRequestsInAnyWindow <= limit)
        #expect(api.rejectionsPerWindow.isEmpty)
    }

    @Test func backsOffOnTooManyRequests() {
        // The server allows fewer requests than the client assumes.
        var api = EmulatedTweetAPI(stream: [RecordedTweet(id: "1", text: "x")], requestLimit: 2, windowSeconds: 60)
        var client = RateLimitedClient(bucket: TokenBucket(capacity: 10, refillPerSecond: 1), baseBackoffSeconds: 5, maxBackoffSeconds: 40)
        var rejections: [Double] = []
        var t = 0.0
        while t < 60 {
            if client.acquire(at: t) {
                switch api.fetch(count: 1, at: t) {
                case .tooManyRequests(let retry):
                    rejections.append(t)
                    client.recordTooManyRequests(at: t, retryAfterSeconds: retry)
                case .tweets: client.recordSuccess()
                case .unavailable: break
                }
            }
            t += 1
        }
        // Two answered at t = 0, 1; rejected at t = 2 with retry-after 58 s → blocked until 60.
        #expect(rejections == [2])
        #expect(abs(client.blockedUntilSeconds - 60) < 1e-12)
        #expect(api.requestsPerWindow[0] == 3)
    }

    @Test func exponentialBackoffWithCap() {
        var client = RateLimitedClient(bucket: TokenBucket(capacity: 1, refillPerSecond: 1), baseBackoffSeconds: 5, maxBackoffSeconds: 30)
        var delays: [Double] = []
        for _ in 0..<5 {
            client.recordTooManyRequests(at: 100, retryAfterSeconds: nil)
            delays.append(client.blockedUntilSeconds - 100)
        }
        #expect(delays == [5, 10, 20, 30, 30])
        client.recordSuccess()
        client.recordTooManyRequests(at: 0, retryAfterSeconds: 12)
        #expect(client.blockedUntilSeconds == 12)
    }
}

@Suite("Emulated tweet API")
struct EmulatedTweetAPITests {
    @Test func replaysInOrderAndLoops() {
        var api = EmulatedTweetAPI(stream: (0..<5).map { RecordedTweet(id: "\($0)", text: "") }, requestLimit: 10, windowSeconds: 60)
        guard case .tweets(let a) = api.fetch(count: 3, at: 0), case .tweets(let b) = api.fetch(count: 3, at: 80) else {
            Issue.record("expected tweets"); return
        }
        #expect(a.map(\.id) == ["0", "1", "2"])
        #expect(b.map(\.id) == ["3", "4", "0"])
        #expect(api.requestsPerWindow == [0: 1, 1: 1])
        var once = EmulatedTweetAPI(stream: [RecordedTweet(id: "a", text: "")], requestLimit: 10, windowSeconds: 60, loops: false)
        let r1 = once.fetch(count: 5, at: 0)
        let r2 = once.fetch(count: 5, at: 1)
        #expect(r1 == .tweets([RecordedTweet(id: "a", text: "")]))
        #expect(r2 == .tweets([]))
    }

    @Test func droppedConnectionIsNotCounted() {
        var api = EmulatedTweetAPI(stream: [], requestLimit: 1, windowSeconds: 60)
        api.isConnected = false
        let down = api.fetch(count: 100, at: 0)
        #expect(down == .unavailable)
        #expect(api.requestsPerWindow.isEmpty)
        api.isConnected = true
        let ok = api.fetch(count: 100, at: 10)
        let limited = api.fetch(count: 100, at: 20)
        #expect(ok == .tweets([]))
        #expect(limited == .tooManyRequests(retryAfterSeconds: 40))
    }
}
