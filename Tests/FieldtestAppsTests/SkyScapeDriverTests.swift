import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import FieldtestApps

@Suite("SkyScape driver")
struct SkyScapeDriverTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The worked example of `Scenarios/README.md` (the YAML block of scenario `demo`), without its sweep.
    static func readmeExample() throws -> Scenario {
        let readme = try String(contentsOf: repo.appendingPathComponent("Scenarios/README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```yaml\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }.first { $0.contains("name: demo\n") })
        let manifest = try DatasetManifest(root: repo.appendingPathComponent("Datasets"))
        var s = try ScenarioLoader(manifest: manifest).parse(block, file: "README.md")
        s.sweep = nil
        return s
    }

    func run(_ s: Scenario) throws -> [MetricRow] {
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        return try ScenarioRunner.run(ScenarioRunner.cases(of: s), jobs: 1, runID: "t", datasets: store,
                                      driver: AppDrivers.factory).flatMap(\.rows)
    }

    @Test func readmeExampleMeasuresSunTimesAndPasses() throws {
        let rows = try run(try Self.readmeExample())
        let max = try #require(rows.first { $0.requirement == "SKY-P2" && $0.metric == "sun_event_abs_error_max" })
        #expect(max.samples > 0)
        #expect(max.threshold == 120)
        #expect(max.status == .pass)
        #expect(rows.allSatisfy { $0.status != .fail }, "\(rows.filter { $0.status == .fail })")
    }

    @Test func sunTimesWithNoReferenceDayAreZeroOverZeroSamples() throws {
        // The SPA reference holds June 8-22, 2018: June 1 has nothing to compare.
        var s = try Self.readmeExample()
        s.start -= 11 * 86_400
        let rows = try run(s)
        for metric in ["sun_event_abs_error_max", "sun_event_abs_error_mean"] {
            let row = try #require(rows.first { $0.requirement == "SKY-P2" && $0.metric == metric })
            #expect(row.value == 0 && row.samples == 0, "\(metric)")
            #expect(row.status != .fail, "\(metric)")
        }
    }
}
