import FieldtestData
import FieldtestGSL
import Foundation
import Testing

@testable import DeviceEmulation

@Suite("Connectivity schedule")
struct ConnectivityScheduleTests {
    let schedule: ConnectivitySchedule

    init() throws {
        schedule = try ConnectivitySchedule(
            intervals: [
                ConnectivityInterval(startTime: 100, endTime: 200, state: .offline),
                ConnectivityInterval(startTime: 200, endTime: 260, state: .wifiOnly),
                ConnectivityInterval(startTime: 400, endTime: 500, state: .cellularOnly),
            ],
            defaultState: .online)
    }

    @Test(
        "state at, before and after interval boundaries",
        arguments: [
            (99.999, ConnectivityState.online), (100, .offline), (199.999, .offline), (200, .wifiOnly),
            (259.999, .wifiOnly), (260, .online), (400, .cellularOnly), (500, .online), (-1e9, .online),
        ])
    func stateAt(time: Double, expected: ConnectivityState) {
        #expect(schedule.state(at: time) == expected)
    }

    @Test("time spent in each state and next boundary")
    func durations() {
        #expect(abs(schedule.duration(of: .offline, from: 0, to: 1000) - 100) < 1e-9)
        #expect(abs(schedule.duration(of: .online, from: 0, to: 1000) - 740) < 1e-9)
        #expect(abs(schedule.duration(of: .wifiOnly, from: 150, to: 230) - 30) < 1e-9)
        #expect(schedule.nextBoundary(after: 150) == 200)
        #expect(schedule.nextBoundary(after: 260) == 400)
        #expect(schedule.nextBoundary(after: 500) == nil)
    }

    @Test("overlapping or reversed intervals are rejected")
    func invalid() {
        #expect(throws: DeviceEmulationError.overlappingIntervals(index: 1, start: 150, previousEnd: 200)) {
            try ConnectivitySchedule(intervals: [
                ConnectivityInterval(startTime: 100, endTime: 200, state: .offline),
                ConnectivityInterval(startTime: 150, endTime: 300, state: .wifiOnly),
            ])
        }
        #expect(throws: DeviceEmulationError.self) {
            try ConnectivitySchedule(intervals: [ConnectivityInterval(startTime: 10, endTime: 10, state: .offline)])
        }
        let message = DeviceEmulationError.overlappingIntervals(index: 1, start: 150, previousEnd: 200).description
        #expect(message.contains("interval 1 starts at 150.0 s before the previous one ends (200.0 s)"))
    }
}

@Suite("Network link")
struct NetworkLinkTests {
    @Test("presets are found by name; unknown names list the known ones")
    func presetLookup() throws {
        #expect(try NetworkLinkPreset.named("3G") == .threeG)
        #expect(try NetworkLinkPreset.named("very-bad-network").lossProbability == 0.10)
        #expect(
            throws: DeviceEmulationError.unknownNetworkPreset(
                name: "5g",
                known: ["edge", "3g", "lte", "wifi", "very-bad-network", "100%-loss", "gsm", "hsdpa", "full"])
        ) {
            try NetworkLinkPreset.named("5g")
        }
        for preset in NetworkLinkPreset.all { try preset.validate() }
    }

    @Test("3G latency: median = 200 ms delay + 30 ms jitter median; payload adds bytes / bandwidth")
    func threeGLatency() throws {
        let link = try NetworkLink(schedule: .always(.cellularOnly), cellular: .threeG)
        var rng = RandomStream(seed: 2024)
        let empty = (0..<20_000).map { _ in link.request(bytes: 0, uploadBytes: 0, at: 0, using: &rng).latencySeconds }
        // Median of delay + LogNormal(ln 0.03, 0.8) jitter is 0.23 s; sampling error of the median ≈ 0.5 %.
        #expect(abs(Stats.quantile(empty, 0.5) - 0.230) < 0.003)
        // 97 500 bytes = 780 kbit: exactly one more second at 780 kbit/s; 512 upload bytes at 330 kbit/s ≈ 12.4 ms.
        let loaded = (0..<20_000).map { _ in link.request(bytes: 97_500, at: 0, using: &rng).latencySeconds }
        #expect(abs(Stats.quantile(loaded, 0.5) - (0.230 + 1.0 + 512.0 * 8 / 330_000)) < 0.004)
        // Every loaded request is at least delay + transfer (jitter is positive).
        #expect((loaded.min() ?? 0) > 1.2124)
    }

    @Test("very bad network loses 1 − 0.9² = 19 % of attempts; retries recover most requests")
    func veryBadNetworkLoss() throws {
        var rng = RandomStream(seed: 77)
        let single = try NetworkLink(
            schedule: .always(.cellularOnly), cellular: .veryBadNetwork,
            retry: RetryPolicy(timeoutSeconds: 5, maxAttempts: 1))
        let outcomes = (0..<20_000).map { _ in single.request(bytes: 1000, at: 0, using: &rng) }
        let delivered = Double(outcomes.filter(\.delivered).count) / 20_000
        // Binomial standard error √(0.81·0.19/20000) ≈ 0.0028: 4 σ band.
        #expect(abs(delivered - 0.81) < 0.011)
        let retrying = try NetworkLink(
            schedule: .always(.cellularOnly), cellular: .veryBadNetwork,
            retry: RetryPolicy(timeoutSeconds: 5, maxAttempts: 3))
        let retried = (0..<20_000).map { _ in retrying.request(bytes: 1000, at: 0, using: &rng) }
        let deliveredWithRetry = Double(retried.filter(\.delivered).count) / 20_000
        // 1 − 0.19³ = 0.99314; standard error ≈ 0.0006.
        #expect(abs(deliveredWithRetry - 0.99314) < 0.0025)
        // A request delivered on the second attempt includes one full timeout.
        let second = retried.filter { $0.delivered && $0.attempts == 2 }
        #expect(!second.isEmpty && second.allSatisfy { $0.latencySeconds > 5.2 })
    }

    @Test("100% loss: never delivered, each attempt costs the timeout")
    func totalLoss() throws {
        var rng = RandomStream(seed: 1)
        let link = try NetworkLink(
            schedule: .always(.wifiOnly), wifi: .totalLoss, retry: RetryPolicy(timeoutSeconds: 8, maxAttempts: 3))
        let outcome = link.request(bytes: 10, at: 0, using: &rng)
        #expect(!outcome.delivered)
        #expect(outcome.failure == .lost)
        #expect(outcome.attempts == 3)
        #expect(abs(outcome.latencySeconds - 24) < 1e-9)
    }

    @Test("offline and refused cellular give no network; Wi-Fi is preferred when both are up")
    func bearers() throws {
        var rng = SeededGenerator(seed: 9)
        let schedule = try ConnectivitySchedule(intervals: [
            ConnectivityInterval(startTime: 0, endTime: 10, state: .offline),
            ConnectivityInterval(startTime: 10, endTime: 20, state: .cellularOnly),
            ConnectivityInterval(startTime: 20, endTime: 30, state: .wifiOnly),
        ])
        let allowed = try NetworkLink(schedule: schedule, cellularDataAllowed: true)
        let refused = try NetworkLink(schedule: schedule, cellularDataAllowed: false)
        let offline = allowed.request(bytes: 100, at: 5, using: &rng)
        #expect(
            offline
                == RequestOutcome(delivered: false, latencySeconds: 0, attempts: 0, bearer: nil, failure: .noNetwork))
        #expect(allowed.request(bytes: 100, at: 15, using: &rng).bearer == .cellular)
        #expect(refused.request(bytes: 100, at: 15, using: &rng).failure == .noNetwork)
        #expect(refused.request(bytes: 100, at: 25, using: &rng).bearer == .wifi)
        #expect(allowed.bearer(at: 40) == .wifi)
        #expect(refused.bearer(at: 40) == .wifi)
    }

    @Test("a retry that lands in an offline interval fails as lost after one attempt")
    func retryIntoOffline() throws {
        var rng = SeededGenerator(seed: 4)
        let schedule = try ConnectivitySchedule(intervals: [
            ConnectivityInterval(startTime: 5, endTime: 100, state: .offline)
        ])
        let link = try NetworkLink(
            schedule: schedule, wifi: .totalLoss, retry: RetryPolicy(timeoutSeconds: 10, maxAttempts: 3))
        let outcome = link.request(bytes: 1, at: 0, using: &rng)
        #expect(outcome.attempts == 1)
        #expect(outcome.failure == .lost)
        #expect(abs(outcome.latencySeconds - 10) < 1e-9)
    }

    @Test("the timeout bounds the first byte, not the transfer: GSM still delivers 20 kB; a too-short timeout fails")
    func timeouts() throws {
        var rng = RandomStream(seed: 31)
        let gsm = try NetworkLink(schedule: .always(.cellularOnly), cellular: .gsm)
        let outcome = gsm.request(bytes: 20_000, uploadBytes: 0, at: 0, using: &rng)
        // 160 kbit at 14.4 kbit/s = 11.1 s of transfer after ≈ 0.35 s to the first byte.
        #expect(outcome.delivered && outcome.attempts == 1)
        #expect(outcome.latencySeconds > 11.26 && outcome.latencySeconds < 14)
        // EDGE's 800 ms of fixed delay can never beat a 0.5 s first-byte timeout: 2 attempts × 0.5 s.
        let impatient = try NetworkLink(
            schedule: .always(.cellularOnly), cellular: .edge, retry: RetryPolicy(timeoutSeconds: 0.5, maxAttempts: 2))
        let failed = impatient.request(bytes: 100, at: 0, using: &rng)
        #expect(
            failed
                == RequestOutcome(delivered: false, latencySeconds: 1.0, attempts: 2, bearer: .cellular, failure: .lost)
        )
    }

    @Test("same seed gives the same latencies")
    func determinism() throws {
        let link = try NetworkLink(cellular: .edge)
        var a = RandomStream(seed: 5)
        var b = RandomStream(seed: 5)
        let first = (0..<100).map { link.request(bytes: 2000, at: Double($0), using: &a) }
        let second = (0..<100).map { link.request(bytes: 2000, at: Double($0), using: &b) }
        #expect(first == second)
    }
}
