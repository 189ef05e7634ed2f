import FieldtestData
import Foundation
import SkyScoring

/// Sun times in-process: sunrise, sunset and the golden hours of one local day at a place.
/// Times are UTC seconds since 1970; the calculator works in the place's own time zone.
enum SunTimes: InProcessExample {
    static func run() throws {
        // snippet.day
        let calculator = SolarCalculator()
        let tromso = (latitude: 69.6492, longitude: 18.9553, zone: TimeZone(identifier: "Europe/Oslo")!)
        for (month, day) in [(3, 20), (6, 21), (12, 21)] {
            let date = CivilDate(year: 2024, month: month, day: day)!
            let sun = calculator.day(
                date: date, latitude: tromso.latitude, longitude: tromso.longitude, zone: tromso.zone)
            let text = { (t: Double?) in t.map { Date(timeIntervalSince1970: $0).formatted(.iso8601) } ?? "none" }
            print(date, "sunrise", text(sun.sunrise), "sunset", text(sun.sunset), sun.note.rawValue)
        }
        // snippet.end
    }
}
