import FieldtestData
import Foundation
import Testing

@testable import Capabilities
@testable import SkyScoring

/// `fieldtest score`'s batch job (`ScoreBatch`): weather rows in, golden-hour quality per event out.
@Suite("score batch")
struct ScoreBatchTests {
    @Test func scoreBatchEndToEnd() throws {
        // Singapore, 2024-03-20, hourly rows 20:00Z (19th) … 14:00Z; sunrise ≈ 23:04Z, sunset ≈ 11:12Z.
        var text =
            "location_id,latitude,longitude,time,cloud_low_pct,cloud_mid_pct,cloud_high_pct,humidity_pct,precip_probability_pct,visibility_km\n"
        for h in 0...18 {
            let t = 1_710_878_400 + h * 3600
            text += "sg,1.3521,103.8198,\(CivilTime.isoUTC(t)),0,50,40,70,0,20\n"
        }
        let out = try ScoreBatch.run(bytes: Array(text.utf8), file: "w.csv")
        let lines = out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("location_id,event,event_time,quality_pct,base,canvas_bonus,") == true)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("sg,sunrise,2024-03-19T23:0"))
        #expect(lines[2].hasPrefix("sg,sunset,2024-03-20T11:1"))
        let q = try #require(Double(lines[1].split(separator: ",")[3]))
        #expect(abs(q - 85.5) < 1e-6)  // (45 + 45) × humidity factor 0.95
    }

    @Test("score: an event crossing 00:00 UTC is scored once, every day of the year (lat 10, lon -90.5, 2021)")
    func scoreBatchKeepsEventsAcrossUTCMidnight() throws {
        let start = 1_609_459_200.0  // 2021-01-01T00:00:00Z
        let samples = (0..<(365 * 24)).map {
            SkySample(timeUTC: start + Double($0) * 3600, conditions: SkyConditions(cloudLowPct: 10))
        }
        let events = ScoreBatch.score([ScoreBatch.Location(id: "p", latitude: 10, longitude: -90.5, samples: samples)])
        let sunsets = events.filter { $0.event == "sunset" }
        let sunrises = events.filter { $0.event == "sunrise" }
        // Every sunrise; every sunset but 2021-12-31's (≈ 23:44Z, after the last row at 23:00Z).
        #expect(sunrises.count == 365)
        #expect(sunsets.count == 364)
        #expect(sunsets.last.map { CivilTime.isoUTC(Int($0.timeUTC.rounded())).hasPrefix("2021-12-30T23:") } == true)
        // The sunset `fieldtest sun` reports for this place on 2021-09-18 (local), just after midnight UTC.
        #expect(sunsets.contains { CivilTime.isoUTC(Int($0.timeUTC.rounded())) == "2021-09-19T00:00:18Z" })
        // Each event once: consecutive sunsets are about a day apart, in time order.
        let gaps = zip(sunsets.dropFirst(), sunsets).map { $0.timeUTC - $1.timeUTC }
        #expect(gaps.allSatisfy { (86_000...86_800).contains($0) })
    }

    @Test func scoreBatchRejectsBadRows() {
        let text = "location_id,latitude,longitude,time,cloud_low_pct\nsg,1.35,103.8,2024-03-20T00:00:00Z,140\n"
        #expect(
            throws: DataError.invalidField(
                file: "w.csv", line: 2, field: "cloud_low_pct", value: "140", reason: "outside 0…100")
        ) {
            try ScoreBatch.run(bytes: Array(text.utf8), file: "w.csv")
        }
        let local = "location_id,latitude,longitude,time\nsg,1.35,103.8,2024-03-20T00:00:00\n"
        #expect(
            throws: DataError.invalidField(
                file: "w.csv", line: 2, field: "time", value: "2024-03-20T00:00:00",
                reason: "expected UTC ISO 8601 YYYY-MM-DDTHH:MM:SSZ")
        ) {
            try ScoreBatch.run(bytes: Array(local.utf8), file: "w.csv")
        }
    }
}
