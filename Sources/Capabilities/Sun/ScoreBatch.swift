import FieldtestData
import Foundation
import SkyScoring

/// The `fieldtest score` batch: hourly weather per location in, one quality row per
/// sunrise/sunset out.
///
/// Input columns `location_id,latitude,longitude,time` (UTC ISO 8601) and any of
/// `cloud_low_pct,cloud_mid_pct,cloud_high_pct,cloud_total_pct,humidity_pct,
/// precip_probability_pct,visibility_km,pm25_ugm3` (blank = unknown). Output columns
/// `location_id,event,event_time,quality_pct` and one column per `QualityTerms` term, plus the
/// window-mean inputs. Events are every sunrise and sunset (−0.833°) falling within the span of
/// the location's rows; each is scored on `SkyConditions.window` around it.
/// O(n log n + e·w) for n rows, e events and window size w.
public enum ScoreBatch {
    /// Optional weather columns and the fields they fill.
    static var inputColumns: [(String, WritableKeyPath<SkyConditions, Double?>, ClosedRange<Double>)] {
        [
            ("cloud_low_pct", \.cloudLowPct, 0...100), ("cloud_mid_pct", \.cloudMidPct, 0...100),
            ("cloud_high_pct", \.cloudHighPct, 0...100), ("cloud_total_pct", \.cloudTotalPct, 0...100),
            ("humidity_pct", \.humidityPct, 0...100), ("precip_probability_pct", \.precipProbabilityPct, 0...100),
            ("visibility_km", \.visibilityKm, 0...500), ("pm25_ugm3", \.pm25, 0...2000),
        ]
    }

    /// One location's samples.
    public struct Location: Sendable {
        /// Caller's id.
        public var id: String
        /// Latitude, degrees.
        public var latitude: Double
        /// Longitude, degrees east.
        public var longitude: Double
        /// Samples sorted by time.
        public var samples: [SkySample]

        /// Creates a location with its samples (sorted here by time).
        public init(id: String, latitude: Double, longitude: Double, samples: [SkySample]) {
            self.id = id
            self.latitude = latitude
            self.longitude = longitude
            self.samples = samples.sorted { $0.timeUTC < $1.timeUTC }
        }
    }

    /// One scored event.
    public struct ScoredEvent: Sendable {
        /// Location id.
        public var locationID: String
        /// `sunrise` or `sunset`.
        public var event: String
        /// Event time, UTC seconds.
        public var timeUTC: Double
        /// Window-mean conditions used.
        public var conditions: SkyConditions
        /// The score and its terms.
        public var terms: QualityTerms
    }

    /// Parses the input (located `DataError` for any bad row, including a row whose
    /// latitude or longitude differs from the first row of its `location_id`); locations keep
    /// first-seen order.
    public static func parse(bytes: [UInt8], file: String) throws(DataError) -> [Location] {
        var samples = Samples()
        try samples.add(try CSVTable(bytes: bytes, file: file))
        return samples.locations
    }

    /// The samples of a weather file gathered by location, a table (or a run of a streamed file) at a
    /// time: only the parsed samples are held, not the file's text.
    struct Samples {
        var order: [String] = []
        var byID: [String: Location] = [:]
        var firstSeen: [String: (latitude: Double, longitude: Double, line: Int)] = [:]

        /// Adds the rows of `table`; a bad row is a located `DataError`.
        mutating func add(_ table: CSVTable) throws(DataError) {
            try table.require(["location_id", "latitude", "longitude", "time"])
            var firstSeen = self.firstSeen
            defer { self.firstSeen = firstSeen }
            let rows = try table.load(policy: .strict) {
                (row) throws(DataError) -> (String, Double, Double, SkySample)? in
                let id = try row.string("location_id")
                guard !id.isEmpty else { throw row.invalid("location_id", "location id is empty") }
                let latitude = try row.latitude()
                let longitude = try row.longitude()
                if let first = firstSeen[id] {
                    for (field, value, expected) in [
                        ("latitude", latitude, first.latitude), ("longitude", longitude, first.longitude),
                    ]
                    where value != expected {
                        throw row.invalid(
                            field,
                            "location '\(id)' has \(field) \(CSVWriter.number(expected)) on line \(first.line); "
                                + "give every row of a location the same coordinates, or use a different location_id")
                    }
                } else {
                    firstSeen[id] = (latitude, longitude, row.line)
                }
                guard let t = CivilTime.parseISODateTime(try row.string("time")),
                    try row.string("time").trimmingCharacters(in: .whitespaces).hasSuffix("Z")
                else {
                    throw row.invalid("time", "expected UTC ISO 8601 YYYY-MM-DDTHH:MM:SSZ")
                }
                var c = SkyConditions()
                for (name, path, range) in inputColumns where row.header.position(of: name) != nil {
                    c[keyPath: path] = try row.optionalDouble(name, in: range)
                }
                return (id, latitude, longitude, SkySample(timeUTC: Double(t), conditions: c))
            }
            for (id, lat, lon, s) in rows.records {
                if byID[id] == nil {
                    order.append(id)
                    byID[id] = Location(id: id, latitude: lat, longitude: lon, samples: [])
                }
                byID[id]?.samples.append(s)
            }
        }

        /// The locations in first-seen order, samples sorted by time.
        var locations: [Location] {
            order.compactMap { id in
                byID[id].map {
                    var l = $0
                    l.samples.sort { $0.timeUTC < $1.timeUTC }
                    return l
                }
            }
        }
    }

    /// Scores every sunrise and sunset within each location's data span.
    public static func score(
        _ locations: [Location], model: GoldenHourQuality = GoldenHourQuality(),
        calculator: SolarCalculator = SolarCalculator()
    ) -> [ScoredEvent] {
        var out: [ScoredEvent] = []
        for loc in locations {
            guard let first = loc.samples.first?.timeUTC, let last = loc.samples.last?.timeUTC else { continue }
            // Events are taken per date of the location's nautical zone (UTC + round(longitude / 15) h), where
            // solar noon falls near midday and each date holds one sunrise and one sunset; per UTC date, a
            // date with two sunsets (one just after 00:00 UTC, one just before 24:00) lost one of them.
            let offsetSeconds = Int((loc.longitude / 15).rounded()) * 3600
            let zone = TimeZone(secondsFromGMT: offsetSeconds) ?? TimeZone(secondsFromGMT: 0) ?? .current
            var seen: Set<String> = []  // event name and whole second: each event is scored once
            for day in eventDays(loc.samples, offsetSeconds: offsetSeconds) {
                let s = calculator.day(
                    date: CivilDate(daysSinceEpoch: day), latitude: loc.latitude,
                    longitude: loc.longitude, zone: zone)
                for (name, t) in [("sunrise", s.sunrise), ("sunset", s.sunset)] {
                    guard let t, t >= first, t <= last, seen.insert("\(name) \(Int(t.rounded()))").inserted,
                        let c = SkyConditions.window(loc.samples, around: t)
                    else { continue }
                    out.append(
                        ScoredEvent(locationID: loc.id, event: name, timeUTC: t, conditions: c, terms: model.score(c)))
                }
            }
        }
        return out
    }

    /// The zone dates whose events can be scored, ascending: each sample's date and two dates either side.
    /// An event farther than `SkyConditions.window`'s reach (a few hours) from every sample has no window
    /// and is not scored, so the dates between rows years apart are never computed: the cost follows the
    /// rows, not the span of time they cover (two rows in years 1 and 9999 once cost 3.6 M days).
    static func eventDays(_ samples: [SkySample], offsetSeconds: Int) -> [Int] {
        var days: [Int] = []
        for s in samples {
            let d = Int(((s.timeUTC + Double(offsetSeconds)) / 86_400).rounded(.down))
            for day in (d - 2)...(d + 2) where day > (days.last ?? Int.min) { days.append(day) }
        }
        return days
    }

    /// The output header.
    public static var header: [String] {
        ["location_id", "event", "event_time", "quality_pct"] + QualityTerms.columnNames
            + inputColumns.map { "window_" + $0.0 }
    }

    /// Renders the output CSV.
    public static func render(_ events: [ScoredEvent]) -> String {
        var w = CSVWriter()
        w.row(header)
        w.append(records: rows(events))
        return w.text
    }

    /// The output rows (no header).
    public static func rows(_ events: [ScoredEvent]) -> CSVWriter {
        var w = CSVWriter()
        func n(_ v: Double) -> String { CSVWriter.number((v * 1000).rounded() / 1000) }
        for e in events {
            w.row(
                [e.locationID, e.event, CivilTime.isoUTC(Int(e.timeUTC.rounded())), n(e.terms.qualityPct)]
                    + e.terms.columnValues.map(n) + inputColumns.map { e.conditions[keyPath: $0.1].map(n) ?? "" })
        }
        return w
    }

    /// Parse, score and render in one call.
    public static func run(bytes: [UInt8], file: String) throws(DataError) -> String {
        render(score(try parse(bytes: bytes, file: file)))
    }
}

extension ScoreBatch {
    /// `fieldtest score --weather` as one call: the hourly weather CSV file `path` (`-`: standard input)
    /// read a run of rows at a time (`CSVChunkReader`; only the parsed samples are held, not the text),
    /// scored, and written to `output` (nil or `-`: standard output) a location at a time: the same
    /// bytes as `run(bytes:file:)`. An `output` that names the input is refused.
    public static func run(file path: String, output: String?) throws {
        let name = OutputText.inputPath(path)
        try OutputPathCheck.refuseOverwritingInputs(
            [OutputPathCheck.Input(option: "--weather", url: URL(fileURLWithPath: name))], output: output)
        var samples = Samples()
        try CSVChunkReader(fileName: name).forEachTable(path: name) { try samples.add($0) }
        let sink = try OutputSink(path: output)
        var w = CSVWriter()
        w.row(header)
        try sink.write(w.bytes)
        for location in samples.locations { try sink.write(rows(score([location])).bytes) }
        try sink.finish()
    }
}
