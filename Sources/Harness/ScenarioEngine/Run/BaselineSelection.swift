import Foundation
import MetricReports

/// Finds the baseline rows a scenario is compared with.
public enum BaselineSelection {
    /// The folder holding `baseline` (itself when it is a folder), where `machine.json` lives.
    public static func folder(of baseline: String) -> URL {
        let url = URL(fileURLWithPath: baseline)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue { return url }
        return url.deletingLastPathComponent()
    }

    /// The items behind the baseline file `file`: `items.csv` beside a `metrics.csv` (a run folder),
    /// else `<name>.items.csv` beside `<name>.csv` (what `run --record-baseline` writes).
    public static func itemsFile(ofBaselineFile file: URL) -> URL {
        let folder = file.deletingLastPathComponent()
        if file.lastPathComponent == "metrics.csv" { return folder.appendingPathComponent(ItemsCSV.fileName) }
        return folder.appendingPathComponent(file.deletingPathExtension().lastPathComponent + ".items.csv")
    }

    /// The file `baseline` (a metrics CSV, or a folder holding `<scenario>.csv`) names for `scenario`.
    public static func file(for scenario: String, baseline: String) -> URL {
        let url = URL(fileURLWithPath: baseline)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue {
            return url.appendingPathComponent("\(scenario).csv")
        }
        return url
    }

    /// The baseline rows `scenario` is compared with: those of the `cases` that run, read from
    /// `baseline` (a metrics CSV, or a folder holding `<scenario>.csv`). Rows of other scenarios
    /// (a merged baseline) and of the sweep cases another shard runs are left out; rows of this
    /// scenario's cases under another seed stay, and are reported missing by the check.
    public static func rows(for scenario: Scenario, running cases: [ScenarioCase], baseline: String, shard: Shard?)
        throws -> [MetricRow]
    {
        let url = file(for: scenario.name, baseline: baseline)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw RunError.missingBaseline(
                path: url.path, scenario: scenario.name, scenarioFile: scenario.file, baselineOption: baseline)
        }
        let rows = try MetricsCSV.read(url, displayName: url.path)
        let kept = select(rows, of: scenario, running: cases)
        if kept.isEmpty && !cases.isEmpty {
            throw RunError.baselineWithoutRows(
                path: url.path, scenario: scenario.name, scenarioFile: scenario.file, shard: shard?.text)
        }
        return kept
    }

    /// The rows of `rows` that belong to `scenario`'s cases, less those of the cases of its sweep
    /// that are not in `cases` (run by another shard).
    public static func select(_ rows: [MetricRow], of scenario: Scenario, running cases: [ScenarioCase]) -> [MetricRow]
    {
        let allCases = ScenarioRunner.cases(of: scenario)
        let labels = Set(allCases.map(\.label))
        let notRun = Set(allCases.map { "\($0.label)|\($0.scenario.seed)" })
            .subtracting(cases.map { "\($0.label)|\($0.scenario.seed)" })
        return rows.filter { labels.contains($0.scenario) && !notRun.contains("\($0.scenario)|\($0.seed)") }
    }
}
