import FieldtestData
import Foundation
import Testing

@testable import Capabilities
@testable import SkyScoring

private let notIANA =
    "expected an IANA time zone name such as Europe/Paris, Asia/Kolkata, Etc/GMT-5 or UTC "
    + "(abbreviations like EST and offsets like GMT+5 are not accepted)"

@Suite("sun batch")
struct SunBatchTests {
    /// IANA names, including ones missing from `TimeZone.knownTimeZoneIdentifiers` on Linux
    /// (Asia/Kolkata, Etc/GMT+5), are accepted with their own offsets.
    @Test func ianaZoneNamesAreAccepted() throws {
        let text =
            "id,latitude,longitude,date,timezone\na,1,1,2024-01-01,Asia/Kolkata\nb,1,1,2024-01-01,Etc/GMT+5\n"
            + "c,1,1,2024-01-01,UTC\nd,1,1,2024-01-01,GMT\n"
        let requests = try SunBatch.parse(bytes: Array(text.utf8), file: "in.csv")
        #expect(requests.map { $0.zone.secondsFromGMT() } == [19_800, -18_000, 0, 0])
    }

    /// Samoa skipped 2011-12-30: that row says so with every time empty, and 2011-12-29 (a
    /// real date) has its own events (pvlib SPA: sunrise 17:01:02Z, sunset 05:57:14Z).
    @Test func aDateTheZoneSkippedIsNoted() throws {
        let text =
            "id,latitude,longitude,date,timezone\na29,-13.83,-171.76,2011-12-29,Pacific/Apia\n"
            + "a30,-13.83,-171.76,2011-12-30,Pacific/Apia\n"
        let lines = try SunBatch.run(bytes: Array(text.utf8), file: "in.csv").split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1].hasPrefix("a29,2011-12-29,2011-12-29T17:01:0"))
        #expect(lines[1].split(separator: ",", omittingEmptySubsequences: false)[3].hasPrefix("2011-12-30T05:57:1"))
        #expect(lines[2] == "a30,2011-12-30,,,,,,,,,,,date_skipped")
    }

    @Test(
        "a 47-hour local date (Pacific/Kwajalein 1969-09-30) gives its first events, date_repeated and all its daylight"
    )
    func aRepeatedDateIsNoted() throws {
        let zone = try #require(TimeZone(identifier: "Pacific/Kwajalein"))
        let calculator = SolarCalculator()
        let date = CivilDate(daysSinceEpoch: -93)  // 1969-09-30
        #expect(date.description == "1969-09-30")
        let (start, end) = SolarCalculator.localDayBounds(date, zone: zone)
        #expect(end - start == 47 * 3600)
        let day = calculator.day(date: date, latitude: 9, longitude: 167.7, zone: zone)
        #expect(day.note == .dateRepeated)
        #expect(SolarDay.Note.dateRepeated.rawValue == "date_repeated")
        // The first sunrise and sunset of the date, the same as the ordinary days' around it.
        let sunrise = try #require(day.sunrise)
        let sunset = try #require(day.sunset)
        #expect(CivilTime.isoUTC(Int(sunrise.rounded())) == "1969-09-29T18:37:42Z")
        #expect(CivilTime.isoUTC(Int(sunset.rounded())) == "1969-09-30T06:40:56Z")
        #expect(Double(start) <= sunrise && sunrise < sunset)
        // Two days' daylight (about 12 h each), not one.
        let length = try #require(day.dayLengthSeconds)
        #expect(abs(length - 86_757) < 1)
        let before = calculator.day(date: CivilDate(daysSinceEpoch: -94), latitude: 9, longitude: 167.7, zone: zone)
        let after = calculator.day(date: CivilDate(daysSinceEpoch: -92), latitude: 9, longitude: 167.7, zone: zone)
        #expect(before.note == .none && after.note == .none)
        #expect(abs(length - (before.dayLengthSeconds ?? 0) - (after.dayLengthSeconds ?? 0)) < 60)
    }

    @Test(
        "before 1900 a date the zone skipped is found whatever the jump (Asia/Manila 1844-12-31), and the day before has its events"
    )
    func aSkippedDateBefore1900IsNoted() throws {
        let text =
            "id,latitude,longitude,date,timezone\nm30,14.6,121,1844-12-30,Asia/Manila\nm31,14.6,121,1844-12-31,Asia/Manila\n"
            + "m01,14.6,121,1845-01-01,Asia/Manila\n"
        let lines = try SunBatch.run(bytes: Array(text.utf8), file: "in.csv").split(
            separator: "\n", omittingEmptySubsequences: false)
        let m30 = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        #expect(m30[2] == "1844-12-30T22:21:00Z" && m30[3] == "1844-12-31T09:37:42Z")
        #expect(m30[5] == "40602" && m30[12] == "")
        #expect(lines[2] == "m31,1844-12-31,,,,,,,,,,,date_skipped")
        #expect(lines[3].hasPrefix("m01,1845-01-01,1844-12-31T22:21:23Z,1845-01-01T09:38:17Z,"))
    }

    /// Rows of one location must agree on its coordinates; the first disagreeing field is located.
    @Test func scoreRejectsALocationWithTwoPositions() {
        let text =
            "location_id,latitude,longitude,time\nL1,47.6,-122.3,2024-01-01T00:00:00Z\n"
            + "L1,47.60,-122.3,2024-01-01T01:00:00Z\nL1,47.6,-122.4,2024-01-01T02:00:00Z\n"
        #expect(
            throws: DataError.invalidField(
                file: "w.csv", line: 4, field: "longitude", value: "-122.4",
                reason: "location 'L1' has longitude -122.3 on line 2; give every row of a "
                    + "location the same coordinates, or use a different location_id")
        ) {
            try ScoreBatch.parse(bytes: Array(text.utf8), file: "w.csv")
        }
    }

    @Test func rendersTheSpecifiedColumns() throws {
        let text =
            "id,latitude,longitude,date,timezone\ntromso,69.6492,18.9553,2024-06-21,Europe/Oslo\nsg,1.3521,103.8198,2024-03-20,Asia/Singapore\n"
        let out = try SunBatch.run(bytes: Array(text.utf8), file: "in.csv")
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines[0]
                == "id,date,sunrise,sunset,solar_noon,day_length_s,civil_dawn,civil_dusk,golden_hour_morning_start,golden_hour_morning_end,golden_hour_evening_start,golden_hour_evening_end,note"
        )
        let polar = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        #expect(polar.count == 13)
        #expect(polar[2] == "" && polar[3] == "" && polar[12] == "polar_day")
        let sg = lines[2].split(separator: ",", omittingEmptySubsequences: false)
        #expect(sg[2].hasSuffix("Z") && sg[2].count == 20)
        #expect(sg[12] == "")
    }

    @Test(arguments: [
        ("x,10,10,2024-01-01,Mars/Base", "timezone", notIANA),
        // Foundation reads these as UTC+5 (the opposite sign of IANA's Etc/GMT+5) or as abbreviations.
        ("x,10,10,2024-01-01,GMT+5", "timezone", notIANA),
        ("x,10,10,2024-01-01,UTC+5", "timezone", notIANA),
        ("x,10,10,2024-01-01,IST", "timezone", notIANA),
        ("x,10,10,2024-01-01,EST", "timezone", notIANA),
        ("x,10,10,2023-02-29,UTC", "date", "expected an existing date YYYY-MM-DD"),
        ("x,91,10,2024-01-01,UTC", "latitude", "outside -90…90"),
    ])
    func badRowsAreLocated(_ row: String, _ field: String, _ reason: String) {
        let text = "id,latitude,longitude,date,timezone\nok,1,1,2024-01-01,UTC\n\(row)\n"
        #expect(throws: DataError.self) { try SunBatch.run(bytes: Array(text.utf8), file: "in.csv") }
        do {
            _ = try SunBatch.run(bytes: Array(text.utf8), file: "in.csv")
        } catch {
            guard case .invalidField(let file, let line, let f, _, let r) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(file == "in.csv" && line == 3 && f == field && r == reason)
        }
    }
}
