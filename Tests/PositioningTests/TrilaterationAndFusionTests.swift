import Foundation
import Testing
@testable import Positioning

/// Standard normal deviates from a seeded generator (Box–Muller).
func gaussian(_ rng: inout SplitMix64, sigma: Double) -> Double {
    let u1 = max(Double.random(in: 0..<1, using: &rng), 1e-300), u2 = Double.random(in: 0..<1, using: &rng)
    return sigma * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
}

@Suite("Trilateration, GPS/PDR fusion and cell fallback")
struct TrilaterationAndFusionTests {
    static let anchors: [(Double, Double)] = [(0, 0), (40, 0), (40, 30), (0, 30), (20, 15)]

    @Test("path-loss model round-trips distance and RSSI")
    func pathLoss() {
        let m = PathLossModel(referenceDBm: -40, exponent: 2.5)
        // 10 m → −40 − 25 = −65 dBm exactly (log10 10 = 1).
        #expect(abs(m.rssi(atDistance: 10) - -65) < 1e-12)
        #expect(abs(m.distance(forRSSI: -65) - 10) < 1e-9)
    }

    @Test("noise-free RSSI gives the exact position", arguments: [(12.0, 7.0), (33.0, 22.0), (5.0, 28.0)])
    func exact(x: Double, y: Double) throws {
        let m = PathLossModel()
        let readings = Self.anchors.map { a in
            RangingAnchor(xMetres: a.0, yMetres: a.1, rssiDBm: m.rssi(atDistance: hypot(x - a.0, y - a.1)))
        }
        let s = try RSSITrilateration.solve(readings, model: m)
        // Residuals vanish at the truth; LM tolerances are 1e-10 relative, so 1e-4 m is safe.
        #expect(hypot(s.xMetres - x, s.yMetres - y) < 1e-4)
        #expect(s.costDB2 < 1e-12)
    }

    @Test("4 dB shadowing: horizontal error percentiles stay within room scale")
    func noisy() throws {
        var rng = SplitMix64(seed: 7)
        let m = PathLossModel()
        var errors: [Double] = []
        for _ in 0..<200 {
            let x = Double.random(in: 2...38, using: &rng), y = Double.random(in: 2...28, using: &rng)
            let readings = Self.anchors.map { a in
                RangingAnchor(xMetres: a.0, yMetres: a.1,
                              rssiDBm: m.rssi(atDistance: hypot(x - a.0, y - a.1)) + gaussian(&rng, sigma: 4))
            }
            let s = try RSSITrilateration.solve(readings, model: m)
            errors.append(hypot(s.xMetres - x, s.yMetres - y))
        }
        let summary = try #require(HorizontalErrorSummary(errorsMetres: errors))
        #expect(summary.count == 200)
        // 4 dB at n = 2.5 is ±45 % range error per anchor; with 5 anchors the median error is a few metres.
        #expect(summary.medianMetres < 6)
        #expect(summary.p95Metres < 22)  // measured 17.2 m with seed 7
        #expect(summary.medianMetres > 0.1)  // noise must show
    }

    @Test("trilateration needs three anchors")
    func tooFew() {
        #expect(throws: PositioningError.tooFewMeasurements(needed: 3, found: 2)) {
            try RSSITrilateration.solve([RangingAnchor(xMetres: 0, yMetres: 0, rssiDBm: -50),
                                         RangingAnchor(xMetres: 1, yMetres: 0, rssiDBm: -50)], model: PathLossModel())
        }
    }

    /// Simulates a 1.4 m/s walk (a square circuit) with GPS fixes every second (σ = 8 m) except
    /// during `outage`, and PDR steps every 0.5 s (length ±5 %, heading ±5°).
    static func walk(outage: Range<Double>?) -> (fused: [Double], gps: [Double]) {
        var rng = SplitMix64(seed: 2026)
        var filter = GPSDeadReckoningFilter(east: 0, north: 0, positionSigma: 8)
        var fused: [Double] = [], gps: [Double] = []
        let dt = 0.5, speed = 1.4
        var e = 0.0, n = 0.0
        for step in 1...480 {
            let t = Double(step) * dt
            let heading = Double(Int(t / 60) % 4) * Double.pi / 2  // north, east, south, west legs
            e += speed * dt * sin(heading)
            n += speed * dt * cos(heading)
            filter.predict(dtSeconds: dt)
            filter.updateStep(lengthMetres: speed * dt * (1 + gaussian(&rng, sigma: 0.05)),
                              headingRadians: heading + gaussian(&rng, sigma: 5 * Double.pi / 180), durationSeconds: dt)
            if step % 2 == 0 && !(outage?.contains(t) ?? false) {
                let ge = e + gaussian(&rng, sigma: 8), gn = n + gaussian(&rng, sigma: 8)
                gps.append(hypot(ge - e, gn - n))
                filter.updateGPS(east: ge, north: gn, sigmaMetres: 8)
            }
            if t > 20 { fused.append(hypot(filter.east - e, filter.north - n)) }
        }
        return (fused, gps)
    }

    @Test("fusing PDR with GPS beats raw GPS fixes")
    func fusion() throws {
        let (fused, gps) = Self.walk(outage: nil)
        let f = try #require(HorizontalErrorSummary(errorsMetres: fused))
        let g = try #require(HorizontalErrorSummary(errorsMetres: gps))
        // Raw fixes: Rayleigh median 8·√(2 ln 2) ≈ 9.4 m; fusion averages many fixes through the PDR track.
        #expect(abs(g.medianMetres - 9.4) < 2)
        #expect(f.medianMetres < 0.5 * g.medianMetres)
        #expect(f.p95Metres < g.p95Metres)
    }

    @Test("a 60 s GPS outage (indoors) is bridged by dead reckoning")
    func outage() throws {
        let (fused, _) = Self.walk(outage: 100..<160)
        let f = try #require(HorizontalErrorSummary(errorsMetres: fused))
        // 5° heading noise and 5 % length noise drift ~ metres over 84 m walked; nowhere near GPS-free divergence.
        #expect(f.maxMetres < 12)
    }

    @Test("cell-tower weighted centroid leans to the strongest tower")
    func cell() throws {
        let towers = [CellTowerReading(latitude: -25.75, longitude: 28.23, rssiDBm: -60),
                      CellTowerReading(latitude: -25.76, longitude: 28.23, rssiDBm: -80),
                      CellTowerReading(latitude: -25.75, longitude: 28.24, rssiDBm: -80)]
        let p = try #require(CellTowerFallback.estimate(towers))
        // Weights 1, 0.1, 0.1 (amplitude of −20 dB): lat = (−25.75·1.1 − 25.76·0.1)/1.2.
        #expect(abs(p.latitude - (-25.75 * 1.1 - 25.76 * 0.1) / 1.2) < 1e-12)
        #expect(abs(p.longitude - (28.23 * 1.1 + 28.24 * 0.1) / 1.2) < 1e-12)
        let equal = try #require(CellTowerFallback.estimate(towers.map { CellTowerReading(latitude: $0.latitude, longitude: $0.longitude, rssiDBm: -70) }))
        #expect(abs(equal.latitude - (-25.75 * 2 - 25.76) / 3) < 1e-12)
        #expect(CellTowerFallback.estimate([]) == nil)
    }
}
