import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import FieldtestApps
@testable import FieldtestData

/// The engine's evidence rule (`MetricCollector.withoutVacuousPasses`) in every bundled app: a
/// checked row summarising no samples is `not_measured` with a note, never a pass or a fail. Each app
/// runs one of its bundled scenarios with the users idle and the feeds silent.
@Suite("No pass without evidence, in every app")
struct NoPassWithoutEvidenceTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: [
        "skyscape-lincoln.yaml", "weather-cities.yaml", "navup-emergency.yaml", "micity-city-day.yaml",
        "beentheredonethat-offline-sync.yaml",
    ])
    func idleRunsAreNotMeasured(_ file: String) throws {
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
        let unmeasured = rows.filter { $0.samples == 0 && $0.isChecked }
        #expect(!unmeasured.isEmpty, "an idle \(s.app) run measured everything")
        for row in unmeasured {
            #expect(row.status == .notMeasured, "\(row.requirement) \(row.metric) has a verdict with no samples")
            #expect(!row.note.isEmpty, "\(row.requirement) \(row.metric) does not say why it was not measured")
        }
        // What the preflight says cannot be measured indeed gives no verdict.
        let app = try #require(AppRegistry.bundled.app(s.app))
        for spec in s.requirements {
            guard let r = app.requirement(spec.id), !r.exercisedBy.holds(in: s) else { continue }
            #expect(
                !rows.contains { $0.requirement == spec.id && ($0.status == .pass || $0.status == .fail) },
                "\(spec.id) is said to need \(r.exercisedBy) but got a verdict without it")
        }
        // Every listed requirement is reported, and nothing without samples passes.
        for id in Set(s.requirements.map(\.id)) {
            let own = rows.filter { $0.requirement == id }
            #expect(!own.isEmpty, "\(id)")
            #expect(!own.contains { $0.samples == 0 && $0.status == .pass }, "\(id)")
        }
    }
}

/// Every bundled scenario exercises every requirement it asks for: `validate` warns about none.
@Suite("Bundled scenarios exercise what they request")
struct BundledScenariosExerciseTests {
    @Test func noBundledScenarioRequestsWhatItCannotMeasure() throws {
        let repo = NoPassWithoutEvidenceTests.repo
        let manifest = try DatasetManifest(root: repo.appendingPathComponent("Datasets"))
        let folders = [repo.appendingPathComponent("Scenarios"), repo.appendingPathComponent("Scenarios/sweeps")]
        let files = try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "yaml" }
        }
        #expect(files.count >= 14)
        for file in files {
            let s = try ScenarioLoader(manifest: manifest).load(file, displayName: file.lastPathComponent)
            #expect(ScenarioPreflight.exerciseWarnings(s, registry: .bundled).map(\.description) == [])
        }
    }
}
