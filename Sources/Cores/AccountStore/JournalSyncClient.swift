import Foundation

/// Exponential back-off with "equal jitter" (M. Brooker, "Exponential Backoff And Jitter",
/// AWS Architecture Blog, 2015): after the n-th consecutive failure wait
/// `d/2 + U(0, d/2)` seconds with `d = min(cap, base · multiplier^(n−1))`.
public struct BackoffPolicy: Sendable, Equatable {
    /// Ceiling before jitter after the first failure, seconds.
    public let baseSeconds: Double
    /// Growth factor per failure.
    public let multiplier: Double
    /// Largest ceiling, seconds.
    public let capSeconds: Double

    /// Creates a policy.
    public init(baseSeconds: Double = 1, multiplier: Double = 2, capSeconds: Double = 300) {
        self.baseSeconds = baseSeconds
        self.multiplier = multiplier
        self.capSeconds = capSeconds
    }

    /// 1 s, doubling, capped at 5 minutes.
    public static let standard = BackoffPolicy()

    /// The wait after `failures` consecutive failures (≥ 1), seconds. O(1).
    public func delaySeconds(afterFailures failures: Int, using rng: inout some RandomNumberGenerator) -> Double {
        let exponent = Double(max(0, failures - 1))
        let grown = min(capSeconds, baseSeconds * pow(multiplier, min(exponent, 64)))
        // A policy with a negative, infinite or NaN figure waits its cap, or the standard 5 minutes.
        let fallback = capSeconds.isFinite && capSeconds >= 0 ? capSeconds : 300
        let ceiling = grown.isFinite && grown >= 0 ? grown : fallback
        return ceiling / 2 + Double.random(in: 0...(ceiling / 2), using: &rng)
    }
}

/// What one synchronisation step did.
public enum SyncStepOutcome: Sendable, Equatable {
    /// Nothing to send, or waiting for the back-off to pass.
    case idle
    /// A batch was acknowledged; `remaining` changes are still queued.
    case acknowledged(count: Int, remaining: Int)
    /// The push failed; the next attempt is due at `retryAt`.
    case failed(SyncTransportError, retryAt: Date)
    /// The application died after sending (emulated): reopen the store and make a new client.
    case crashed
}

/// Drains a ``JournalStore``'s outbox to the server in batches (BTD-S1).
///
/// Guarantees: an entry leaves the outbox only after the server acknowledged its revision,
/// so a lost request, a lost response or a crash between send and acknowledgement leads to
/// a resend, never a loss; the server de-duplicates by UUID, so a resend never duplicates.
/// The client reads no clock: the caller passes `now` and calls ``step(now:transport:using:)``
/// when ``nextAttemptAt`` is due.
public struct JournalSyncClient: Sendable {
    /// The device store.
    public let store: JournalStore
    /// Retry timing.
    public let backoff: BackoffPolicy
    /// Entries per push.
    public let batchSize: Int
    /// Consecutive failed pushes.
    public private(set) var consecutiveFailures = 0
    /// When the next push is due (`nil`: nothing to do until a local change).
    public private(set) var nextAttemptAt: Date?

    /// A client for `store`; if the outbox holds changes (e.g. after a restart) a push is due at `now`.
    public init(store: JournalStore, now: Date, backoff: BackoffPolicy = .standard, batchSize: Int = 50)
        throws(AccountStoreError)
    {
        self.store = store
        self.backoff = backoff
        self.batchSize = max(1, batchSize)
        nextAttemptAt = try store.outboxCount() > 0 ? now : nil
    }

    /// Call after a local save: schedules a push at `now` unless one is already due (a
    /// back-off in progress is kept).
    public mutating func noteLocalChange(now: Date) {
        if nextAttemptAt == nil { nextAttemptAt = now }
    }

    /// Call when connectivity returns: the back-off is cut short and a push is due at `now`.
    public mutating func connectivityRestored(now: Date) {
        consecutiveFailures = 0
        nextAttemptAt = now
    }

    /// Pushes one batch if a push is due at `now`.
    public mutating func step(
        now: Date, transport: inout some JournalTransport, using rng: inout some RandomNumberGenerator
    ) throws(AccountStoreError) -> SyncStepOutcome {
        guard let due = nextAttemptAt, due <= now else { return .idle }
        let batch = try store.pendingChanges(limit: batchSize)
        guard !batch.isEmpty else {
            nextAttemptAt = nil
            return .idle
        }
        do {
            let acks = try transport.push(batch, now: now)
            try store.acknowledge(acks)
            consecutiveFailures = 0
            let remaining = try store.outboxCount()
            nextAttemptAt = remaining > 0 ? now : nil
            return .acknowledged(count: acks.count, remaining: remaining)
        } catch SyncTransportError.crashedAfterSend {
            return .crashed
        } catch let error as SyncTransportError {
            consecutiveFailures += 1
            let retry = now.addingTimeInterval(backoff.delaySeconds(afterFailures: consecutiveFailures, using: &rng))
            nextAttemptAt = retry
            return .failed(error, retryAt: retry)
        } catch let error as AccountStoreError {
            throw error
        } catch {
            throw .database("\(error)")
        }
    }
}
