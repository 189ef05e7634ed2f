import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// `merge` knows a sweep's cases from the `SweepRecord` in each shard's `run.json`, and says
/// which are missing or duplicated.
@Suite("Shard merge: recorded sweeps, missing and duplicated cases")
struct ShardMergeTests {
    let loader = ScenarioLoader(datasetNames: nil)

    /// A 3 network presets × 4 seeds sweep (12 cases) whose label order differs from its sweep order.
    func sweep() throws -> Scenario {
        try loader.parse(
            miCityScenario
                + "sweep:\n  parameters:\n    devices.phone.network: [wifi, lte, 3g]\n  seeds: {from: 1, count: 4}\n",
            file: "x.yaml")
    }

    /// Two rows per case, as a run writes them.
    func rows(_ cases: [ScenarioCase]) -> [MetricRow] {
        cases.flatMap { c in
            ["a", "b"].map { metric in
                MetricRow(
                    scenario: c.label, runID: "r", seed: c.scenario.seed, requirement: "MIC-12", metric: metric,
                    kind: .accuracy,
                    value: Double(c.index), unit: "s", threshold: nil, comparator: .none, samples: 1)
            }
        }
    }

    /// The shards of `s` as `run` writes them: shard I's rows and its run.json facts.
    func shards(_ s: Scenario, count: Int) -> [ShardMerge.Input] {
        let cases = ScenarioRunner.cases(of: s)
        return (0..<count).map { i in
            ShardMerge.Input(
                name: "shard-\(i)/metrics.csv", rows: rows(ScenarioRunner.shard(cases, index: i, count: count)),
                run: ShardRunInfo(scenario: s.name, shard: "\(i)/\(count)", sweep: SweepRecord(s)))
        }
    }

    @Test func theRecordListsTheCasesTheRunnerRuns() throws {
        let s = try sweep()
        let record = SweepRecord(s)
        #expect(record.seeds == [SweepRecord.SeedRun(from: 1, count: 4)])
        #expect(record.caseCount == 12)
        let expected = ScenarioRunner.cases(of: s).map {
            SweepRecord.Case(index: $0.index, label: $0.label, seed: $0.scenario.seed)
        }
        #expect(record.cases(scenario: s.name) == expected)
        #expect(expected[1].label == "mood[devices.phone.network=wifi,seed=2]")
        // A plain scenario is one case under its own seed, labelled with its name.
        let plain = try loader.parse(miCityScenario, file: "x.yaml")
        #expect(SweepRecord(plain).cases(scenario: "mood") == [SweepRecord.Case(index: 0, label: "mood", seed: 77)])
        // Listed seeds that are not consecutive keep their order, as runs.
        let listed = SweepRecord(parameters: [], seeds: [5, 6, 9, 2, 3])
        #expect(listed.seeds.map(\.count) == [2, 1, 2])
        #expect(listed.seedList == [5, 6, 9, 2, 3])
        #expect(SweepRecord(parameters: [], seeds: [UInt64.max, 0]).seedList == [UInt64.max, 0])
    }

    /// What `run` writes in run.json is what `merge` reads back.
    @Test func theRecordSurvivesRunJSON() throws {
        let s = try sweep()
        let record = RunRecord(
            tool: "fieldtest", toolVersion: "t", scenario: s.name, scenarioFile: "x.yaml", scenarioSHA256: "ab",
            seed: 77, runID: "r", startedAt: "now", datasets: [:], machine: [:], cases: 2, shard: "3/8",
            events: 0, passed: 0, failed: 0, informational: 0, sweep: SweepRecord(s))
        let folder = TemporaryFiles.url("fieldtest-merge")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try RunReport.write(rows: [], record: record, to: folder, junit: nil)
        let metrics = folder.appendingPathComponent("metrics.csv")
        let info = try #require(try ShardRunInfo.read(besides: metrics, displayName: "out/mood/metrics.csv"))
        #expect(info == ShardRunInfo(record))
        #expect(info.shardCount == 8)
        try Data("{\"scenario\": 3}".utf8).write(to: folder.appendingPathComponent("run.json"))
        #expect(throws: MergeError.self) {
            try ShardRunInfo.read(besides: metrics, displayName: "out/mood/metrics.csv")
        }
        #expect(
            try ShardRunInfo.read(besides: folder.appendingPathComponent("none/metrics.csv"), displayName: "x") == nil)
    }

    @Test func allShardsMergeToTheWholeRunInSweepOrder() throws {
        let s = try sweep()
        let report = try ShardMerge.merge(shards(s, count: 5).reversed())
        #expect(report.isComplete && report.unchecked.isEmpty)
        #expect(report.expectedCases == ["mood": 12])
        #expect(report.rows.map(\.key) == rows(ScenarioRunner.cases(of: s)).map(\.key))
        #expect(report.problems().isEmpty)
    }

    @Test func missingCasesAreNamedWithTheShardThatRunsThem() throws {
        let s = try sweep()
        var inputs = shards(s, count: 5)
        inputs.remove(at: 3)
        let report = try ShardMerge.merge(inputs)
        #expect(!report.isComplete)
        #expect(report.missing.map(\.sweepCase.index) == [3, 8])
        #expect(report.missing.map(\.shard) == ["3/5", "3/5"])
        #expect(
            report.problems() == [
                "mood: 2 of 12 cases missing: mood[devices.phone.network=wifi,seed=4] (shard 3/5), mood[devices.phone.network=3g,seed=1] (shard 3/5)"
            ])
        #expect(report.rows.count == 20)
        // Long lists are cut.
        let few = try ShardMerge.merge([shards(s, count: 5)[0]])
        #expect(few.missing.count == 9)
        #expect(few.problems(limit: 2).first?.hasSuffix("(shard 2/5) and 7 more") == true, "\(few.problems(limit: 2))")
    }

    /// A header-only file is not a shard that ran: the merge says so and is incomplete (exit 1).
    @Test func anInputWithNoRowsIsNotAResult() throws {
        let report = try ShardMerge.merge([
            ShardMerge.Input(name: "empty/metrics.csv", rows: [LocatedMetricRow](), run: nil)
        ])
        #expect(!report.isComplete)
        #expect(report.empty == ["empty/metrics.csv"])
        #expect(
            report.diagnostics(allowPartial: false).contains {
                $0.contains("empty/metrics.csv: holds no metric rows")
            })
    }

    @Test func aCaseInSeveralInputsIsDuplicatedAndKeptOnce() throws {
        let s = try sweep()
        var inputs = shards(s, count: 4)
        var copy = inputs[1]
        copy.name = "copy/metrics.csv"
        inputs.append(copy)
        let report = try ShardMerge.merge(inputs)
        #expect(report.missing.isEmpty)
        #expect(
            report.duplicated.map(\.label)
                == ScenarioRunner.shard(ScenarioRunner.cases(of: s), index: 1, count: 4).map(\.label))
        #expect(report.duplicated.allSatisfy { $0.files == ["shard-1/metrics.csv", "copy/metrics.csv"] })
        #expect(
            report.problems().first
                == "case mood[devices.phone.network=wifi,seed=2] is in 2 inputs: shard-1/metrics.csv, copy/metrics.csv")
        #expect(report.rows.map(\.key) == rows(ScenarioRunner.cases(of: s)).map(\.key))
    }

    @Test func shardsOfDifferentSweepsAreRefused() throws {
        let s = try sweep()
        var inputs = shards(s, count: 2)
        inputs[1].run?.sweep?.seeds = [SweepRecord.SeedRun(from: 1, count: 5)]
        #expect(
            throws: MergeError.differentSweeps(
                scenario: "mood", file: "shard-1/metrics.csv", other: "shard-0/metrics.csv")
        ) {
            try ShardMerge.merge(inputs)
        }
    }

    /// A record no run could have written is refused before its cases are listed.
    @Test func anOversizedRecordIsRefused() throws {
        let s = try sweep()
        var inputs = shards(s, count: 2)
        inputs[1].run?.sweep?.seeds = [SweepRecord.SeedRun(from: 0, count: Int.max)]
        #expect(inputs[1].run?.sweep?.caseCount == Int.max)
        #expect(throws: MergeError.self) { try ShardMerge.merge(inputs) }
        inputs[1].run?.sweep?.seeds = [SweepRecord.SeedRun(from: 0, count: -1)]
        #expect(inputs[1].run?.sweep?.caseCount == nil)
        #expect(throws: MergeError.self) { try ShardMerge.merge(inputs) }
    }

    /// Files without a recorded sweep (baselines, older reports) are merged unchecked, by label and seed.
    @Test func filesWithoutARecordedSweepAreMergedUnchecked() throws {
        let s = try sweep()
        var inputs = shards(s, count: 2)
        inputs[0].run = nil
        inputs[1].run?.sweep = nil
        let report = try ShardMerge.merge(inputs)
        #expect(report.isComplete)
        #expect(report.unchecked == ["shard-0/metrics.csv", "shard-1/metrics.csv"])
        let labels = report.rows.map(\.scenario)
        #expect(labels == labels.sorted())
        #expect(report.rows.count == 24)
    }
}

/// `ShardMerge.merge(files:)`: the shards read from the folders `run` writes.
@Suite("Shard merge from files")
struct ShardMergeFilesTests {
    @Test func shardFoldersMergeAsTheirRowsInMemoryDo() throws {
        let t = ShardMergeTests()
        let s = try t.sweep()
        let shards = t.shards(s, count: 2)
        let root = TemporaryFiles.url("fieldtest-merge")
        defer { try? FileManager.default.removeItem(at: root) }
        var files: [String] = []
        for (i, shard) in shards.enumerated() {
            let record = RunRecord(
                tool: "fieldtest", toolVersion: "t", scenario: s.name, scenarioFile: "x.yaml", scenarioSHA256: "ab",
                seed: 77, runID: "r", startedAt: "now", datasets: [:], machine: [:], cases: 6, shard: "\(i)/2",
                events: 0, passed: 0, failed: 0, informational: 0, sweep: SweepRecord(s))
            let folder = root.appendingPathComponent("shard-\(i)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try RunReport.write(rows: shard.rows.map(\.row), record: record, to: folder, junit: nil)
            files.append(folder.appendingPathComponent("metrics.csv").path)
        }
        let fromFiles = try ShardMerge.merge(files: files)
        #expect(fromFiles.isComplete)
        #expect(fromFiles.rows == (try ShardMerge.merge(shards)).rows)
        let partial = try ShardMerge.merge(files: [files[0]])
        #expect(!partial.isComplete && partial.missing.count == 6)
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try ShardMerge.merge(files: files, output: files[1]) }
    }
}
