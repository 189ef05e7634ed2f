import FieldtestData
import Foundation
import MetricReports

/// `fieldtest compare`: one scenario, the same seeds, once per system; one table with a row per
/// metric and a value and verdict column per system.
public struct SystemComparison: Sendable {
    /// One compared system: its column name and the capability it replaces (nil setting: built-in).
    public struct Entry: Sendable {
        /// Column name.
        public var name: String
        /// The capability (`sun`, `route`, `locate`, `sentiment`).
        public var capability: String
        /// The system, or nil for the built-in core.
        public var setting: SystemSetting?

        /// An entry.
        public init(name: String, capability: String, setting: SystemSetting?) {
            self.name = name
            self.capability = capability
            self.setting = setting
        }
    }

    /// The system names, in column order.
    public var systems: [String]
    /// Per metric (case, requirement, metric, unit, threshold, comparator): each system's row, or nil.
    public var rows: [(key: [String], cells: [MetricRow?])]

    /// Runs every case of `file` once per entry (jobs threads) and lines up the rows.
    public static func run(
        file: String, entries: [Entry], manifest: DatasetManifest, apps: AppRegistry, jobs: Int = 1
    ) throws -> SystemComparison {
        let scenario = try ScenarioLoader(manifest: manifest, registry: apps)
            .load(URL(fileURLWithPath: file), displayName: file)
        var keys: [[String]] = []
        var table: [[String]: [MetricRow?]] = [:]
        for (i, entry) in entries.enumerated() {
            let cases = ScenarioRunner.cases(of: scenario).map { c in
                var c = c
                c.scenario.systems[entry.capability] = entry.setting
                return c
            }
            let results = try ScenarioRunner.run(
                cases, jobs: jobs, runID: "compare", datasets: DatasetStore(manifest: manifest), apps: apps)
            for row in results.flatMap(\.rows) {
                let key = [
                    row.scenario, row.requirement, row.metric, row.unit,
                    row.threshold.map(FieldtestNumber.format) ?? "",
                    row.comparator.rawValue,
                ]
                if table[key] == nil {
                    keys.append(key)
                    table[key] = Array(repeating: nil, count: entries.count)
                }
                table[key]?[i] = row
            }
        }
        return SystemComparison(systems: entries.map(\.name), rows: keys.map { ($0, table[$0]!) })
    }

    /// The header: the key columns, then `<system>` and `<system>_status` per system.
    public var header: [String] {
        ["scenario", "requirement", "metric", "unit", "threshold", "comparator"]
            + systems.flatMap { [$0, $0 + "_status"] }
    }

    /// The table's cells (empty where a system did not report the metric).
    public var cells: [[String]] {
        rows.map { key, cells in
            key + cells.flatMap { [$0.map { FieldtestNumber.format($0.value) } ?? "", $0?.status.rawValue ?? ""] }
        }
    }

    /// RFC 4180 CSV.
    public var csv: String {
        var w = CSVWriter()
        w.row(header)
        cells.forEach { w.row($0) }
        return w.text
    }

    /// Aligned columns for a terminal.
    public var terminalTable: String { TextTableRenderer.render(header: header, rows: cells) }

    /// Whether any system failed a checked row.
    public var anyFailed: Bool { rows.contains { $0.cells.contains { $0?.status == .fail } } }
}
