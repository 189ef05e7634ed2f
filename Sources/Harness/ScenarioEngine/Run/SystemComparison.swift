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
    /// What became of the standard error of the systems that faulted (kept where, or removed).
    public var notes: [String] = []

    /// Why a comparison cannot run.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var message: String
        public var description: String { "error: compare: " + message }
    }

    /// Runs every case of `file` once per entry (jobs threads) and lines up the rows. The
    /// scenario's datasets resolve as `run` resolves them (the manifest, then files the scenario
    /// names by path). Systems write their standard error into a temporary folder that is removed
    /// at the end (and on SIGINT or SIGTERM); the log of a system that faulted is kept beside
    /// `output` when that names a file (`<output>.<name>.<case>.<capability>.stderr`).
    /// - Throws: `UsageError` when the scenario's app does not use the entries' capability.
    public static func run(
        file: String, entries: [Entry], manifest: DatasetManifest, apps: AppRegistry, jobs: Int = 1,
        output: String? = nil
    ) throws -> SystemComparison {
        let scenario = try ScenarioLoader(manifest: manifest, registry: apps)
            .load(URL(fileURLWithPath: file), displayName: file)
        if let app = apps.app(scenario.app) {
            for capability in Set(entries.map(\.capability)) where !app.systemCapabilities.contains(capability) {
                let uses = app.systemCapabilities.isEmpty ? "none" : app.systemCapabilities.joined(separator: ", ")
                throw UsageError(
                    message: "app '\(app.name)' of \(file) does not use capability '\(capability)', so every "
                        + "system would give the same rows; the capabilities it uses: \(uses)")
            }
        }
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fieldtest-compare-\(UUID().uuidString)")
        let cleanup = InterruptCleanup.install { try? FileManager.default.removeItem(at: logs) }
        defer {
            try? FileManager.default.removeItem(at: logs)
            cleanup.cancel()
        }
        let store = DatasetStore(manifest: manifest).session(adding: scenario.datasetEntries)
        var keys: [[String]] = []
        var table: [[String]: [MetricRow?]] = [:]
        var notes: [String] = []
        for (i, entry) in entries.enumerated() {
            let cases = ScenarioRunner.cases(of: scenario).map { c in
                var c = c
                c.scenario.systems[entry.capability] = entry.setting
                c.scenario.systemLogPrefix =
                    logs.appendingPathComponent("\(i)-" + SystemLogs.fileStem(caseLabel: c.label)).path
                return c
            }
            let results = try ScenarioRunner.run(
                cases, jobs: jobs, runID: "compare", datasets: store, apps: apps)
            for record in results.flatMap(\.systems) {
                notes += keepLog(of: record, system: entry.name, beside: output)
            }
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
        var comparison = SystemComparison(systems: entries.map(\.name), rows: keys.map { ($0, table[$0]!) })
        comparison.notes = notes
        return comparison
    }

    /// Keeps the log of a system that faulted beside `output` (a file); the note saying where, or
    /// that it was removed.
    private static func keepLog(of record: SystemRunRecord, system: String, beside output: String?) -> [String] {
        let faults = record.faults.values.reduce(0, +)
        guard faults > 0, let from = record.stderr else { return [] }
        let what = "system '\(system)' faulted \(faults) times in case \(record.caseLabel)"
        guard let output, output != OutputText.standardStreamName else {
            return ["\(what); give --output FILE to keep its standard error beside it"]
        }
        let name = [system, SystemLogs.fileStem(caseLabel: record.caseLabel), record.capability, "stderr"]
        let kept = output + "." + name.map { SystemLogs.fileStem(caseLabel: $0) }.joined(separator: ".")
        try? FileManager.default.removeItem(atPath: kept)
        guard (try? FileManager.default.copyItem(atPath: from, toPath: kept)) != nil else {
            return ["\(what); its standard error could not be kept at \(kept)"]
        }
        return ["\(what); its standard error is kept in \(kept)"]
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
