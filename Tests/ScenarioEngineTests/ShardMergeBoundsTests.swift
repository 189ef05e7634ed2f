import FieldtestData
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// `merge` refuses shards of different scenario files, and takes shards the sweep gives no case.
@Suite("Shard merge: scenario versions and empty shards")
struct ShardMergeBoundsTests {
    let base = ShardMergeTests()

    @Test("N13: shards whose run.json record different scenario files (SHA-256) are refused, naming both")
    func n13DifferentScenarioFilesAreRefused() throws {
        let s = try base.sweep()
        var inputs = base.shards(s, count: 2)
        inputs[0].run?.scenarioSHA256 = String(repeating: "a", count: 64)
        inputs[1].run?.scenarioSHA256 = String(repeating: "b", count: 64)
        do {
            _ = try ShardMerge.merge(inputs)
            Issue.record("shards of two scenario versions merged")
        } catch {
            #expect(
                error
                    == .differentScenarioFiles(
                        scenario: "mood", file: "shard-1/metrics.csv", sha256: String(repeating: "b", count: 64),
                        other: "shard-0/metrics.csv", otherSHA256: String(repeating: "a", count: 64)))
            #expect(
                error.description.contains("shard-1/metrics.csv") && error.description.contains("shard-0/metrics.csv"))
        }
        // The same file in every shard merges.
        inputs[1].run?.scenarioSHA256 = String(repeating: "a", count: 64)
        #expect(try ShardMerge.merge(inputs).isComplete)
    }

    @Test("N25: shards past the case count are empty by design and complete the merge; a real gap still fails")
    func n25ShardsWithoutCasesAreComplete() throws {
        let s = try base.sweep()  // 12 cases
        let inputs = base.shards(s, count: 16)
        #expect(inputs[12...].allSatisfy { $0.rows.isEmpty })
        let report = try ShardMerge.merge(inputs)
        #expect(report.isComplete, "\(report.diagnostics(allowPartial: false))")
        #expect(report.empty.isEmpty)
        #expect(report.rows.map(\.key) == base.rows(ScenarioRunner.cases(of: s)).map(\.key))
        // Shard 3 of 16 has a case: without its rows the merge is incomplete, and says which case.
        var gap = inputs
        gap[3].rows = []
        let broken = try ShardMerge.merge(gap)
        #expect(!broken.isComplete)
        #expect(broken.empty == ["shard-3/metrics.csv"])
        #expect(broken.missing.map(\.shard) == ["3/16"])
        // An empty shard without a run.json is still not a result.
        var unrecorded = inputs
        unrecorded[15].run = nil
        #expect(try ShardMerge.merge(unrecorded).empty == ["shard-15/metrics.csv"])
    }
}
