import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import FieldtestApps
@testable import FieldtestData

/// The engine's evidence rule (`MetricCollector.withoutVacuousPasses`) in every bundled app: a
/// checked row summarising no samples fails, and its requirement gets a failing `not_measured`
/// row. Each app runs one of its bundled scenarios with the users idle and the feeds silent.
@Suite("No pass without evidence, in every app")
struct NoPassWithoutEvidenceTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: [
        "skyscape-lincoln.yaml", "weather-cities.yaml", "navup-emergency.yaml", "micity-city-day.yaml",
        "beentheredonethat-offline-sync.yaml",
    ])
    func idleRunsFailAsNotMeasured(_ file: String) throws {
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let text = try String(contentsOf: Self.repo.appendingPathComponent("Scenarios/\(file)"), encoding: .utf8)
        var s = try ScenarioLoader(manifest: manifest).parse(text, file: file)
        s.sweep = nil
        for i in s.actors.indices { s.actors[i].actions = [] }
        s.feeds = []
        let rows = try ScenarioRunner.run(
            ScenarioRunner.cases(of: s), jobs: 1, runID: "idle", datasets: DatasetStore(manifest: manifest),
            apps: .bundled
        ).flatMap(\.rows)
        let unmeasured = rows.filter { $0.samples == 0 && $0.threshold != nil && $0.metric != "not_measured" }
        #expect(rows.contains { $0.metric == "not_measured" }, "an idle \(s.app) run measured everything")
        for row in unmeasured {
            #expect(row.status == .fail, "\(row.requirement) \(row.metric) passed with no samples")
            #expect(
                rows.contains {
                    $0.requirement == row.requirement && $0.metric == "not_measured" && $0.status == .fail
                },
                "\(row.requirement) has no not_measured row")
        }
        // Every listed requirement is reported, and nothing without samples passes.
        for id in Set(s.requirements.map(\.id)) {
            let own = rows.filter { $0.requirement == id }
            #expect(!own.isEmpty, "\(id)")
            #expect(!own.contains { $0.samples == 0 && $0.status == .pass }, "\(id)")
        }
    }
}
