import FieldtestData
import FieldtestGSL
import Foundation

/// Reads and writes `metrics.csv`: RFC 4180, fixed column order, numbers with a
/// `.` decimal separator whatever the locale, written in their shortest form that
/// reads back to the same Double (so a baseline compares exactly), no wall-clock
/// time in rows.
public enum MetricsCSV {
    /// The columns, in order.
    public static let columns = [
        "scenario", "run_id", "seed", "requirement", "metric", "kind", "value", "unit",
        "threshold", "comparator", "status", "samples", "note", "ci_low", "ci_high", "margin",
    ]

    /// The columns of files written before the interval columns (still read: their rows have no interval).
    public static let columnsWithoutInterval = Array(columns.dropLast(3))

    /// The columns of files written before the `note` column (still read: their rows have no note).
    public static let columnsWithoutNote = Array(columnsWithoutInterval.dropLast())

    /// Renders rows with a header.
    public static func render(_ rows: [MetricRow]) -> String {
        var writer = CSVWriter()
        writer.row(columns)
        for r in rows {
            writer.row([
                r.scenario, r.runID, String(r.seed), r.requirement, r.metric, r.kind.rawValue,
                CSVWriter.exactNumber(r.value), r.unit, r.threshold.map { CSVWriter.exactNumber($0) } ?? "",
                r.comparator.rawValue, r.status.rawValue, String(r.samples), r.note,
                r.ci.map { CSVWriter.exactNumber($0.low) } ?? "", r.ci.map { CSVWriter.exactNumber($0.high) } ?? "",
                r.margin?.rawValue ?? "",
            ])
        }
        return writer.text
    }

    /// Parses a metrics file; every problem is a located `DataError`, including
    /// two rows with the same key (scenario, seed, requirement, metric), which
    /// would make a comparison depend on row order.
    public static func parse(bytes: [UInt8], file: String) throws(DataError) -> [MetricRow] {
        try parseLocated(bytes: bytes, file: file).map(\.row)
    }

    /// Like `parse`, keeping each row's 1-based line in the file.
    public static func parseLocated(bytes: [UInt8], file: String) throws(DataError) -> [LocatedMetricRow] {
        let rows = try parseRows(bytes: bytes, file: file)
        var firstLine: [String: Int] = [:]
        for r in rows {
            if let earlier = firstLine[r.row.key] {
                throw .badLayout(
                    file: file, line: r.line,
                    reason:
                        "duplicate row: requirement \(r.row.requirement) metric \(r.row.metric) of scenario \(r.row.scenario) "
                        + "seed \(r.row.seed) is also on line \(earlier); keep one row per scenario, seed, requirement and metric"
                )
            }
            firstLine[r.row.key] = r.line
        }
        return rows
    }

    static func parseRows(bytes: [UInt8], file: String) throws(DataError) -> [LocatedMetricRow] {
        let table = try CSVTable(bytes: bytes, file: file)
        let hasInterval = table.header.names == columns
        let hasNote = hasInterval || table.header.names == columnsWithoutInterval
        guard hasNote || table.header.names == columnsWithoutNote else {
            throw .badLayout(
                file: file, line: 1,
                reason: "header must be exactly '\(columns.joined(separator: ","))'")
        }
        return try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> LocatedMetricRow? in
            guard let kind = MetricKind(rawValue: try row.string("kind")) else {
                throw row.invalid(
                    "kind", "expected one of \(MetricKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let comparator = ThresholdComparator(rawValue: try row.string("comparator")) else {
                throw row.invalid("comparator", "expected <=, >=, == or empty")
            }
            guard let status = MetricStatus(rawValue: try row.string("status")) else {
                throw row.invalid("status", "expected pass, fail, info or not_measured")
            }
            guard let seed = UInt64(try row.string("seed")) else {
                throw row.invalid("seed", "not an unsigned integer")
            }
            let valueText = try row.string("value")
            let value: Double
            switch valueText {
            case "nan": value = .nan
            case "inf": value = .infinity
            case "-inf": value = -.infinity
            default: value = try row.double("value")
            }
            let threshold = try row.optionalDouble("threshold")
            var ci: ConfidenceInterval?
            if hasInterval, let low = try row.optionalDouble("ci_low") {
                guard let high = try row.optionalDouble("ci_high"), low <= high else {
                    throw row.invalid("ci_high", "must be a number not below ci_low when ci_low is given")
                }
                ci = ConfidenceInterval(low: low, high: high)
            } else if hasInterval, try row.optionalDouble("ci_high") != nil {
                throw row.invalid("ci_low", "is empty while ci_high is given; give both bounds or neither")
            }
            let parsed = MetricRow(
                scenario: try row.string("scenario"), runID: try row.string("run_id"), seed: seed,
                requirement: try row.string("requirement"), metric: try row.string("metric"),
                kind: kind, value: value, unit: try row.string("unit"), threshold: threshold,
                comparator: comparator, status: status, samples: try row.int("samples", in: 0...Int.max),
                note: hasNote ? try row.string("note") : "", ci: ci)
            // The status column is never trusted: it must be what the row's own value, threshold and
            // comparator give, or the row was edited (or written by something else).
            var recomputed = parsed
            recomputed.reevaluateStatus()
            // Files written before `not_measured` existed marked a checked row of no sample `fail`.
            if !hasNote && status == .fail && recomputed.status == .notMeasured {
                return LocatedMetricRow(line: row.line, row: recomputed)
            }
            if hasInterval, (try row.string("margin")) != (recomputed.margin?.rawValue ?? "") {
                throw row.invalid(
                    "margin",
                    "says '\(try row.string("margin"))', but the row's interval and threshold give '\(recomputed.margin?.rawValue ?? "")'; "
                        + "re-record the file with 'fieldtest run'")
            }
            guard recomputed.status == status else {
                throw row.invalid(
                    "status",
                    "says \(status.rawValue), but the row's value \(valueText) against '\(BaselineCheck.describeCheck(parsed))' "
                        + "over \(parsed.samples) samples gives \(recomputed.status.rawValue); re-record the file with 'fieldtest run'"
                )
            }
            return LocatedMetricRow(line: row.line, row: parsed)
        }.records
    }

    /// Reads a metrics file from disk.
    public static func read(_ url: URL, displayName: String? = nil) throws(DataError) -> [MetricRow] {
        try readLocated(url, displayName: displayName).map(\.row)
    }

    /// Reads a metrics file from disk, keeping each row's line.
    public static func readLocated(_ url: URL, displayName: String? = nil) throws(DataError) -> [LocatedMetricRow] {
        let name = displayName ?? url.path
        if !FileManager.default.fileExists(atPath: url.path) {
            throw .unreadable(
                file: name,
                reason:
                    "no such file; give the path of a metrics CSV written by 'fieldtest run' (its metrics.csv or a recorded baseline)"
            )
        }
        return try parseLocated(bytes: try readFileBytes(url, displayName: name), file: name)
    }
}

/// A metric row and the 1-based line it was read from.
public struct LocatedMetricRow: Sendable, Equatable {
    /// The line of the row in its file.
    public var line: Int
    /// The row.
    public var row: MetricRow

    public init(line: Int, row: MetricRow) {
        self.line = line
        self.row = row
    }
}
