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
/// enforces a request limit per fixed window (`[origin + k·W, origin + (k+1)·W)` of
/// virtual time), like Twitter's v1.1 "15-minute windows" (15 search requests per
/// window, HTTP 429 "too many requests" beyond). Every request that reaches it is
/// counted in its window, answered or rejected, so a scenario can report
/// requests per window against the limit (MIC-NF6).
///
/// Requests either continue from the API's own cursor (`fetch(count:at:)`) or name
/// the stream position to start from (`fetch(from:count:at:)`, like a `since_id`), so
/// a client whose answer was lost can ask for the same page again.
/// O(1) per request plus O(count) for the answer.
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
    /// Start of window 0, seconds (windows are `[origin + k·W, origin + (k+1)·W)`).
    public let windowOriginSeconds: Double

    /// Creates an API over `stream` allowing `requestLimit` requests per window of
    /// `windowSeconds` (> 0) aligned on `windowOriginSeconds`.
    public init(
        stream: [RecordedTweet], requestLimit: Int, windowSeconds: Double, windowOriginSeconds: Double = 0,
        loops: Bool = true
    ) {
        self.stream = stream
        self.requestLimit = requestLimit
        self.windowSeconds = windowSeconds
        self.windowOriginSeconds = windowOriginSeconds
        self.loops = loops
    }

    /// The window index of a time.
    public func window(at seconds: Double) -> Int {
        Int(((seconds - windowOriginSeconds) / windowSeconds).rounded(.down))
    }

    /// Handles one request for `count` tweets at `nowSeconds`, continuing from the API's cursor.
    public mutating func fetch(count: Int, at nowSeconds: Double) -> TweetFetchResponse {
        let response = fetch(from: cursor, count: count, at: nowSeconds)
        if case .tweets(let out) = response {
            cursor += out.count
            if loops, !stream.isEmpty { cursor %= stream.count }
        }
        return response
    }

    /// Handles one request at `nowSeconds` for up to `count` tweets starting at stream
    /// position `offset` (≥ 0; with `loops`, positions wrap around the stream). Counted in
    /// its window whether answered or rejected; not counted when disconnected.
    public mutating func fetch(from offset: Int, count: Int, at nowSeconds: Double) -> TweetFetchResponse {
        guard isConnected else { return .unavailable }
        let w = window(at: nowSeconds)
        let used = requestsPerWindow[w, default: 0]
        requestsPerWindow[w] = used + 1
        guard used < requestLimit else {
            rejectionsPerWindow[w, default: 0] += 1
            return .tooManyRequests(retryAfterSeconds: windowOriginSeconds + Double(w + 1) * windowSeconds - nowSeconds)
        }
        var out: [RecordedTweet] = []
        guard !stream.isEmpty, count > 0 else { return .tweets(out) }
        out.reserveCapacity(count)
        var position = max(offset, 0)
        if loops { position %= stream.count }
        while out.count < count {
            if position >= stream.count {
                guard loops else { break }
                position = 0
            }
            out.append(stream[position])
            position += 1
        }
        return .tweets(out)
    }

    /// Requests received in the window containing `seconds`.
    public func requests(inWindowAt seconds: Double) -> Int {
        requestsPerWindow[window(at: seconds), default: 0]
    }

    /// The most requests received in any window (0 before the first request).
    public var maxRequestsInAnyWindow: Int { requestsPerWindow.values.max() ?? 0 }
}
