import FieldtestApps
import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import ScenarioEngine
import Testing

/// Every bundled scenario, run through the library, reports the same non-latency rows as
/// its recorded baseline in `Results/baselines`: a restructuring that changes what the apps
/// measure fails here. Latency rows are wall-clock compute time and are left out, except the series
/// measured on the virtual clock (`MetricDefinition.onVirtualClock()`), which are deterministic.
@Suite("Bundled scenarios against their baselines")
struct BundledBaselineTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var scenarios: [String] {
        let folder = repo.appendingPathComponent("Scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    /// The fast tier's share: one short scenario of each app, a few seconds each in a debug build.
    static let fastTier: Set = [
        "beentheredonethat-offline-sync.yaml", "micity-rate-limit.yaml", "navup-emergency.yaml",
        "navup-wheelchair.yaml", "skyscape-miami.yaml", "weather-cities.yaml",
    ]

    /// The rows as compared: every column but the run ID (and, unless `intervals`, the interval and
    /// margin: the baselines were recorded before rows had them), values as the CSV writes them.
    static func comparable(_ rows: [MetricRow], intervals: Bool = false) -> [String] {
        var onVirtualClock = Tolerances()
        onVirtualClock.virtualClockLatency = AppRegistry.bundled.virtualClockLatencies
        let kept = rows.filter { $0.kind != .latency || onVirtualClock.isOnVirtualClock($0) }.map { row -> MetricRow in
            var row = row
            row.runID = ""
            if !intervals {
                row.ci = nil
                row.margin = nil
            }
            return row
        }
        return MetricsCSV.render(kept).split(separator: "\n").dropFirst().map(String.init)
    }

    @Test(arguments: scenarios.filter(fastTier.contains))
    func nonLatencyRowsMatchTheBaseline(_ file: String) throws {
        try Self.check(file)
    }

    /// The other bundled scenarios (the NavUP days run for minutes in a debug build): heavy tier.
    @Test(.heavy, arguments: scenarios.filter { !fastTier.contains($0) })
    func nonLatencyRowsOfTheLongScenariosMatchTheBaseline(_ file: String) throws {
        try Self.check(file)
    }

    static func check(_ file: String) throws {
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let scenario = try ScenarioLoader(manifest: manifest, registry: .bundled)
            .load(repo.appendingPathComponent("Scenarios/" + file), displayName: "Scenarios/" + file)
        let baselineURL = repo.appendingPathComponent("Results/baselines/\(scenario.name).csv")
        let baseline = try MetricsCSV.read(baselineURL)
        let results = try ScenarioRunner.run(
            ScenarioRunner.cases(of: scenario), jobs: 2, runID: "check",
            datasets: DatasetStore(manifest: manifest), apps: .bundled)
        let current = comparable(results.flatMap(\.rows))
        let expected = comparable(baseline)
        #expect(!expected.isEmpty, "the baseline of \(file) has no non-latency rows")
        #expect(current.count == expected.count, "\(file): \(current.count) rows, baseline \(expected.count)")
        for (c, e) in zip(current, expected) where c != e {
            Issue.record("\(file): row differs from the baseline\n  now:      \(c)\n  baseline: \(e)")
        }
    }

    /// The same scenario and seed give the same intervals, bit for bit (seeded bootstrap streams): a
    /// mean of samples (`quality_mean`) carries its bootstrap interval.
    @Test func intervalsAreTheSameOnEveryRun() throws {
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let scenario = try ScenarioLoader(manifest: manifest, registry: .bundled)
            .load(
                Self.repo.appendingPathComponent("Scenarios/skyscape-tromso.yaml"), displayName: "skyscape-tromso.yaml")
        func rows() throws -> [MetricRow] {
            try ScenarioRunner.run(
                ScenarioRunner.cases(of: scenario), jobs: 2, runID: "check",
                datasets: DatasetStore(manifest: manifest), apps: .bundled
            ).flatMap(\.rows)
        }
        let first = try rows()
        #expect(Self.comparable(first, intervals: true) == Self.comparable(try rows(), intervals: true))
        let mean = try #require(first.first { $0.metric == "quality_mean" })
        let ci = try #require(mean.ci)
        #expect(ci.low < mean.value && mean.value < ci.high)
    }
}
