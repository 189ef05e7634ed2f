import FieldtestData
import FieldtestGSL
import Foundation
import Testing

@testable import Positioning

/// A normal deviate N(0, sigma²) from a seeded generator (GSL's normal quantile).
func gaussian(_ rng: inout SeededGenerator, sigma: Double) -> Double {
    Gaussian.draw(standardDeviation: sigma, using: &rng)
}

@Suite("GPS/PDR fusion")
struct FusionTests {
    /// Simulates a 1.4 m/s walk (a square circuit) with GPS fixes every second (σ = 8 m) except
    /// during `outage`, and PDR steps every 0.5 s (length ±5 %, heading ±5°).
    static func walk(outage: Range<Double>?) -> (fused: [Double], gps: [Double]) {
        var rng = SeededGenerator(seed: 2026)
        var filter = GPSDeadReckoningFilter(east: 0, north: 0, positionSigma: 8)
        var fused: [Double] = []
        var gps: [Double] = []
        let dt = 0.5
        let speed = 1.4
        var e = 0.0
        var n = 0.0
        for step in 1...480 {
            let t = Double(step) * dt
            let heading = Double(Int(t / 60) % 4) * Double.pi / 2  // north, east, south, west legs
            e += speed * dt * sin(heading)
            n += speed * dt * cos(heading)
            filter.predict(dtSeconds: dt)
            filter.updateStep(
                lengthMetres: speed * dt * (1 + gaussian(&rng, sigma: 0.05)),
                headingRadians: heading + gaussian(&rng, sigma: 5 * Double.pi / 180), durationSeconds: dt)
            if step % 2 == 0 && !(outage?.contains(t) ?? false) {
                let ge = e + gaussian(&rng, sigma: 8)
                let gn = n + gaussian(&rng, sigma: 8)
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
}
