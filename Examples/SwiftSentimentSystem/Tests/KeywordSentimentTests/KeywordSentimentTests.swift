import Capabilities
import FieldtestApps
import FieldtestData
import Foundation
import KeywordSentiment
import ScenarioEngine
import Testing

/// Runs Fieldtest's bundled miCity city-day scenario with this package's classifier in process.
@Suite struct KeywordSentimentTests {
    static let fieldtest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func classifiesTheCityDayStream() throws {
        InProcessSystems.register(sentiment: KeywordSentiment(), as: "keywords")
        let manifest = try DatasetManifest(root: Self.fieldtest.appendingPathComponent("Datasets"))
        var scenario = try ScenarioLoader(manifest: manifest, registry: .bundled)
            .load(Self.fieldtest.appendingPathComponent("Scenarios/micity-city-day.yaml"))
        scenario.systems["sentiment"] = SystemSetting(command: [InProcessSystems.prefix + "keywords"])
        let results = try ScenarioRunner.run(
            ScenarioRunner.cases(of: scenario), jobs: 1, runID: "example", datasets: DatasetStore(manifest: manifest),
            apps: .bundled)
        let rows = results.flatMap(\.rows)
        let accuracy = try #require(rows.first { $0.requirement == "MIC-14" && $0.metric == "accuracy" })
        // Cue words alone do better than chance on three classes, and far worse than the shipped model.
        #expect(accuracy.value > 0.34 && accuracy.value < 0.8)
        #expect((rows.first { $0.metric == "tweets_classified" }?.value ?? 0) > 10_000)
    }
}
