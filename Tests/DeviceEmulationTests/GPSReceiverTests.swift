import FieldtestData
import FieldtestGSL
import Foundation
import Testing

@testable import DeviceEmulation

@Suite("GPS receiver")
struct GPSReceiverTests {
    static let origin = GeoPoint(latitude: 36.64, longitude: -6.35)

    /// 20 000 fix attempts 1000 s apart (ρ = e^(−1000/30) ≈ 0, so draws are independent).
    static func independentAttempts(_ environment: GPSEnvironment, seed: UInt64) throws -> [GPSFix?] {
        var receiver = try GPSReceiver(environment: environment)
        var rng = RandomStream(seed: seed)
        return (0..<20_000).map { receiver.fix(at: Double($0) * 1000, truePosition: origin, using: &rng) }
    }

    @Test("open sky: median ≈ 5 m, 95th percentile ≈ 10.4 m (Rayleigh), 1 % dropouts")
    func openSky() throws {
        let attempts = try Self.independentAttempts(.openSky, seed: 11)
        let errors = attempts.compactMap { $0?.trueErrorMetres }
        // Median of 20k Rayleigh draws has a relative standard error ≈ 0.6 %; band ±6 %.
        #expect(abs(Stats.quantile(errors, 0.5) - 5.0) < 0.3)
        // Rayleigh p95 = 2.4477 σ = 10.40 m; 0.2 % outliers shift it slightly up; band 9.9–11.2 m.
        let p95 = Stats.quantile(errors, 0.95)
        #expect(p95 > 9.9 && p95 < 11.2)
        let dropouts = Double(attempts.filter { $0 == nil }.count) / 20_000
        #expect(abs(dropouts - 0.01) < 0.003)
        // Reported 68 % accuracy = σ √(−2 ln 0.32) ≈ 6.42 m, close to the empirical 68th percentile.
        #expect(abs(GPSEnvironment.openSky.reportedAccuracyMetres - Stats.quantile(errors, 0.68)) < 0.4)
    }

    @Test("urban: median within 7–13 m and ≈ 2 % outliers; indoor: 60 % dropouts")
    func urbanAndIndoor() throws {
        let urban = try Self.independentAttempts(.urban, seed: 12).compactMap { $0 }
        let median = Stats.quantile(urban.map(\.trueErrorMetres), 0.5)
        #expect(median > 9.4 && median < 10.6)
        let outlierRate = Double(urban.filter(\.isOutlier).count) / Double(urban.count)
        // Binomial standard error ≈ 0.001: band ±0.5 %.
        #expect(abs(outlierRate - 0.02) < 0.005)
        #expect(
            urban.filter(\.isOutlier).allSatisfy { $0.trueErrorMetres >= 30 - 1e-6 && $0.trueErrorMetres <= 150 + 1e-6 }
        )

        let indoor = try Self.independentAttempts(.indoor, seed: 13)
        // Indoor median 25 m (σ 21 m) plus 5 % outliers of 50–200 m, which lift the median to ≈ 26 m.
        let indoorMedian = Stats.quantile(indoor.compactMap { $0?.trueErrorMetres }, 0.5)
        #expect(indoorMedian > 24 && indoorMedian < 28.5)
        let dropouts = Double(indoor.filter { $0 == nil }.count) / 20_000
        // Standard error √(0.6·0.4/20000) ≈ 0.0035: band ±0.015.
        #expect(abs(dropouts - 0.60) < 0.015)
    }

    @Test("indoor outages last about a minute at 1 Hz")
    func outageDurations() throws {
        var receiver = try GPSReceiver(environment: .indoor)
        var rng = RandomStream(seed: 14)
        let result = receiver.track(from: 0, to: 100_000, truePosition: { _ in Self.origin }, using: &rng)
        #expect(result.attempts == 100_000)
        let available = Set(result.fixes.map { Int($0.time) })
        var runs: [Int] = []
        var current = 0
        for second in 0..<100_000 {
            if available.contains(second) {
                if current > 0 { runs.append(current) }
                current = 0
            } else {
                current += 1
            }
        }
        // Sampled at 1 Hz an outage persists with probability u + (1 − u) e^(−1/24) ≈ 0.9837, so runs are
        // geometric with mean ≈ 61.3 s; ≈ 1000 runs → standard error ≈ 2 s.
        let meanRun = Stats.mean(runs.map(Double.init))
        #expect(abs(meanRun - 61.3) < 8)
        #expect(abs(1 - Double(result.fixes.count) / 100_000 - 0.6) < 0.05)
    }

    @Test("errors are correlated over time (Gauss–Markov, τ = 30 s)")
    func correlation() throws {
        var receiver = try GPSReceiver(environment: .urban)
        var rng = RandomStream(seed: 15)
        var eastErrors: [Double] = []
        for second in 0..<20_000 {
            guard let fix = receiver.fix(at: Double(second), truePosition: Self.origin, using: &rng), !fix.isOutlier
            else { continue }
            let metresPerDegree = Geodesy.earthRadiusMetres * cos(Self.origin.latitude * .pi / 180) * .pi / 180
            eastErrors.append((fix.coordinate.longitude - Self.origin.longitude) * metresPerDegree)
        }
        let m = Stats.mean(eastErrors)
        let pairs = zip(eastErrors.dropLast(), eastErrors.dropFirst())
        let covariance = pairs.reduce(0) { $0 + ($1.0 - m) * ($1.1 - m) } / Double(eastErrors.count - 1)
        let variance = eastErrors.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(eastErrors.count)
        // Lag-1 autocorrelation e^(−1/30) = 0.967; gaps from dropouts and outliers lower it a little.
        #expect(covariance / variance > 0.9)
    }

    @Test("same seed, same fixes; named environments; invalid interval")
    func determinismAndNames() throws {
        let a = try Self.independentAttempts(.urban, seed: 99).prefix(200)
        let b = try Self.independentAttempts(.urban, seed: 99).prefix(200)
        #expect(Array(a) == Array(b))
        #expect(try GPSEnvironment.named("Indoor") == .indoor)
        #expect(throws: DeviceEmulationError.unknownEnvironment(name: "cave", known: ["open-sky", "urban", "indoor"])) {
            try GPSEnvironment.named("cave")
        }
        #expect(throws: DeviceEmulationError.self) { try GPSReceiver(fixIntervalSeconds: 0) }
    }

    @Test("geodesy helpers: offset and haversine distance agree")
    func geodesy() {
        let moved = Self.origin.offset(eastMetres: 300, northMetres: 400)
        // 500 m on a local plane; equirectangular vs haversine differ by far less than 1 cm here.
        #expect(abs(Self.origin.distance(to: moved) - 500) < 0.05)
        #expect(
            abs(LocalPosition(east: 0, north: 0).distance(to: LocalPosition(east: 3, north: 4, up: 12)) - 13) < 1e-12)
    }
}
