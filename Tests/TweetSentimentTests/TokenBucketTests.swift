import FieldtestData
import Testing

@testable import TweetSentiment

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
        let limit = 15
        let window = 900.0
        var api = EmulatedTweetAPI(
            stream: (0..<50).map { RecordedTweet(id: "\($0)", text: "t\($0)") }, requestLimit: limit,
            windowSeconds: window)
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
        var client = RateLimitedClient(
            bucket: TokenBucket(capacity: 10, refillPerSecond: 1), baseBackoffSeconds: 5, maxBackoffSeconds: 40)
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
        var client = RateLimitedClient(
            bucket: TokenBucket(capacity: 1, refillPerSecond: 1), baseBackoffSeconds: 5, maxBackoffSeconds: 30)
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

    @Test(arguments: [UInt64(4), 5, 6])
    func chosenBurstNeverExceedsTheLimitInAnySlidingWindow(seed: UInt64) {
        // Bursts of up to 10 requests at random times; every interval of 900 s holds ≤ 6 sends.
        let limit = 6
        let window = 900.0
        var bucket = TokenBucket.never(exceeding: limit, perWindowOf: window, burst: 1)
        var rng = SeededGenerator(seed: seed)
        var sent: [Double] = []
        var t = 0.0
        while t < 30 * window {
            t += Double.random(in: 0...200, using: &rng)
            for _ in 0..<Int.random(in: 1...10, using: &rng) where bucket.tryTake(at: t) { sent.append(t) }
        }
        var worst = 0
        var lo = 0
        for hi in sent.indices {
            while sent[hi] - sent[lo] >= window { lo += 1 }
            worst = max(worst, hi - lo + 1)
        }
        #expect(worst <= limit)
        // At most the burst plus the refill, 1 + 5 per 900 s over 27,000 s = 151 sends; tokens that
        // refill while the bucket is full (no request for a while) are lost, so fewer are sent.
        #expect(sent.count > 100 && sent.count <= 151)
    }

    @Test func nextAvailableTimeGivesAToken() {
        var b = TokenBucket.never(exceeding: 15, perWindowOf: 900, burst: 3)
        for _ in 0..<3 { _ = b.tryTake(at: 0) }
        let next = b.nextAvailableSeconds(at: 10)
        // Tolerance 1e-9 s: one token per 75 s.
        #expect(abs(next - 75) < 1e-9)
        let taken = b.tryTake(at: next)
        #expect(taken)
        #expect(abs(b.available(at: next) - 0) < 1e-9)
    }

    @Test func clientBacksOffThenResumesAfterTheReset() {
        // The API allows 3 per 60 s window; a client tuned for 10 per window hits a 429 and waits for the reset.
        var api = EmulatedTweetAPI(
            stream: (0..<10).map { RecordedTweet(id: "\($0)", text: "") }, requestLimit: 3, windowSeconds: 60)
        var client = RateLimitedClient(bucket: .never(exceeding: 10, perWindowOf: 60, burst: 5), baseBackoffSeconds: 5)
        var answered: [Double] = []
        var refused: [Double] = []
        for step in 0..<120 {
            let t = Double(step)
            guard client.acquire(at: t) else { continue }
            switch api.fetch(from: answered.count, count: 1, at: t) {
            case .tweets:
                answered.append(t)
                client.recordSuccess()
            case .tooManyRequests(let retry):
                refused.append(t)
                client.recordTooManyRequests(at: t, retryAfterSeconds: retry)
            case .unavailable: break
            }
        }
        #expect(answered == [0, 1, 2, 60, 61, 62])
        #expect(refused == [3, 63])
        #expect(api.requestsPerWindow == [0: 4, 1: 4])
        #expect(api.maxRequestsInAnyWindow == 4)
    }
}
