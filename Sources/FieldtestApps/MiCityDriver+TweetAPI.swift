import FieldtestData

/// A recorded tweet replayed by the emulated API, with its human label.
struct ReplayedTweet: Sendable {
    /// Position in the recorded stream (the API's `since_id`).
    var index: Int
    /// Tweet text as recorded.
    var text: String
    /// Human label of the recording.
    var label: SentimentLabel
}

/// Emulated tweet search API replaying a recorded stream, with a request limit
/// per fixed window (Twitter API v1.1 style: 15 requests per 15-minute window,
/// `x-rate-limit-remaining` / `x-rate-limit-reset` on every answer, HTTP 429
/// once the window's budget is spent).
///
/// Every attempt that reaches the API counts in the window where the logical
/// request started (a retried request is counted once per attempt). Windows
/// are aligned on `origin` (seconds since 1970 UTC). Complexity O(count) per request.
final class ReplayTweetAPI {
    /// Answer to one request.
    enum Answer {
        /// Up to `count` tweets after the cursor, with the budget left in the window.
        case tweets([ReplayedTweet], remaining: Int, resetAt: Double)
        /// HTTP 429: the window's budget is spent until `resetAt`.
        case tooManyRequests(resetAt: Double)
    }

    let stream: [ReplayedTweet]
    let limit: Int
    let window: Double
    let origin: Double
    /// Attempts received per window index.
    private(set) var received: [Int: Int] = [:]
    /// Requests answered with 429.
    private(set) var refused = 0

    init(stream: [ReplayedTweet], limit: Int, window: Double, origin: Double) {
        self.stream = stream
        self.limit = limit
        self.window = window
        self.origin = origin
    }

    /// Index of the fixed window containing `time`.
    func windowIndex(_ time: Double) -> Int { Int(((time - origin) / window).rounded(.down)) }

    /// End of the window containing `time`, seconds since 1970 UTC.
    func resetTime(_ time: Double) -> Double { origin + Double(windowIndex(time) + 1) * window }

    /// Serves a request started at `time` that reached the API in `attempts`
    /// attempts, asking for `count` tweets after `cursor`.
    func answer(cursor: Int, count: Int, attempts: Int, at time: Double) -> Answer {
        let w = windowIndex(time)
        let before = received[w, default: 0]
        received[w] = before + max(1, attempts)
        guard before + max(1, attempts) <= limit else {
            refused += 1
            return .tooManyRequests(resetAt: resetTime(time))
        }
        let lo = max(0, min(cursor, stream.count))
        let hi = min(stream.count, lo + count)
        return .tweets(Array(stream[lo..<hi]), remaining: limit - received[w, default: 0], resetAt: resetTime(time))
    }

    /// The largest number of attempts received in one window (0 without requests).
    var maxPerWindow: Int { received.values.max() ?? 0 }
}

/// Fieldtest's client-side guard for a fixed-window request limit: a request is
/// sent only when the current window still has room for every attempt it may
/// make (`maxAttempts`), the budget is re-synchronised from the API's
/// `remaining`/`reset` answers, and a 429 blocks all requests until the reset.
///
/// This keeps the attempts received by the API in any window at or below the
/// limit whatever the retries. Scheduled requests are paced (`minimumInterval`)
/// and extra requests only use budget the schedule does not need. O(1) per call.
struct WindowRateGuard {
    let limit: Int
    let window: Double
    let origin: Double
    let maxAttempts: Int
    private var windowIndex = Int.min
    private var used = 0
    private(set) var blockedUntil = -Double.infinity

    init(limit: Int, window: Double, origin: Double, maxAttempts: Int) {
        self.limit = limit
        self.window = window
        self.origin = origin
        self.maxAttempts = max(1, maxAttempts)
    }

    private mutating func roll(_ time: Double) {
        let w = Int(((time - origin) / window).rounded(.down))
        if w != windowIndex { windowIndex = w; used = 0 }
    }

    /// Whether a request may start at `time` and still leave room for `reserved`
    /// more worst-case requests in the window (a user's extra refresh keeps room
    /// for the next scheduled fetch).
    mutating func mayRequest(at time: Double, keepingRoomFor reserved: Int = 0) -> Bool {
        roll(time)
        return time >= blockedUntil && used + maxAttempts * (1 + reserved) <= limit
    }

    /// Pacing of scheduled requests, seconds: the window divided by the number of
    /// worst-case requests that always fit in it, so the budget is spread over the
    /// window instead of spent at its start.
    var minimumInterval: Double { window / Double(max(1, limit - maxAttempts + 1)) }

    /// Earliest time at or after `time` when a request may start.
    mutating func nextAllowed(after time: Double) -> Double {
        roll(time)
        let candidate = max(time, blockedUntil)
        let w = Int(((candidate - origin) / window).rounded(.down))
        guard w == windowIndex, used + maxAttempts > limit else { return candidate }
        return origin + Double(w + 1) * window
    }

    /// Records a request started at `time` that made `attempts` attempts.
    mutating func record(attempts: Int, at time: Double) {
        roll(time)
        used += attempts
    }

    /// Re-synchronises with the API's answer.
    mutating func sync(remaining: Int, at time: Double) {
        roll(time)
        used = max(used, limit - remaining)
    }

    /// Backs off after a 429 until `resetAt`.
    mutating func tooManyRequests(resetAt: Double) {
        blockedUntil = max(blockedUntil, resetAt)
    }
}
