import FieldtestData
import Foundation
import SkyScoring

/// The `fieldtest sun` batch: one CSV of location-days in, one CSV of solar events out.
///
/// Input columns `id,latitude,longitude,date,timezone` (date `YYYY-MM-DD`, IANA zone name
/// such as `Europe/Paris` or `UTC`; abbreviations and offsets like `EST` or `GMT+5` are
/// rejected). Output columns `SunBatch.outputColumns`, times as UTC ISO 8601 with whole
/// seconds and `Z` (rounded to the nearest second), empty when the event does not happen
/// that local date. `day_length_s` is the time the Sun is up within the local date
/// (`SolarDay.dayLengthSeconds`). `note` is `polar_day` or `polar_night` when the Sun neither
/// rises nor sets during the date, and `date_skipped` (every time and `day_length_s` empty)
/// when the zone skipped the date, as Pacific/Apia did 2011-12-30. O(n) in rows.
public enum SunBatch {
    /// Output header, in order.
    public static let outputColumns = [
        "id", "date", "sunrise", "sunset", "solar_noon", "day_length_s", "civil_dawn", "civil_dusk",
        "golden_hour_morning_start", "golden_hour_morning_end", "golden_hour_evening_start",
        "golden_hour_evening_end", "note",
    ]

    /// `fieldtest sun --help`'s description of the output.
    public static let discussion = """
        Sunrise/sunset: Sun's centre at −0.833° (NOAA/SPA convention); events are those of the local date. \
        timezone: an IANA name (Europe/Paris, Etc/GMT-5, UTC); abbreviations (EST, IST) and offsets (GMT+5) are errors. \
        day_length_s: seconds the Sun is up within the local date; 86400 on a polar day, 0 on a polar night. \
        note: polar_day / polar_night when the Sun neither rises nor sets; date_skipped (times and day_length_s \
        empty) when the zone skipped the date (e.g. Pacific/Apia 2011-12-30); date_repeated when the zone moved \
        back across the date line and the date lasts over 26 hours (e.g. Pacific/Kwajalein 1969-09-30): its \
        first events are given.
        """

    /// One validated input row.
    public struct Request: Sendable {
        /// Caller's id, copied to the output.
        public var id: String
        /// Latitude, degrees.
        public var latitude: Double
        /// Longitude, degrees east.
        public var longitude: Double
        /// Local date.
        public var date: CivilDate
        /// IANA time zone, with its offset table.
        public var offsets: ZoneOffsets
        /// IANA time zone.
        public var zone: TimeZone { offsets.zone }
    }

    /// Parses and validates the input table; any bad row is a located `DataError`
    /// (a time zone that is not an IANA name, nonexistent date, latitude/longitude out of range).
    public static func parse(bytes: [UInt8], file: String) throws(DataError) -> [Request] {
        var zones: [String: ZoneOffsets] = [:]
        return try parse(table: try CSVTable(bytes: bytes, file: file), zones: &zones)
    }

    /// `parse(bytes:file:)` of a table (or of one run of a streamed file); `zones` caches the zones
    /// read so far by name.
    public static func parse(table: CSVTable, zones: inout [String: ZoneOffsets]) throws(DataError) -> [Request] {
        try table.require(["id", "latitude", "longitude", "date", "timezone"])
        return try table.load(policy: .strict) { (row) throws(DataError) -> Request? in
            let dateText = try row.string("date").trimmedOfWhitespace
            guard dateText.utf8.count == 10, let date = CivilDate(iso: Substring(dateText)) else {
                throw row.invalid("date", "expected an existing date YYYY-MM-DD")
            }
            let name = try row.string("timezone").trimmedOfWhitespace
            let zone: ZoneOffsets
            if let z = zones[name] {
                zone = z
            } else {
                guard let z = ZoneOffsets.ianaZone(named: name) else {
                    throw row.invalid(
                        "timezone",
                        "expected an IANA time zone name such as Europe/Paris, Asia/Kolkata, "
                            + "Etc/GMT-5 or UTC (abbreviations like EST and offsets like GMT+5 are not accepted)")
                }
                zone = ZoneOffsets.shared(for: z)
                zones[name] = zone
            }
            return Request(
                id: try row.string("id"), latitude: try row.latitude(), longitude: try row.longitude(),
                date: date, offsets: zone)
        }.records
    }

    /// Computes every row's solar day.
    public static func compute(_ requests: [Request], calculator: SolarCalculator = SolarCalculator()) -> [SolarDay] {
        requests.map {
            calculator.day(date: $0.date, latitude: $0.latitude, longitude: $0.longitude, offsets: $0.offsets)
        }
    }

    /// Renders the output CSV.
    public static func render(_ requests: [Request], _ days: [SolarDay]) -> String {
        var w = CSVWriter(capacity: 64 + requests.count * 240)
        w.row(outputColumns)
        w.append(records: rows(requests, days))
        return w.text
    }

    /// The output rows of `requests` (no header).
    public static func rows(_ requests: [Request], _ days: [SolarDay]) -> CSVWriter {
        var w = CSVWriter(capacity: requests.count * 240)
        var stamps = TimeStamps()
        for (r, d) in zip(requests, days) {
            w.field(r.id)
            w.field(r.date.description)
            // One call per field rather than a loop over an array literal: no array per row.
            time(d.sunrise, into: &w, stamps: &stamps)
            time(d.sunset, into: &w, stamps: &stamps)
            time(d.solarNoon, into: &w, stamps: &stamps)
            w.field(d.dayLengthSeconds.map { String(Int($0.rounded())) } ?? "")
            time(d.civilDawn, into: &w, stamps: &stamps)
            time(d.civilDusk, into: &w, stamps: &stamps)
            time(d.goldenMorning.start, into: &w, stamps: &stamps)
            time(d.goldenMorning.end, into: &w, stamps: &stamps)
            time(d.goldenEvening.start, into: &w, stamps: &stamps)
            time(d.goldenEvening.end, into: &w, stamps: &stamps)
            w.field(d.note.rawValue)
            w.endRecord()
        }
        return w
    }

    /// Appends the field of an event time `v` (epoch seconds, UTC): ISO 8601 to the second, written
    /// straight into the output bytes; empty when the event does not happen.
    @inline(__always)
    static func time(_ v: Double?, into w: inout CSVWriter, stamps: inout TimeStamps) {
        w.field(unquotedBytes: { bytes in if let v { stamps.append(Int(v.rounded()), to: &bytes) } })
    }

    /// `CivilTime.appendISOUTC` with the date text of the last day written kept: a row's nine event
    /// times fall on one to three days, so most times reuse it instead of converting the day again.
    struct TimeStamps {
        /// Day (since 1970-01-01) whose `YYYY-MM-DD` is in `date`; `Int.min` before the first.
        private var day = Int.min
        private var date: [UInt8] = []

        /// Appends the same bytes as `CivilTime.appendISOUTC(seconds, to:)`.
        mutating func append(_ seconds: Int, to bytes: inout [UInt8]) {
            let d = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
            if d != day {
                let civil = CivilDate(daysSinceEpoch: d)
                // Years beyond four digits take the general path.
                guard (0...9999).contains(civil.year) else { return CivilTime.appendISOUTC(seconds, to: &bytes) }
                day = d
                date = Array(civil.description.utf8)
            }
            bytes.append(contentsOf: date)
            CivilTime.appendTimeOfDay(seconds - d * 86_400, to: &bytes)
        }
    }

    /// Parse, compute and render in one call.
    public static func run(bytes: [UInt8], file: String) throws(DataError) -> String {
        let requests = try parse(bytes: bytes, file: file)
        return render(requests, compute(requests))
    }
}
