/// A tweet as recorded in a stream to replay.
public struct RecordedTweet: Sendable, Equatable {
    /// Identifier.
    public var id: String
    /// Text.
    public var text: String

    /// Creates a recorded tweet.
    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }
}

/// The answer of the emulated API.
public enum TweetFetchResponse: Sendable, Equatable {
    /// Up to the requested number of tweets (fewer at the end of the stream).
    case tweets([RecordedTweet])
    /// HTTP 429: the window's request limit is used up; retry after the given seconds.
    case tooManyRequests(retryAfterSeconds: Double)
    /// The connection is down; nothing was counted.
    case unavailable
}

/// An emulated tweet search API that replays a recorded stream in order and
/// enforces a request limit per fixed window (`[k·W, (k+1)·W)` of virtual time),
/// like Twitter's v1.1 "15-minute windows". Every request that reaches it is
/// counted in its window, answered or rejected, so a scenario can report
/// requests per window against the limit (MIC-NF6). O(1) per request.
public struct EmulatedTweetAPI: Sendable, Equatable {
    /// The stream being replayed.
    public let stream: [RecordedTweet]
    /// Requests allowed per window.
    public var requestLimit: Int
    /// Window length, seconds.
    public var windowSeconds: Double
    /// Whether the connection is up (a scenario toggles this to drop it).
    public var isConnected = true
    /// Whether the stream restarts from the beginning when exhausted.
    public var loops: Bool
    /// Index of the next tweet to hand out.
    public private(set) var cursor = 0
    /// Requests received per window index (answered and rejected).
    public private(set) var requestsPerWindow: [Int: Int] = [:]
    /// Requests rejected with "too many requests" per window index.
    public private(set) var rejectionsPerWindow: [Int: Int] = [:]

    /// Creates an API over `stream`.
    public init(stream: [RecordedTweet], requestLimit: Int, windowSeconds: Double, loops: Bool = true) {
        self.stream = stream
        self.requestLimit = requestLimit
        self.windowSeconds = windowSeconds
        self.loops = loops
    }

    /// The window index of a time.
    public func window(at seconds: Double) -> Int {
        Int((seconds / windowSeconds).rounded(.down))
    }

    /// Handles one request for `count` tweets at `nowSeconds`.
    public mutating func fetch(count: Int, at nowSeconds: Double) -> TweetFetchResponse {
        guard isConnected else { return .unavailable }
        let w = window(at: nowSeconds)
        let used = requestsPerWindow[w, default: 0]
        requestsPerWindow[w] = used + 1
        guard used < requestLimit else {
            rejectionsPerWindow[w, default: 0] += 1
            return .tooManyRequests(retryAfterSeconds: Double(w + 1) * windowSeconds - nowSeconds)
        }
        var out: [RecordedTweet] = []
        out.reserveCapacity(max(count, 0))
        while out.count < count, !stream.isEmpty {
            if cursor >= stream.count {
                guard loops else { break }
                cursor = 0
            }
            out.append(stream[cursor])
            cursor += 1
        }
        return .tweets(out)
    }

    /// The most requests received in any window (0 before the first request).
    public var maxRequestsInAnyWindow: Int { requestsPerWindow.values.max() ?? 0 }
}
