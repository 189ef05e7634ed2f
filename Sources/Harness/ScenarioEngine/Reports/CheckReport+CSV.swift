import FieldtestData
import Foundation
import MetricReports

/// `baseline-check.csv`: a run's comparison with its baseline, one row per compared metric, written
/// beside `metrics.csv` when the run had `--baseline`, so a report can show the deltas later.
public enum BaselineCheckCSV {
    /// The file name.
    public static let fileName = "baseline-check.csv"

    /// The columns, in order.
    public static let columns = [
        "scenario", "seed", "requirement", "metric", "kind", "unit", "baseline", "current", "direction", "verdict",
        "reason", "significant", "significance",
    ]

    /// The columns a file written before `significant` has (still read).
    static let requiredColumns = Array(columns.prefix(11))

    /// One compared metric, as read back.
    public struct Row: Sendable, Equatable {
        /// Case label, seed, requirement and metric: the row's identity in `metrics.csv`.
        public var scenario: String, seed: UInt64, requirement: String, metric: String
        /// Kind and unit of the metric.
        public var kind: String, unit: String
        /// The baseline's and this run's values (nil when the row is missing on that side).
        public var baseline: Double?, current: Double?
        /// Which way the metric improves (`Direction`).
        public var direction: Direction
        /// The verdict.
        public var verdict: ComparisonVerdict
        /// Why.
        public var reason: String
        /// For a regression: `yes`, `no` or `unknown` (nil otherwise, and in files written before it).
        public var significant: Significance? = nil
        /// How the significance was judged (empty when none).
        public var significance: String = ""

        /// `current − baseline`, when both exist.
        public var delta: Double? { baseline.flatMap { b in current.map { $0 - b } } }
    }

    /// Renders `report`.
    public static func render(_ report: CheckReport) -> String {
        var w = CSVWriter()
        w.row(columns)
        for c in report.comparisons {
            guard let r = c.current ?? c.baseline else { continue }
            w.row([
                r.scenario, String(r.seed), r.requirement, r.metric, r.kind.rawValue, r.unit,
                c.baseline.map { CSVWriter.exactNumber($0.value) } ?? "",
                c.current.map { CSVWriter.exactNumber($0.value) } ?? "", (c.baseline ?? r).direction.rawValue,
                c.verdict.rawValue, c.reason, c.significance?.significant.rawValue ?? "", c.significance?.basis ?? "",
            ])
        }
        return w.text
    }

    /// Reads a file `render` wrote; a malformed row is a located `DataError`.
    public static func read(_ url: URL) throws(DataError) -> [Row] {
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: url)) } catch {
            throw .unreadable(file: url.path, reason: error.localizedDescription)
        }
        let table = try CSVTable(bytes: bytes, file: url.path)
        try table.require(requiredColumns)
        let judged = table.header.names.contains("significant")
        return try table.load(policy: .strict) { row throws(DataError) -> Row? in
            func number(_ c: String) throws(DataError) -> Double? {
                let t = try row.string(c)
                return t.isEmpty ? nil : try row.double(c)
            }
            guard let direction = Direction(rawValue: try row.string("direction")),
                let verdict = ComparisonVerdict(rawValue: try row.string("verdict")),
                let seed = UInt64(try row.string("seed"))
            else {
                throw DataError.invalidField(
                    file: url.path, line: row.line, field: "verdict", value: (try? row.string("verdict")) ?? "",
                    reason: "not a row fieldtest writes (seed, direction or verdict unknown)")
            }
            let significant = judged ? try row.string("significant") : ""
            guard significant.isEmpty || Significance(rawValue: significant) != nil else {
                throw DataError.invalidField(
                    file: url.path, line: row.line, field: "significant", value: significant,
                    reason: "not yes, no, unknown or empty")
            }
            return Row(
                scenario: try row.string("scenario"), seed: seed, requirement: try row.string("requirement"),
                metric: try row.string("metric"), kind: try row.string("kind"), unit: try row.string("unit"),
                baseline: try number("baseline"), current: try number("current"), direction: direction,
                verdict: verdict, reason: try row.string("reason"), significant: Significance(rawValue: significant),
                significance: judged ? try row.string("significance") : "")
        }.records
    }
}
