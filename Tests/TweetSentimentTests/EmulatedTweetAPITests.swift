import FieldtestData
import Testing

@testable import TweetSentiment

@Suite("Emulated tweet API")
struct EmulatedTweetAPITests {
    @Test func replaysInOrderAndLoops() {
        var api = EmulatedTweetAPI(
            stream: (0..<5).map { RecordedTweet(id: "\($0)", text: "") }, requestLimit: 10, windowSeconds: 60)
        guard case .tweets(let a) = api.fetch(count: 3, at: 0), case .tweets(let b) = api.fetch(count: 3, at: 80) else {
            Issue.record("expected tweets")
            return
        }
        #expect(a.map(\.id) == ["0", "1", "2"])
        #expect(b.map(\.id) == ["3", "4", "0"])
        #expect(api.requestsPerWindow == [0: 1, 1: 1])
        var once = EmulatedTweetAPI(
            stream: [RecordedTweet(id: "a", text: "")], requestLimit: 10, windowSeconds: 60, loops: false)
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

    @Test func explicitOffsetsAndWindowOrigin() {
        var api = EmulatedTweetAPI(
            stream: (0..<5).map { RecordedTweet(id: "\($0)", text: "") }, requestLimit: 1,
            windowSeconds: 60, windowOriginSeconds: 30, loops: false)
        let a = api.fetch(from: 3, count: 4, at: 29)
        let b = api.fetch(from: 3, count: 4, at: 30)
        let c = api.fetch(from: 0, count: 2, at: 89)
        #expect(a == .tweets([RecordedTweet(id: "3", text: ""), RecordedTweet(id: "4", text: "")]))
        #expect(b == a)
        #expect(c == .tooManyRequests(retryAfterSeconds: 1))
        #expect(api.requestsPerWindow == [-1: 1, 0: 2])
        #expect(api.requests(inWindowAt: 60) == 2)
        #expect(api.cursor == 0)
    }
}
