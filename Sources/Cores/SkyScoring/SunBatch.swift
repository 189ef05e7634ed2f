import FieldtestData
import Foundation

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
        for (r, d) in zip(requests, days) {
            w.field(r.id)
            w.field(r.date.description)
            for v in [d.sunrise, d.sunset, d.solarNoon] { time(v, into: &w) }
            w.field(d.dayLengthSeconds.map { String(Int($0.rounded())) } ?? "")
            for v in [
                d.civilDawn, d.civilDusk, d.goldenMorning.start, d.goldenMorning.end, d.goldenEvening.start,
                d.goldenEvening.end,
            ] {
                time(v, into: &w)
            }
            w.field(d.note.rawValue)
            w.endRecord()
        }
        return w
    }

    /// Appends the field of an event time `v` (epoch seconds, UTC): ISO 8601 to the second, written
    /// straight into the output bytes; empty when the event does not happen.
    @inline(__always)
    static func time(_ v: Double?, into w: inout CSVWriter) {
        w.field(unquotedBytes: { bytes in if let v { CivilTime.appendISOUTC(Int(v.rounded()), to: &bytes) } })
    }

    /// Parse, compute and render in one call.
    public static func run(bytes: [UInt8], file: String) throws(DataError) -> String {
        let requests = try parse(bytes: bytes, file: file)
        return render(requests, compute(requests))
    }
}

extension SunBatch {
    /// `fieldtest sun` as one call: the CSV file `path` (`-`: standard input) streamed a run of rows at
    /// a time (`CSVStreaming`) to `output` (nil or `-`: standard output), in bounded memory; the same
    /// bytes as `run(bytes:file:)`. An `output` that names the input is refused.
    public static func run(file path: String, output: String?) throws {
        var zones: [String: ZoneOffsets] = [:]
        let calculator = SolarCalculator()
        try CSVStreaming.transform(input: path, option: "--input", output: output, header: outputColumns) { table in
            let requests = try parse(table: table, zones: &zones)
            return rows(requests, compute(requests, calculator: calculator))
        }
    }
}
