import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// A driver that keeps a file in a temporary folder and fails where it is told to.
final class FailingFolderDriver: TemporaryFolderOwning, Sendable {
    enum Failure: Error { case inStart, inFinish }
    let folder = TemporaryFiles.url("fieldtest-test")
    let failure: Failure?
    init(failing failure: Failure?) { self.failure = failure }
    var temporaryFolders: [URL] { [folder] }

    func start(_ run: RunContext) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("db".utf8).write(to: folder.appendingPathComponent("app.sqlite"))
        if failure == .inStart { throw Failure.inStart }
    }

    func finish(_ run: RunContext) throws {
        if failure == .inFinish { throw Failure.inFinish }
        run.metrics.value(
            "SKY-P2", "mean_abs_draw", kind: .accuracy, 1, unit: "s", threshold: 300, comparator: .lessOrEqual,
            samples: 1)
    }
}

@Suite("Run safety: overrides, temporary folders, shard merge")
struct RunSafetyTests {
    static let manifestRoot = RunnerTests.manifestRoot

    func collector() -> MetricCollector {
        let m = MetricCollector()
        m.value(
            "NAV-F18", "wrong_wheelchair_evacuations", kind: .count, 0, unit: "count", threshold: 0,
            comparator: .lessOrEqual, samples: 2)
        m.value("NAV-F18", "evacuations", kind: .count, 2, unit: "count", samples: 2)
        m.latency("NAV-F18", "evacuation_latency", seconds: 0.5, threshold: 2)
        return m
    }

    /// A threshold override naming a metric the requirement does not report is an error listing the
    /// metrics it does report, and never loosens another row's threshold.
    @Test func overrideNamingAnUnreportedMetricIsAnError() throws {
        let m = collector()
        let typo = [RequirementSpec(id: "NAV-F18", threshold: 5, metric: "nonexistent_metric")]
        let error = try #require(throws: ThresholdOverrideError.self) {
            try m.checkThresholdOverrides(typo, file: "w.yaml")
        }
        #expect(
            error
                == ThresholdOverrideError(
                    file: "w.yaml", requirement: "NAV-F18", metric: "nonexistent_metric",
                    reported: [
                        "wrong_wheelchair_evacuations", "evacuations", "evacuation_latency_p50",
                        "evacuation_latency_p95", "evacuation_latency_p99", "evacuation_latency_max",
                    ]))
        #expect(
            error.description.hasPrefix(
                "w.yaml: error: requirement NAV-F18: threshold override names metric 'nonexistent_metric'"))
        let rows = m.rows(template: .init(scenario: "s", runID: "r", seed: 1, requirement: ""), requirements: typo)
        #expect(rows.first { $0.metric == "wrong_wheelchair_evacuations" }?.threshold == 0)
        #expect(rows.first { $0.metric == "evacuation_latency_p95" }?.threshold == 2)
        // Naming a reported metric (latency percentiles included), or no metric, is accepted and applied.
        let named = [RequirementSpec(id: "NAV-F18", threshold: 3, metric: "evacuation_latency_p95")]
        try m.checkThresholdOverrides(named, file: "w.yaml")
        let renamed = m.rows(template: .init(scenario: "s", runID: "r", seed: 1, requirement: ""), requirements: named)
        #expect(renamed.first { $0.metric == "evacuation_latency_p95" }?.threshold == 3)
        try m.checkThresholdOverrides([RequirementSpec(id: "NAV-F18", threshold: 1, metric: nil)], file: "w.yaml")
    }

    /// Through the runner, the wrapped driver's error stops the run.
    @Test func runnerRejectsAMisspeltOverrideMetric() throws {
        let text = validScenario.replacingOccurrences(
            of: "  - {id: SKY-P2, threshold: 120}",
            with: "  - {id: SKY-P2, threshold: 120, metric: mean_abs_drw}")
        #expect(text != validScenario)
        let s = try ScenarioLoader(datasetNames: nil).parse(text, file: "x.yaml")
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.manifestRoot))
        let error = try #require(throws: ThresholdOverrideError.self) {
            try ScenarioRunner.run(
                ScenarioRunner.cases(of: s), jobs: 1, runID: "r", datasets: store,
                apps: .bundled(skyscape: { _ in FailingFolderDriver(failing: nil) }))
        }
        #expect(error.metric == "mean_abs_drw" && error.reported == ["mean_abs_draw"])
    }

    /// The driver's temporary folder is removed whether the run fails in `start`, fails in
    /// `finish` or succeeds.
    @Test(arguments: [FailingFolderDriver.Failure.inStart, .inFinish, nil])
    func temporaryFoldersAreRemovedHoweverTheRunEnds(failure: FailingFolderDriver.Failure?) throws {
        let s = try ScenarioLoader(datasetNames: nil).parse(validScenario, file: "x.yaml")
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.manifestRoot))
        let inner = FailingFolderDriver(failing: failure)
        let result = Result {
            try ScenarioRunner.run(
                ScenarioRunner.cases(of: s), jobs: 1, runID: "r", datasets: store,
                apps: .bundled(skyscape: { _ in inner }))
        }
        switch (failure, result) {
        case (nil, .success): break
        case (.some(let f), .failure(let e)): #expect(e as? FailingFolderDriver.Failure == f)
        default: Issue.record("unexpected outcome \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: inner.folder.path))
    }

    /// A row repeated within one file is an error naming both lines; a case in two files is a duplicated case.
    @Test func shardMergeDuplicateRowNamesBothLines() throws {
        let row = { (metric: String) in
            MetricRow(
                scenario: "demo[x=1]", runID: "r", seed: 1, requirement: "SKY-P2", metric: metric, kind: .accuracy,
                value: 1, unit: "s", threshold: nil, comparator: .none, samples: 1)
        }
        // Rows held in memory (a file with a repeated row is already refused by `MetricsCSV`).
        let a = [row("a"), row("b")]
        let b = [row("c"), row("d"), row("c")]
        #expect(
            throws: MergeError.duplicateRow(
                .badLayout(
                    file: "shard1.csv", line: 4,
                    reason:
                        "row SKY-P2 c of case demo[x=1] seed 1 is also on line 2; a metrics file holds each row once (was it concatenated?); merge the shards' own files"
                ))
        ) {
            try ShardMerge.merge([
                ShardMerge.Input(name: "shard0.csv", rows: a), ShardMerge.Input(name: "shard1.csv", rows: b),
            ])
        }
        let report = try ShardMerge.merge([
            ShardMerge.Input(name: "shard0.csv", rows: a),
            ShardMerge.Input(name: "shard1.csv", rows: Array(b.prefix(2))),
        ])
        #expect(
            report.duplicated == [
                MergeReport.DuplicatedCase(label: "demo[x=1]", seed: 1, files: ["shard0.csv", "shard1.csv"])
            ])
        #expect(report.rows.map(\.metric) == ["a", "b"])
    }
}
