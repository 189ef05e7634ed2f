import FieldtestData
import Foundation
import SkyScoring

/// One `sun` query: a place and a local date (`fieldtest sun`'s input columns).
public struct SunQuery: Sendable, Equatable {
    /// Caller's id.
    public var id: String
    /// Latitude, degrees.
    public var latitude: Double
    /// Longitude, degrees east.
    public var longitude: Double
    /// Local date, `YYYY-MM-DD`.
    public var date: String
    /// IANA time zone name.
    public var timezone: String

    /// A query.
    public init(id: String, latitude: Double, longitude: Double, date: String, timezone: String) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.date = date
        self.timezone = timezone
    }

    /// The request fields.
    var fields: [(String, JSONField)] {
        [
            ("id", .string(id)), ("latitude", .number(latitude)), ("longitude", .number(longitude)),
            ("date", .string(date)), ("timezone", .string(timezone)),
        ]
    }
}

/// The solar events of one local date (`fieldtest sun`'s output columns); times are UTC
/// seconds since 1970, nil when the event does not happen that date.
public struct SunTimes: Sendable, Equatable, Decodable {
    /// Sunrise (centre at −0.833°).
    public var sunrise: Double?
    /// Sunset.
    public var sunset: Double?
    /// Solar noon.
    public var solarNoon: Double?
    /// Seconds the Sun is up within the date.
    public var dayLengthSeconds: Double?
    /// Civil dawn (−6°).
    public var civilDawn: Double?
    /// Civil dusk.
    public var civilDusk: Double?
    /// Golden hour, morning: start and end.
    public var goldenHourMorningStart: Double?
    /// Golden hour, morning: end.
    public var goldenHourMorningEnd: Double?
    /// Golden hour, evening: start.
    public var goldenHourEveningStart: Double?
    /// Golden hour, evening: end.
    public var goldenHourEveningEnd: Double?
    /// `polar_day`, `polar_night`, `date_skipped`, `date_repeated` or empty.
    public var note: String

    /// The column names, in `SunBatch.outputColumns` order (without `id` and `date`).
    static let timeColumns = [
        "sunrise", "sunset", "solar_noon", "civil_dawn", "civil_dusk", "golden_hour_morning_start",
        "golden_hour_morning_end", "golden_hour_evening_start", "golden_hour_evening_end",
    ]

    /// Times from the built-in calculator's day.
    public init(_ d: SolarDay) {
        sunrise = d.sunrise
        sunset = d.sunset
        solarNoon = d.solarNoon
        dayLengthSeconds = d.dayLengthSeconds
        civilDawn = d.civilDawn
        civilDusk = d.civilDusk
        goldenHourMorningStart = d.goldenMorning.start
        goldenHourMorningEnd = d.goldenMorning.end
        goldenHourEveningStart = d.goldenEvening.start
        goldenHourEveningEnd = d.goldenEvening.end
        note = d.note.rawValue
    }

    /// The answer fields: times as ISO 8601 UTC to the second (`2024-06-21T03:43:00Z`), `null` when absent.
    public var fields: [(String, JSONField)] {
        let times = [
            sunrise, sunset, solarNoon, civilDawn, civilDusk, goldenHourMorningStart, goldenHourMorningEnd,
            goldenHourEveningStart, goldenHourEveningEnd,
        ]
        return zip(Self.timeColumns, times).map { name, t in
            (name, t.map { .string(Self.iso(Int($0.rounded()))) } ?? .null)
        } + [
            ("day_length_s", dayLengthSeconds.map { .number($0.rounded()) } ?? .null), ("note", .string(note)),
        ]
    }

    static func iso(_ seconds: Int) -> String {
        var bytes: [UInt8] = []
        CivilTime.appendISOUTC(seconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes the answer fields; a time that is not ISO 8601 UTC is a wrong answer.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        var times: [Double?] = []
        for name in Self.timeColumns {
            guard let text = try c.decodeIfPresent(String.self, forKey: Key(stringValue: name)) else {
                times.append(nil)
                continue
            }
            guard let t = TimestampParsing.utcSeconds(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key(stringValue: name), in: c, debugDescription: "expected YYYY-MM-DDTHH:MM:SSZ")
            }
            times.append(t)
        }
        (sunrise, sunset, solarNoon, civilDawn, civilDusk) = (times[0], times[1], times[2], times[3], times[4])
        (goldenHourMorningStart, goldenHourMorningEnd) = (times[5], times[6])
        (goldenHourEveningStart, goldenHourEveningEnd) = (times[7], times[8])
        dayLengthSeconds = try c.decodeIfPresent(Double.self, forKey: Key(stringValue: "day_length_s"))
        if let d = dayLengthSeconds, !(0...90_000).contains(d) {
            throw DecodingError.dataCorruptedError(
                forKey: Key(stringValue: "day_length_s"), in: c, debugDescription: "expected seconds in 0…90000")
        }
        note = try c.decodeIfPresent(String.self, forKey: Key(stringValue: "note")) ?? ""
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` to seconds since 1970.
enum TimestampParsing {
    static func utcSeconds(_ text: String) -> Double? {
        let u = Array(text.utf8)
        guard u.count == 20, u[4] == 45, u[7] == 45, u[10] == 84, u[13] == 58, u[16] == 58, u[19] == 90,
            let date = CivilDate(iso: Substring(text.prefix(10))),
            let h = Int(text.dropFirst(11).prefix(2)), let m = Int(text.dropFirst(14).prefix(2)),
            let s = Int(text.dropFirst(17).prefix(2)), h < 24, m < 60, s < 61
        else { return nil }
        return Double(date.daysSinceEpoch * 86_400 + h * 3_600 + m * 60 + s)
    }
}

/// Solar event times, as an app needs them: one answer per query, in order (nil where the
/// system gave none, or the query's zone or date is not valid for it).
public protocol SunTimesSystem: Sendable {
    /// The solar events of each query's local date.
    func sunTimes(_ queries: [SunQuery]) -> [SunTimes?]
}

extension SolarCalculator: SunTimesSystem {
    /// The calculator's day for each query; nil for an unknown zone or a date that does not exist.
    public func sunTimes(_ queries: [SunQuery]) -> [SunTimes?] {
        queries.map { q in
            // Out-of-range coordinates are no day at all (1e308 once trapped the calculator).
            guard abs(q.latitude) <= 90, abs(q.longitude) <= 180 else { return nil }
            guard let zone = ZoneOffsets.ianaZone(named: q.timezone), q.date.utf8.count == 10,
                let date = CivilDate(iso: Substring(q.date))
            else { return nil }
            return SunTimes(
                day(date: date, latitude: q.latitude, longitude: q.longitude, offsets: ZoneOffsets.shared(for: zone)))
        }
    }
}

/// An external sun-times system (`sun` requests).
public final class ExternalSunTimesSystem: SunTimesSystem, @unchecked Sendable {
    /// The process and its fault counts.
    public let system: ExternalSystem

    /// Wraps a started `sun` system.
    public init(_ system: ExternalSystem) { self.system = system }

    public func sunTimes(_ queries: [SunQuery]) -> [SunTimes?] {
        system.call(queries.map(\.fields), as: SunTimes.self)
    }
}
