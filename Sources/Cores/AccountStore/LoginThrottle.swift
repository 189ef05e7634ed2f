import Foundation

/// Throttling of repeated failed sign-ins for one login identifier.
///
/// Fieldtest's rule (the specifications give none; cf. NIST SP 800-63B §5.2.2 and OWASP's
/// Authentication Cheat Sheet): after `maxFailures` failures within `windowSeconds` of the
/// first failure, the identifier is locked for `lockoutSeconds`. During the lockout every
/// attempt is refused, even with the right password, and no password is hashed. A success
/// clears the count. The count is kept per identifier whether or not the account exists,
/// so throttling reveals nothing about which accounts exist.
public struct LoginThrottlePolicy: Sendable, Equatable {
    /// Failures allowed inside one window before the lockout.
    public let maxFailures: Int
    /// Length of the counting window, seconds from the first failure.
    public let windowSeconds: Double
    /// Length of the lockout, seconds.
    public let lockoutSeconds: Double

    /// Creates a policy; `maxFailures` is at least 1.
    public init(maxFailures: Int = 5, windowSeconds: Double = 900, lockoutSeconds: Double = 900) {
        self.maxFailures = max(1, maxFailures)
        self.windowSeconds = windowSeconds
        self.lockoutSeconds = lockoutSeconds
    }

    /// 5 failures in 15 minutes lock the identifier for 15 minutes.
    public static let standard = LoginThrottlePolicy()
}

/// The failure count of one identifier.
public struct LoginThrottleState: Sendable, Equatable {
    /// Failures counted in the current window.
    public var failures: Int
    /// When the current window began (UTC).
    public var windowStart: Date
    /// When the lockout ends, if locked.
    public var lockedUntil: Date?

    /// Creates a state.
    public init(failures: Int = 0, windowStart: Date = .distantPast, lockedUntil: Date? = nil) {
        self.failures = failures
        self.windowStart = windowStart
        self.lockedUntil = lockedUntil
    }

    /// Throws ``AccountStoreError/throttled(retryAfterSeconds:)`` while locked at `now`.
    public func admit(now: Date) throws(AccountStoreError) {
        if let until = lockedUntil, now < until {
            throw .throttled(retryAfterSeconds: until.timeIntervalSince(now))
        }
    }

    /// Counts a failure at `now`, starting a new window if the old one has passed, and
    /// locking when the count reaches the policy's limit.
    public mutating func recordFailure(now: Date, policy: LoginThrottlePolicy) {
        if let until = lockedUntil, now >= until {
            lockedUntil = nil
            failures = 0
        }
        if failures == 0 || now.timeIntervalSince(windowStart) >= policy.windowSeconds {
            failures = 0
            windowStart = now
        }
        failures += 1
        if failures >= policy.maxFailures {
            lockedUntil = now.addingTimeInterval(policy.lockoutSeconds)
            failures = 0
        }
    }
}
