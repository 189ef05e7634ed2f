import FieldtestData
import Foundation

/// Reads and writes `metrics.csv`: RFC 4180, fixed column order, numbers with a
/// `.` decimal separator whatever the locale, written in their shortest form that
/// reads back to the same Double (so a baseline compares exactly), no wall-clock
/// time in rows.
public enum MetricsCSV {
    /// The columns, in order.
    public static let columns = ["scenario", "run_id", "seed", "requirement", "metric", "kind", "value", "unit",
                                 "threshold", "comparator", "status", "samples"]

    /// Renders rows with a header.
    public static func render(_ rows: [MetricRow]) -> String {
        var writer = CSVWriter()
        writer.row(columns)
        for r in rows {
            writer.row([r.scenario, r.runID, String(r.seed), r.requirement, r.metric, r.kind.rawValue,
                        CSVWriter.exactNumber(r.value), r.unit, r.threshold.map { CSVWriter.exactNumber($0) } ?? "",
                        r.comparator.rawValue, r.status.rawValue, String(r.samples)])
        }
        return writer.text
    }

    /// Parses a metrics file; every problem is a located `DataError`.
    public static func parse(bytes: [UInt8], file: String) throws(DataError) -> [MetricRow] {
        let table = try CSVTable(bytes: bytes, file: file)
        guard table.header.names == columns else {
            throw .badLayout(file: file, line: 1,
                             reason: "header must be exactly '\(columns.joined(separator: ","))'")
        }
        return try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> MetricRow? in
            guard let kind = MetricKind(rawValue: try row.string("kind")) else {
                throw row.invalid("kind", "expected one of \(MetricKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let comparator = ThresholdComparator(rawValue: try row.string("comparator")) else {
                throw row.invalid("comparator", "expected <=, >=, == or empty")
            }
            guard let status = MetricStatus(rawValue: try row.string("status")) else {
                throw row.invalid("status", "expected pass, fail or info")
            }
            guard let seed = UInt64(try row.string("seed")) else { throw row.invalid("seed", "not an unsigned integer") }
            let valueText = try row.string("value")
            let value: Double
            switch valueText {
            case "nan": value = .nan
            case "inf": value = .infinity
            case "-inf": value = -.infinity
            default: value = try row.double("value")
            }
            let threshold = try row.optionalDouble("threshold")
            return MetricRow(scenario: try row.string("scenario"), runID: try row.string("run_id"), seed: seed,
                             requirement: try row.string("requirement"), metric: try row.string("metric"),
                             kind: kind, value: value, unit: try row.string("unit"), threshold: threshold,
                             comparator: comparator, status: status, samples: try row.int("samples", in: 0...Int.max))
        }.records
    }

    /// Reads a metrics file from disk.
    public static func read(_ url: URL, displayName: String? = nil) throws(DataError) -> [MetricRow] {
        let name = displayName ?? url.path
        return try parse(bytes: try readFileBytes(url, displayName: name), file: name)
    }
}
