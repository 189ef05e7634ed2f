import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import RunReports
import ScenarioEngine

/// The engine in-process: run a scenario file with the bundled apps, then read its metric rows.
/// Run from the Fieldtest checkout, so the scenario and its datasets are found.
enum RunScenario: InProcessExample {
    static func run() throws {
        // snippet.datasets
        // The datasets a scenario names: the bundled folder's manifest, with the user's folders on top
        // (`$FIELDTEST_DATASETS`), as the `fieldtest` commands read them.
        let manifest = try DatasetsLocation.manifest(options: [])
        print(manifest.entries.count, "datasets")
        // snippet.end

        // snippet.run
        // Reports go to a folder of our own, as `fieldtest run … --out DIR` would write them.
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("fieldtest-snippet-\(getpid())")
        defer { try? FileManager.default.removeItem(at: out) }
        let request = RunRequest(files: ["Scenarios/skyscape-miami.yaml"], out: out.path, toolVersion: "snippet")
        let pipeline = RunPipeline(request: request, manifest: manifest, apps: .bundled)
        var folders: [URL] = []
        let outcome = try pipeline.run { event in
            if case .finished(let scenario) = event { folders.append(scenario.folder) }
        }
        // snippet.end

        // snippet.rows
        // Each row is one requirement's metric with its threshold, verdict, samples and 95 % interval.
        for folder in folders {
            let rows = try MetricsCSV.read(folder.appendingPathComponent("metrics.csv"), displayName: "metrics.csv")
            for row in rows where row.isChecked && row.kind != .latency {
                let interval = row.ci.map { " [\($0.low), \($0.high)]" } ?? ""
                print(
                    row.requirement, row.metric, row.value, row.unit, row.status.rawValue, "n=\(row.samples)" + interval
                )
            }
        }
        print(outcome.anyFailed ? "a requirement failed" : "every requirement met")
        // snippet.end

        // snippet.report
        // The HTML report of the run folders, with each requirement's text from the app definitions.
        let html = try HTMLReport.render(inputs: folders.map(\.path), requirements: AppRegistry.bundled.requirements)
        print("report:", html.utf8.count, "bytes")
        // snippet.end
    }
}
