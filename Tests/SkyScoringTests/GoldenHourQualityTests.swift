import FieldtestData
import Foundation
import Testing

@testable import SkyScoring

@Suite("Golden-hour quality properties")
struct GoldenHourQualityTests {
    let model = GoldenHourQuality()

    /// Random conditions with every field present, within physical ranges.
    func random(_ rng: inout SeededGenerator) -> SkyConditions {
        SkyConditions(
            cloudLowPct: .random(in: 0...100, using: &rng), cloudMidPct: .random(in: 0...100, using: &rng),
            cloudHighPct: .random(in: 0...100, using: &rng), cloudTotalPct: nil,
            humidityPct: .random(in: 10...100, using: &rng),
            precipProbabilityPct: .random(in: 0...100, using: &rng),
            visibilityKm: .random(in: 0.1...50, using: &rng), pm25: .random(in: 0...300, using: &rng))
    }

    @Test func moreLowCloudNeverRaisesTheScore() {
        var rng = SeededGenerator(seed: 1)
        for _ in 0..<2000 {
            var c = random(&rng)
            let a = model.score(c).qualityPct
            c.cloudLowPct = min(100, (c.cloudLowPct ?? 0) + .random(in: 0...50, using: &rng))
            #expect(model.score(c).qualityPct <= a + 1e-9)
        }
    }

    @Test func fullLowOvercastScoresBelowFifteen() {
        var rng = SeededGenerator(seed: 2)
        for _ in 0..<2000 {
            var c = random(&rng)
            c.cloudLowPct = 100
            #expect(model.score(c).qualityPct < 15)
        }
    }

    @Test func nearCertainRainScoresBelowTwenty() {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<2000 {
            var c = random(&rng)
            c.precipProbabilityPct = .random(in: 95...100, using: &rng)
            #expect(model.score(c).qualityPct < 20)
        }
    }

    @Test func clearSkyIsMiddling() {
        var rng = SeededGenerator(seed: 4)
        for _ in 0..<2000 {
            let c = SkyConditions(
                cloudLowPct: 0, cloudMidPct: 0, cloudHighPct: 0, humidityPct: .random(in: 10...100, using: &rng),
                precipProbabilityPct: 0, visibilityKm: .random(in: 10...50, using: &rng),
                pm25: .random(in: 0...35, using: &rng))
            let q = model.score(c).qualityPct
            #expect(q >= 30 && q <= 60)
        }
    }

    @Test func midHighCanvasOverClearLowSkyScoresSeventyPlus() {
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<2000 {
            let c = SkyConditions(
                cloudLowPct: 0, cloudMidPct: .random(in: 30...70, using: &rng),
                cloudHighPct: .random(in: 30...70, using: &rng), humidityPct: .random(in: 10...100, using: &rng),
                precipProbabilityPct: 0, visibilityKm: .random(in: 10...50, using: &rng),
                pm25: .random(in: 0...35, using: &rng))
            #expect(model.score(c).qualityPct >= 70)
        }
    }

    @Test func heavyPM25CapsTheScore() {
        var rng = SeededGenerator(seed: 6)
        for _ in 0..<2000 {
            var c = random(&rng)
            c.pm25 = .random(in: 75.01...600, using: &rng)
            let t = model.score(c)
            #expect(t.qualityPct <= model.heavyAerosolCap)
            #expect(abs(t.aerosolCap - 40) < 1e-12)
        }
        // The best canvas with heavy haze is capped, though it would score 90 otherwise.
        let best = SkyConditions(cloudLowPct: 0, cloudMidPct: 50, cloudHighPct: 50, precipProbabilityPct: 0, pm25: 150)
        #expect(abs(model.score(best).qualityPct - 40) < 1e-9)
    }

    @Test func scoresStayInRangeAndUnknownIsNeutral() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let q = model.score(random(&rng)).qualityPct
            #expect(q >= 0 && q <= 100)
        }
        #expect(abs(model.score(SkyConditions()).qualityPct - 45) < 1e-9)
    }

    @Test func tmyOpaqueCloudCountsAsLow() {
        let overcast = SkyConditions.fromTMY(totalTenths: 10, opaqueTenths: 10)
        #expect(model.score(overcast).qualityPct < 15)
        let thin = SkyConditions.fromTMY(totalTenths: 5, opaqueTenths: 0)
        #expect(model.score(thin).qualityPct >= 70)
    }

    @Test func windowAveragesAroundTheEvent() throws {
        // Low cloud ramps 0 → 100 % from t = 0 to t = 4 h; the window ±1 h around 2 h averages 50 %.
        let samples = (0...4).map { h in
            SkySample(timeUTC: Double(h * 3600), conditions: SkyConditions(cloudLowPct: Double(h) * 25))
        }
        let w = try #require(SkyConditions.window(samples, around: 7200))
        #expect(abs((w.cloudLowPct ?? .nan) - 50) < 1e-9)
        #expect(w.humidityPct == nil)
        #expect(SkyConditions.window(samples, around: 30 * 3600) == nil)  // no data within 3 h
    }
}
