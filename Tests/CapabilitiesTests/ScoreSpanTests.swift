import FieldtestData
import Foundation
import Testing

@testable import Capabilities
@testable import SkyScoring

/// `score` computes events only near its rows, so its cost follows the rows, not the time they span.
@Suite("score: cost of far-apart rows")
struct ScoreSpanTests {
    /// Every event the old walk over each day of the span scored: the reference for the sparse walk.
    static func everyDay(_ loc: ScoreBatch.Location) -> [String] {
        let calculator = SolarCalculator()
        let first = loc.samples.first!.timeUTC
        let last = loc.samples.last!.timeUTC
        let offset = Int((loc.longitude / 15).rounded()) * 3600
        let zone = TimeZone(secondsFromGMT: offset)!
        let d0 = Int(((first + Double(offset)) / 86_400).rounded(.down)) - 1
        let d1 = Int(((last + Double(offset)) / 86_400).rounded(.down)) + 1
        var seen: Set<String> = []
        var out: [String] = []
        for day in d0...d1 {
            let s = calculator.day(
                date: CivilDate(daysSinceEpoch: day), latitude: loc.latitude, longitude: loc.longitude, zone: zone)
            for (name, t) in [("sunrise", s.sunrise), ("sunset", s.sunset)] {
                guard let t, t >= first, t <= last, seen.insert("\(name) \(Int(t.rounded()))").inserted,
                    let c = SkyConditions.window(loc.samples, around: t)
                else { continue }
                out.append("\(name) \(Int(t.rounded())) \(GoldenHourQuality().score(c).qualityPct)")
            }
        }
        return out
    }

    @Test("N21: rows far apart in time give the events of a walk over every day, computing only days near rows")
    func n21SparseRowsScoreOnlyNearTheirDays() {
        let start = 1_609_459_200.0  // 2021-01-01T00:00:00Z
        var samples: [SkySample] = []
        // Three clusters of hourly rows, months apart, and lone rows between them.
        for (day, hours) in [(0, 30), (200, 50), (700, 26)] {
            for h in 0..<hours {
                samples.append(
                    SkySample(
                        timeUTC: start + Double(day * 86_400 + h * 3600),
                        conditions: SkyConditions(cloudLowPct: Double(h % 7) * 10, cloudHighPct: 40)))
            }
        }
        samples.append(SkySample(timeUTC: start + 90 * 86_400 + 11 * 3600, conditions: SkyConditions(cloudLowPct: 5)))
        samples.append(SkySample(timeUTC: start + 400.5 * 86_400, conditions: SkyConditions(cloudLowPct: 5)))
        for (lat, lon) in [(25.77, -80.19), (64.1, -21.9), (-33.9, 151.2), (78.2, 15.6)] {
            let loc = ScoreBatch.Location(id: "p", latitude: lat, longitude: lon, samples: samples)
            let sparse = ScoreBatch.score([loc]).map {
                "\($0.event) \(Int($0.timeUTC.rounded())) \($0.terms.qualityPct)"
            }
            #expect(sparse == Self.everyDay(loc), "lat \(lat), lon \(lon)")
            if abs(lat) < 60 { #expect(!sparse.isEmpty) }  // Svalbard's dates here are polar nights and days
        }
    }

    @Test("N21: two rows in years 1 and 9999 compute a handful of days, not 3.6 million")
    func n21ExtremeSpanIsBoundedByRows() throws {
        let text =
            "location_id,latitude,longitude,time,cloud_low_pct\nm,25.77,-80.19,0001-01-01T00:00:00Z,10\n"
            + "m,25.77,-80.19,9999-12-31T23:00:00Z,10\n"
        let locations = try ScoreBatch.parse(bytes: Array(text.utf8), file: "span.csv")
        let days = ScoreBatch.eventDays(locations[0].samples, offsetSeconds: -5 * 3600)
        #expect(days.count == 10)
        #expect(days == days.sorted())
        let out = try ScoreBatch.run(bytes: Array(text.utf8), file: "span.csv")
        #expect(out.split(separator: "\n").count <= 3)
    }
}
