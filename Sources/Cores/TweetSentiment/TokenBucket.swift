/// A token bucket (Turner 1986; as in RFC 2697's committed-burst bucket):
/// holds up to `capacity` tokens, refills at `refillPerSecond`, and each request
/// takes one. Time is a parameter (virtual seconds), never read from a clock.
/// Every operation is O(1).
public struct TokenBucket: Sendable, Equatable {
    /// Maximum tokens (the largest burst).
    public var capacity: Double
    /// Tokens added per second.
    public var refillPerSecond: Double
    /// Tokens now available (as of `lastUpdateSeconds`).
    public private(set) var tokens: Double
    /// Time of the last refill, seconds.
    public private(set) var lastUpdateSeconds: Double

    /// A full bucket at `startSeconds`.
    public init(capacity: Double, refillPerSecond: Double, startSeconds: Double = 0) {
        self.capacity = max(capacity, 0)
        self.refillPerSecond = max(refillPerSecond, 0)
        self.tokens = max(capacity, 0)
        self.lastUpdateSeconds = startSeconds
    }

    /// A bucket that can never send more than `limit` requests in any interval
    /// of `windowSeconds` (so neither in any fixed window of that length): burst
    /// `⌊limit/2⌋` plus refill `(limit − burst)/window`, since at most
    /// `capacity + refill·window` tokens can be spent in such an interval.
    public static func never(exceeding limit: Int, perWindowOf windowSeconds: Double, startSeconds: Double = 0)
        -> TokenBucket
    {
        never(exceeding: limit, perWindowOf: windowSeconds, burst: max(limit, 0) / 2, startSeconds: startSeconds)
    }

    /// The same guarantee with a chosen burst: capacity `burst` (clamped to
    /// 0…limit) and refill `(limit − burst)/window` tokens per second. A smaller
    /// burst gives a higher sustained rate; `burst = limit − ⌈window / period⌉`
    /// sustains one request per `period` seconds whenever the limit allows it.
    public static func never(
        exceeding limit: Int, perWindowOf windowSeconds: Double, burst: Int,
        startSeconds: Double = 0
    ) -> TokenBucket {
        let l = max(limit, 0)
        let b = Double(min(max(burst, 0), l))
        return TokenBucket(
            capacity: b, refillPerSecond: (Double(l) - b) / max(windowSeconds, 1e-9), startSeconds: startSeconds)
    }

    /// Tokens available at `nowSeconds` (after refill), 0 … capacity.
    public func available(at nowSeconds: Double) -> Double {
        var copy = self
        copy.refill(to: nowSeconds)
        return copy.tokens
    }

    mutating func refill(to nowSeconds: Double) {
        guard nowSeconds > lastUpdateSeconds else { return }
        tokens = min(capacity, tokens + (nowSeconds - lastUpdateSeconds) * refillPerSecond)
        lastUpdateSeconds = nowSeconds
    }

    /// Rounding allowance when comparing tokens with 1 (a refill computed for the
    /// instant `nextAvailableSeconds` returns may land a few ulps short of a whole
    /// token). Far below one token, so the spending bound is unchanged.
    static let tolerance = 1e-9

    /// Takes a token at `nowSeconds` if one is available.
    public mutating func tryTake(at nowSeconds: Double) -> Bool {
        refill(to: nowSeconds)
        guard tokens >= 1 - Self.tolerance else { return false }
        tokens = max(0, tokens - 1)
        return true
    }

    /// The earliest time ≥ `nowSeconds` at which a token will be available
    /// (infinity if the bucket never refills).
    public func nextAvailableSeconds(at nowSeconds: Double) -> Double {
        var copy = self
        copy.refill(to: nowSeconds)
        if copy.tokens >= 1 - Self.tolerance { return max(nowSeconds, copy.lastUpdateSeconds) }
        guard refillPerSecond > 0 else { return .infinity }
        return max(nowSeconds, copy.lastUpdateSeconds) + (1 - copy.tokens) / refillPerSecond
    }
}

/// The client side of a rate-limited API: a token bucket, plus exponential
/// back-off with a cap after a "too many requests" answer (honouring the
/// server's retry-after when it is longer). Pure state machine on virtual time.
public struct RateLimitedClient: Sendable, Equatable {
    /// The bucket pacing requests.
    public var bucket: TokenBucket
    /// First back-off delay, seconds.
    public var baseBackoffSeconds: Double
    /// Longest back-off delay, seconds.
    public var maxBackoffSeconds: Double
    /// Consecutive "too many requests" answers so far.
    public private(set) var consecutiveRejections = 0
    /// No request before this time, seconds.
    public private(set) var blockedUntilSeconds = -Double.infinity

    /// Creates a client.
    public init(bucket: TokenBucket, baseBackoffSeconds: Double = 5, maxBackoffSeconds: Double = 900) {
        self.bucket = bucket
        self.baseBackoffSeconds = baseBackoffSeconds
        self.maxBackoffSeconds = maxBackoffSeconds
    }

    /// Whether a request may be sent at `nowSeconds`; if so, a token is spent.
    public mutating func acquire(at nowSeconds: Double) -> Bool {
        guard nowSeconds >= blockedUntilSeconds else { return false }
        return bucket.tryTake(at: nowSeconds)
    }

    /// Tokens the bucket holds at `nowSeconds` (0 while backing off).
    public func availableTokens(at nowSeconds: Double) -> Double {
        nowSeconds >= blockedUntilSeconds ? bucket.available(at: nowSeconds) : 0
    }

    /// The earliest time a request could be sent.
    public func nextAllowedSeconds(at nowSeconds: Double) -> Double {
        bucket.nextAvailableSeconds(at: max(nowSeconds, blockedUntilSeconds))
    }

    /// Records a "too many requests" answer: blocks for
    /// `max(retryAfter, min(max, base · 2^(n−1)))` after the n-th consecutive one.
    public mutating func recordTooManyRequests(at nowSeconds: Double, retryAfterSeconds: Double?) {
        consecutiveRejections += 1
        let exponent = Double(min(consecutiveRejections - 1, 30))
        let backoff = min(maxBackoffSeconds, baseBackoffSeconds * Double.pow2(exponent))
        blockedUntilSeconds = nowSeconds + max(backoff, retryAfterSeconds ?? 0)
    }

    /// Records a successful answer (resets the back-off).
    public mutating func recordSuccess() {
        consecutiveRejections = 0
    }
}

extension Double {
    /// 2^x for small non-negative integers x.
    static func pow2(_ x: Double) -> Double {
        var r = 1.0
        var k = 0
        while Double(k) < x {
            r *= 2
            k += 1
        }
        return r
    }
}
