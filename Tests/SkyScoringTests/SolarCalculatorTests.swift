import FieldtestData
import Foundation
import Testing
@testable import SkyScoring

private func zone(_ id: String) throws -> TimeZone { try #require(TimeZone(identifier: id)) }
private func date(_ y: Int, _ m: Int, _ d: Int) throws -> CivilDate { try #require(CivilDate(year: y, month: m, day: d)) }
private func iso(_ t: Double?) -> String { t.map { CivilTime.isoUTC(Int($0.rounded())) } ?? "" }

@Suite("Solar calculator")
struct SolarCalculatorTests {
    let calc = SolarCalculator()

    /// Golden file of NREL SPA events (see Fixtures/make_spa_reference.py): every sunrise and
    /// sunset must be within 30 s of SPA. Each SPA event is matched with our event of the same
    /// kind nearest to it among the UTC dates D−1…D+1.
    @Test func withinThirtySecondsOfSPA() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/spa_reference.csv")
        let table = try CSVTable(url: url)
        let utc = try zone("UTC")
        var worst = 0.0
        var compared = 0
        for r in table.records {
            let f = r.fields
            try #require(f.count == 7)
            let lat = try #require(Double(f[1])), lon = try #require(Double(f[2]))
            let d = try #require(CivilDate(iso: Substring(f[3])))
            let days = (-1...1).map { calc.day(date: d.adding(days: $0), latitude: lat, longitude: lon, zone: utc) }
            for (text, ours) in [(f[4], days.compactMap(\.sunrise)), (f[5], days.compactMap(\.sunset)), (f[6], days.compactMap(\.solarNoon))] {
                guard let ref = Double(text), ref.isFinite else { continue }
                let err = ours.map { abs($0 - ref) }.min() ?? .infinity
                worst = max(worst, err)
                compared += 1
            }
        }
        #expect(compared >= 590)
        #expect(worst <= 30, "max |error| vs SPA = \(worst) s")
    }

    @Test func singaporeEquinoxIsAboutTwelveHours() throws {
        let d = calc.day(date: try date(2024, 3, 20), latitude: 1.3521, longitude: 103.8198, zone: try zone("Asia/Singapore"))
        // NREL SPA (pvlib 0.16.1, refined as in Fixtures/make_spa_reference.py): sunrise 2024-03-19T23:08:52Z
        // (07:08:52 SGT), sunset 2024-03-20T11:15:24Z; 30 s tolerance (the accuracy goal).
        let rise = try #require(d.sunrise), set = try #require(d.sunset)
        #expect(abs(rise - 1_710_889_732) < 30)
        #expect(abs(set - 1_710_933_324) < 30)
        #expect(abs((d.dayLengthSeconds ?? 0) - 43_592) < 60)
        #expect(d.note == .none)
    }

    @Test func halfHourZoneReportsTheLocalDate() throws {
        // Adelaide, UTC+10:30 in January (DST): local sunrise ~06:17 = previous UTC day 19:47Z.
        let z = try zone("Australia/Adelaide")
        let d = calc.day(date: try date(2024, 1, 15), latitude: -34.9285, longitude: 138.6007, zone: z)
        let (start, end) = SolarCalculator.localDayBounds(try date(2024, 1, 15), zone: z)
        #expect(end - start == 86_400)
        for t in [d.sunrise, d.sunset, d.solarNoon, d.civilDawn, d.civilDusk] {
            let v = try #require(t)
            #expect(v >= Double(start) && v < Double(end))
        }
        #expect(iso(d.sunrise).hasPrefix("2024-01-14T19:"))
    }

    @Test func dstDaysAreTwentyThreeAndTwentyFiveHours() throws {
        let ny = try zone("America/New_York")
        let spring = SolarCalculator.localDayBounds(try date(2024, 3, 10), zone: ny)
        let fall = SolarCalculator.localDayBounds(try date(2024, 11, 3), zone: ny)
        #expect(spring.end - spring.start == 23 * 3600)
        #expect(fall.end - fall.start == 25 * 3600)
        let d = calc.day(date: try date(2024, 3, 10), latitude: 40.7128, longitude: -74.0060, zone: ny)
        // NOAA solar calculator: sunrise 07:15 EDT = 11:15Z, sunset 18:58 EDT = 22:58Z (±1 min).
        #expect(abs((d.sunrise ?? 0) - 1_710_069_300) < 60)
        #expect(abs((d.sunset ?? 0) - 1_710_111_480) < 60)
    }

    @Test func polarDayAndNight() throws {
        let oslo = try zone("Europe/Oslo")
        let summer = calc.day(date: try date(2024, 6, 21), latitude: 69.6492, longitude: 18.9553, zone: oslo)
        #expect(summer.note == .polarDay)
        #expect(summer.sunrise == nil && summer.sunset == nil)
        #expect(summer.dayLengthSeconds == 86_400)
        #expect(summer.solarNoon != nil)
        let winter = calc.day(date: try date(2024, 12, 21), latitude: 69.6492, longitude: 18.9553, zone: oslo)
        #expect(winter.note == .polarNight)
        #expect(winter.dayLengthSeconds == 0)
        // Civil twilight still happens at Tromsø at midwinter (noon altitude ≈ −3°).
        #expect(winter.civilDawn != nil && winter.civilDusk != nil)
        #expect(winter.goldenMorning.end == nil)  // the Sun never reaches +6°
        let pole = calc.day(date: try date(2024, 12, 21), latitude: 89.9, longitude: 0, zone: try zone("UTC"))
        #expect(pole.note == .polarNight)
        #expect(pole.civilDawn == nil)
    }

    @Test func dateLineZonesFollowTheZoneNotTheLongitude() throws {
        // Kiritimati (UTC+14, lon −157): the local date 2024-06-01 runs 2024-05-31T10:00Z…2024-06-01T10:00Z.
        let z = try zone("Pacific/Kiritimati")
        let d = calc.day(date: try date(2024, 6, 1), latitude: 1.87, longitude: -157.43, zone: z)
        #expect(iso(d.sunrise).hasPrefix("2024-05-31T16:"))
        #expect(iso(d.sunset).hasPrefix("2024-06-01T04:"))
        // Same place, UTC−10 (Honolulu's offset): the same local date is a different solar day.
        let h = calc.day(date: try date(2024, 6, 1), latitude: 1.87, longitude: -157.43, zone: try zone("Pacific/Honolulu"))
        #expect(abs((h.sunrise ?? 0) - (d.sunrise ?? 0) - 86_400) < 120)
    }

    @Test func goldenAndBlueHourOrdering() throws {
        let d = calc.day(date: try date(2024, 9, 1), latitude: 48.8566, longitude: 2.3522, zone: try zone("Europe/Paris"))
        let seq = [d.civilDawn, d.goldenMorning.start, d.sunrise, d.goldenMorning.end, d.solarNoon,
                   d.goldenEvening.start, d.sunset, d.goldenEvening.end, d.civilDusk].map { $0 ?? .nan }
        #expect(seq.allSatisfy { $0.isFinite })
        #expect(zip(seq, seq.dropFirst()).allSatisfy { $0 < $1 })
        #expect(d.blueMorning.start == d.civilDawn && d.blueMorning.end == d.goldenMorning.start)
        // Altitudes at the boundaries (0.01° tolerance: the iteration stops below 0.05 s of time).
        let p = SolarPosition(utcSeconds: d.goldenEvening.start ?? 0, latitude: 48.8566, longitude: 2.3522)
        #expect(abs(p.altitudeDeg - 6) < 0.01)
        let q = SolarPosition(utcSeconds: d.sunrise ?? 0, latitude: 48.8566, longitude: 2.3522)
        #expect(abs(q.altitudeDeg + 0.833) < 0.01)
    }
}
