import Foundation
import Testing

@testable import Capabilities
@testable import SkyScoring

@Suite("NREL SPA reference")
struct SolarPositionAlgorithmTests {
    /// The paper's test case (Reda & Andreas 2004, table A5.1 / the SPA tester): Golden, Colorado,
    /// 2003-10-17 12:30:30 local time (UTC−7), ΔT 67 s, 820 mbar, 11 °C, a surface tilted 30°
    /// and rotated −10° from south.
    static let golden = SolarPositionAlgorithm.Observer(
        latitude: 39.742476, longitude: -105.1786, elevationMetres: 1830.14, pressureMillibars: 820,
        temperatureC: 11, refractionAtHorizonDeg: 0.5667)
    /// 2003-10-17T19:30:30Z.
    static let instant = 1_066_419_030.0

    @Test func reproducesThePublishedPosition() {
        let p = SolarPositionAlgorithm.position(unixSeconds: Self.instant, deltaT: 67, observer: Self.golden)
        #expect(abs(SolarPositionAlgorithm.julianDay(unixSeconds: Self.instant) - 2_452_930.312847) < 1e-6)
        #expect(abs(p.heliocentricLongitude - 24.0182616917) < 1e-6)
        #expect(abs(p.heliocentricLatitude - -0.0001011219) < 1e-9)
        #expect(abs(p.radiusAU - 0.9965422974) < 1e-9)
        #expect(abs(p.hourAngle - 11.105902) < 1e-5)
        #expect(abs(p.nutationLongitude - -0.00399840) < 1e-8)
        #expect(abs(p.nutationObliquity - 0.00166657) < 1e-8)
        #expect(abs(p.obliquity - 23.440465) < 1e-6)
        #expect(abs(p.zenith - 50.11162) < 1e-5)
        #expect(abs(p.azimuth - 194.34024) < 1e-5)
        #expect(abs(p.incidence(slope: 30, surfaceAzimuthRotation: -10) - 25.18700) < 1e-5)
    }

    /// Appendix A.2 on the same case: sunrise 06:12:43, transit 11:46:04 and sunset 17:20:19 local
    /// time (UTC−7). A.2 keeps each event's fraction of the UTC day in [0, 1), so that sunset is the
    /// crossing at 00:20:19Z on the 17th (the paper's local clock wraps it to 17:20:19).
    @Test func reproducesThePublishedSunTimes() throws {
        let day = Int((Self.instant / 86_400).rounded(.down))
        let t = SolarPositionAlgorithm.sunTimes(utcDay: day, deltaT: 67, observer: Self.golden)
        func utc(_ h: Int, _ m: Int, _ s: Int) -> Double { Double(day * 86_400 + h * 3600 + m * 60 + s) }
        let sunrise = try #require(t.sunrise)
        let sunset = try #require(t.sunset)
        #expect(abs(sunrise - utc(6 + 7, 12, 43)) < 1)
        #expect(abs(t.transit - utc(11 + 7, 46, 4)) < 1)
        #expect(abs(sunset - utc(17 + 7 - 24, 20, 19)) < 1)
    }

    /// The refined reference lands exactly on the −0.8333° crossing; a polar night has no event.
    @Test(arguments: [(39.742476, -105.1786), (69.6496, 18.9560), (-33.8688, 151.2093), (1.2897, 103.8501)])
    func referenceEventsAreHorizonCrossings(latitude: Double, longitude: Double) {
        let reference = SunReference()
        let start = 1_641_600_000.0  // 2022-01-08T00:00:00Z
        let observer = SolarPositionAlgorithm.Observer(latitude: latitude, longitude: longitude)
        let rises = reference.events(
            latitude: latitude, longitude: longitude, sunrise: true, from: start, to: start + 3 * 86_400)
        if latitude > 66.6 {
            #expect(rises.isEmpty)  // Tromsø in early January: polar night
            return
        }
        #expect(rises.count == 3)
        for t in rises {
            let e = SolarPositionAlgorithm.position(
                unixSeconds: t, deltaT: SolarPositionAlgorithm.estimatedDeltaT(unixSeconds: t), observer: observer)
            #expect(abs(e.elevationWithoutRefraction - SunReference.horizonDeg) < 1e-4)
            // Rising: the Sun is higher a minute later.
            let later = SolarPositionAlgorithm.position(unixSeconds: t + 60, deltaT: 69, observer: observer)
            #expect(later.elevationWithoutRefraction > e.elevationWithoutRefraction)
        }
    }

    @Test func deltaTFollowsTheObservedValues() {
        #expect(abs(SolarPositionAlgorithm.estimatedDeltaT(year: 2000) - 63.86) < 0.01)
        #expect(abs(SolarPositionAlgorithm.estimatedDeltaT(year: 1975) - 45.45) < 0.01)
        #expect((60...80).contains(SolarPositionAlgorithm.estimatedDeltaT(year: 2023)))
    }
}
