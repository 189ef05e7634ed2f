import FieldtestData
import Foundation
import SkyScoring

/// `evaluate sun`: a system's solar event times against a reference it never sees.
///
/// The input is `fieldtest sun`'s (`id,latitude,longitude,date,timezone`). The reference of an event
/// is, per column:
/// - a labelled column of that event's name in the input (`sunrise`, `sunset`, `solar_noon`,
///   `civil_dawn`, `civil_dusk`, `golden_hour_morning_start`, … as UTC ISO 8601
///   `YYYY-MM-DDTHH:MM:SSZ`; an empty field means the event does not happen that date), e.g. times
///   from an almanac;
/// - else, for sunrise and sunset only, the NREL SPA reference (`SunReference`: the Sun's centre at
///   −0.8333°, refined on the full SPA), the first event within the local date of the row's zone.
///
/// Per event: `compared` (both give a time), `error_mean_s`, `error_p95_s`, `error_max_s` of
/// |system − reference|, `within_tolerance` (count and `within_tolerance_rate` of the compared),
/// `presence_mismatch` (one gives the event, the other not). Over all rows: `rows`, `no_answer`.
enum SunTimesEvaluation {
    /// The events that may be scored, as named in the CSV (and the answer's fields).
    static let events = [
        "sunrise", "sunset", "solar_noon", "civil_dawn", "civil_dusk", "golden_hour_morning_start",
        "golden_hour_morning_end", "golden_hour_evening_start", "golden_hour_evening_end",
    ]

    static func run(_ r: SystemEvaluation.Request, choice: SystemChoice) throws -> (String, [SystemEvaluation.Figure]) {
        let file = r.inputs[0]
        let table = try CSVTable(url: URL(fileURLWithPath: file), displayName: file)
        var zones: [String: ZoneOffsets] = [:]
        let requests = try SunBatch.parse(table: table, zones: &zones)
        // Labelled reference columns, read row by row (the same rows `parse` accepted, in order).
        let labelled = events.filter { table.header.position(of: $0) != nil }
        let labels = try Self.labels(table, events: labelled)
        let queries = requests.map {
            SunQuery(
                id: $0.id, latitude: $0.latitude, longitude: $0.longitude, date: $0.date.description,
                timezone: $0.zone.identifier)
        }
        let name: String
        let answers: [SunTimes?]
        switch choice {
        case .builtin:
            (name, answers) = ("builtin", SystemEvaluation.batched(queries, SolarCalculator().sunTimes))
        case .external(let spec):
            let system = try SystemEvaluation.start(.sun, spec: spec, request: r)
            defer { system.close() }
            let sun = ExternalSunTimesSystem(system)
            (name, answers) = (SystemEvaluation.name(system), SystemEvaluation.batched(queries, sun.sunTimes))
        }
        let spa = SunReference()
        var compared: [String: [Double]] = [:]
        var mismatch: [String: Int] = [:]
        let scored = events.filter { labelled.contains($0) || $0 == "sunrise" || $0 == "sunset" }
        for (i, request) in requests.enumerated() {
            guard let answer = answers[i] else {
                try r.itemLog?.add(id: request.id, expected: "", answer: nil)
                continue
            }
            let given = Self.times(answer)
            let day = Self.localDay(request)
            for event in scored {
                let reference: Double?
                if let label = labels[i][event] {
                    reference = label
                } else {
                    reference =
                        spa.events(
                            latitude: request.latitude, longitude: request.longitude, sunrise: event == "sunrise",
                            from: day.lowerBound, to: day.upperBound
                        ).first
                }
                let got = given[event] ?? nil
                func text(_ t: Double?) -> String { t.map { CivilTime.isoUTC(Int($0.rounded())) } ?? "none" }
                let within = reference.flatMap { ref in got.map { abs($0 - ref) <= r.toleranceSeconds } }
                try r.itemLog?.add(
                    id: request.id, scope: event, expected: text(reference), answer: text(got),
                    correct: within ?? (reference == nil && got == nil),
                    error: reference.flatMap { ref in got.map { abs($0 - ref) } })
                switch (reference, got) {
                case let (ref?, got?): compared[event, default: []].append(got - ref)
                case (nil, nil): break
                default: mismatch[event, default: 0] += 1
                }
            }
        }
        let answered = answers.filter { $0 != nil }.count
        let figures = Self.figures(
            requests: requests.count, answered: answered, scored: scored, compared: compared, mismatch: mismatch,
            tolerance: r.toleranceSeconds)
        return (name, figures)
    }

    /// Each row's labelled times of `events` (UTC seconds; nil: the label says there is no event).
    static func labels(_ table: CSVTable, events labelled: [String]) throws -> [[String: Double?]] {
        var labels: [[String: Double?]] = []
        _ = try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> Int? in
            var values: [String: Double?] = [:]
            for event in labelled {
                let text = try row.string(event).trimmingCharacters(in: .whitespaces)
                if text.isEmpty {
                    values[event] = .some(nil)
                    continue
                }
                guard let t = CivilTime.parseISODateTime(text), text.hasSuffix("Z") else {
                    throw row.invalid(event, "expected a UTC time YYYY-MM-DDTHH:MM:SSZ, or empty for no event")
                }
                values[event] = .some(Double(t))
            }
            labels.append(values)
            return nil
        }
        return labels
    }

    /// The figures: rows and unanswered rows, then per event the errors (seconds) and how many are within
    /// `tolerance` seconds, and the rows where only one of the reference and the answer has the event.
    static func figures(
        requests: Int, answered: Int, scored: [String], compared: [String: [Double]], mismatch: [String: Int],
        tolerance: Double
    ) -> [SystemEvaluation.Figure] {
        var figures: [SystemEvaluation.Figure] = [
            .init("rows", Double(requests), unit: "count", rows: requests),
            .init("no_answer", Double(requests - answered), unit: "count", rows: requests),
        ]
        for event in scored {
            let errors = ErrorSummary(compared[event] ?? [])
            let n = errors.sorted.count
            let within = errors.sorted.filter { $0 <= tolerance }.count
            figures += [
                .init("compared", scope: event, Double(n), unit: "count", rows: n),
                .init("error_mean_s", scope: event, errors.mean, unit: "s", rows: n),
                .init("error_p95_s", scope: event, errors.percentile(95), unit: "s", rows: n),
                .init("error_max_s", scope: event, errors.max, unit: "s", rows: n),
                .init("within_tolerance", scope: event, Double(within), unit: "count", rows: n),
                .init(
                    "within_tolerance_rate", scope: event, n == 0 ? nil : Double(within) / Double(n), unit: "rate",
                    rows: n),
                .init("presence_mismatch", scope: event, Double(mismatch[event] ?? 0), unit: "count", rows: answered),
            ]
        }
        return figures
    }

    /// The answer's event times by column name.
    static func times(_ a: SunTimes) -> [String: Double?] {
        [
            "sunrise": a.sunrise, "sunset": a.sunset, "solar_noon": a.solarNoon, "civil_dawn": a.civilDawn,
            "civil_dusk": a.civilDusk, "golden_hour_morning_start": a.goldenHourMorningStart,
            "golden_hour_morning_end": a.goldenHourMorningEnd, "golden_hour_evening_start": a.goldenHourEveningStart,
            "golden_hour_evening_end": a.goldenHourEveningEnd,
        ]
    }

    /// The row's local date as UTC seconds [start, end), by Foundation's calendar in the row's zone
    /// (independent of the built-in calculator's zone tables).
    static func localDay(_ request: SunBatch.Request) -> Range<Double> {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = request.zone
        let d = request.date
        guard let start = calendar.date(from: DateComponents(year: d.year, month: d.month, day: d.day)),
            let end = calendar.date(byAdding: .day, value: 1, to: start), end > start
        else { return 0..<0 }
        return start.timeIntervalSince1970..<end.timeIntervalSince1970
    }
}
