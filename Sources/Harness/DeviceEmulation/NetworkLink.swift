import Foundation

/// How a request is retried after a lost message.
public struct RetryPolicy: Sendable, Equatable, Codable {
    /// Seconds the client waits for the first byte of the response before giving up on an attempt (> 0);
    /// an idle timeout like OkHttp's 10 s default read timeout, so a slow but flowing download is not cut.
    public var timeoutSeconds: Double
    /// Total number of attempts, first one included (≥ 1).
    public var maxAttempts: Int

    /// Creates a policy; `timeoutSeconds` in seconds.
    public init(timeoutSeconds: Double = 10, maxAttempts: Int = 3) {
        self.timeoutSeconds = timeoutSeconds
        self.maxAttempts = maxAttempts
    }
}

/// Why a request was not delivered.
public enum RequestFailure: String, Sendable, Codable, Equatable {
    /// No bearer was reachable (offline, or only a bearer the user has not permitted).
    case noNetwork
    /// Every attempt lost a message and timed out.
    case lost
}

/// Outcome of one emulated request.
public struct RequestOutcome: Sendable, Equatable {
    /// Whether the response reached the phone.
    public var delivered: Bool
    /// Time from the request until the response arrived, or until the client gave up, seconds.
    public var latencySeconds: Double
    /// Attempts made (0 when no network was reachable).
    public var attempts: Int
    /// Bearer of the final attempt, if any.
    public var bearer: NetworkBearer?
    /// Why the request failed, `nil` when delivered.
    public var failure: RequestFailure?
}

/// The emulated phone's network: connectivity over time, one link preset per bearer, the user's
/// cellular-data permission and a retry policy.
///
/// Method for one attempt at time t over the bearer chosen at t (Wi-Fi preferred; cellular only when the
/// user allows cellular data, WXC-P1):
/// `latency = uplinkDelay + downlinkDelay + J + 8·uploadBytes / uplink + 8·bytes / downlink`, with jitter
/// J ~ LogNormal(ln jitterMedian, jitterSigma). The request and the response are each lost independently with
/// the preset's loss probability p, so an attempt fails with probability 1 − (1 − p)²; a failed attempt, or
/// one whose first byte (delays + jitter + upload) would come after `timeoutSeconds`, costs `timeoutSeconds`
/// and is retried (the bearer is chosen again at the new time) up to `maxAttempts`.
/// Draws per attempt: two words for the loss checks and one for the jitter, always, so streams stay aligned.
public struct NetworkLink: Sendable, Equatable {
    /// Connectivity over time.
    public var schedule: ConnectivitySchedule
    /// Link used over Wi-Fi.
    public var wifi: NetworkLinkPreset
    /// Link used over cellular data.
    public var cellular: NetworkLinkPreset
    /// Whether the user allows cellular data (WXC-P1: refused → only Wi-Fi is used).
    public var cellularDataAllowed: Bool
    /// Timeout and retry policy.
    public var retry: RetryPolicy

    /// Creates a link; throws `.invalidParameter` for an invalid preset or retry policy.
    public init(
        schedule: ConnectivitySchedule = .always(.online),
        wifi: NetworkLinkPreset = .wifi,
        cellular: NetworkLinkPreset = .lte,
        cellularDataAllowed: Bool = true,
        retry: RetryPolicy = RetryPolicy()
    ) throws(DeviceEmulationError) {
        try wifi.validate()
        try cellular.validate()
        try DeviceEmulationError.requirePositive(retry.timeoutSeconds, "timeoutSeconds")
        guard retry.maxAttempts >= 1 else {
            throw .invalidParameter(name: "maxAttempts", value: Double(retry.maxAttempts), expected: "an integer >= 1")
        }
        self.schedule = schedule
        self.wifi = wifi
        self.cellular = cellular
        self.cellularDataAllowed = cellularDataAllowed
        self.retry = retry
    }

    /// The bearer a request at `time` (seconds) would use, or `nil` when none is reachable and permitted.
    public func bearer(at time: Double) -> NetworkBearer? {
        let state = schedule.state(at: time)
        if state.hasWiFi { return .wifi }
        if state.hasCellular, cellularDataAllowed { return .cellular }
        return nil
    }

    /// Emulates one request issued at `time` (seconds) that uploads `uploadBytes` and downloads `bytes`.
    ///
    /// Returns whether it was delivered and how long it took (seconds). Complexity O(maxAttempts).
    public func request(
        bytes: Int,
        uploadBytes: Int = 512,
        at time: Double,
        using rng: inout some RandomNumberGenerator
    ) -> RequestOutcome {
        var elapsed = 0.0
        var attempts = 0
        var lastBearer: NetworkBearer?
        while attempts < retry.maxAttempts {
            guard let bearer = bearer(at: time + elapsed) else {
                return RequestOutcome(
                    delivered: false, latencySeconds: elapsed, attempts: attempts, bearer: lastBearer,
                    failure: attempts == 0 ? .noNetwork : .lost)
            }
            attempts += 1
            lastBearer = bearer
            let preset = bearer == .wifi ? wifi : cellular
            let requestLost = Sampling.bernoulli(probability: preset.lossProbability, &rng)
            let responseLost = Sampling.bernoulli(probability: preset.lossProbability, &rng)
            let z = Sampling.standardNormal(&rng)
            let jitter = preset.jitterMedianSeconds * exp(preset.jitterSigma * z)
            if requestLost || responseLost {
                elapsed += retry.timeoutSeconds
                continue
            }
            let upload = Self.transferSeconds(bytes: uploadBytes, kilobitsPerSecond: preset.uplinkKilobitsPerSecond)
            let firstByte = preset.baseRoundTripSeconds + jitter + upload
            if firstByte > retry.timeoutSeconds {
                elapsed += retry.timeoutSeconds
                continue
            }
            let latency =
                firstByte
                + Self.transferSeconds(bytes: bytes, kilobitsPerSecond: preset.downlinkKilobitsPerSecond)
            return RequestOutcome(
                delivered: true, latencySeconds: elapsed + latency, attempts: attempts, bearer: bearer, failure: nil)
        }
        return RequestOutcome(
            delivered: false, latencySeconds: elapsed, attempts: attempts, bearer: lastBearer, failure: .lost)
    }

    /// Seconds to send `bytes` at `kilobitsPerSecond` (0 for an unlimited link or no bytes).
    static func transferSeconds(bytes: Int, kilobitsPerSecond: Double) -> Double {
        guard bytes > 0, kilobitsPerSecond.isFinite else { return 0 }
        return Double(bytes) * 8 / (kilobitsPerSecond * 1000)
    }
}
