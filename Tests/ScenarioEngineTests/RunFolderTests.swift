import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// A run folder is replaced as one unit, and a `metrics.csv` paired with another run's `run.json`
/// (what replacing the files one by one left after a kill in between) is refused (#26 defect 7).
@Suite("Run folder as one unit")
struct RunFolderTests {
    let root: URL

    init() throws {
        root = TemporaryFiles.url("fieldtest-runfolder")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func record(runID: String) -> RunRecord {
        RunRecord(
            tool: "fieldtest", toolVersion: "t", scenario: "demo", scenarioFile: "x.yaml", scenarioSHA256: "ab",
            seed: 7, runID: runID, startedAt: "now", datasets: [:], machine: [:], cases: 1, shard: nil,
            events: 0, passed: 1, failed: 0, informational: 0)
    }

    func rows(runID: String) -> [MetricRow] {
        [
            MetricRow(
                scenario: "demo", runID: runID, seed: 7, requirement: "SKY-P1", metric: "m", kind: .accuracy,
                value: 1, unit: "count", threshold: 2, comparator: .lessOrEqual, status: .pass, samples: 1)
        ]
    }

    /// The state a kill between the two renames of the former file-by-file replacement left: the
    /// new run's metrics.csv beside the previous run's run.json. merge and check refuse it at the row.
    @Test func metricsOfAnotherRunThanItsRunRecordAreRefused() throws {
        let folder = root.appendingPathComponent("demo")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try RunReport.write(rows: rows(runID: "new-run"), record: record(runID: "old-run"), to: folder, junit: nil)
        let metrics = folder.appendingPathComponent("metrics.csv").path
        let error = try #require(throws: MergeError.self) { try ShardMerge.merge(files: [metrics]) }
        #expect(error == .mismatchedRunRecord(file: metrics, line: 2, rowRunID: "new-run", recordRunID: "old-run"))
        #expect(error.description.contains("the two files come from different runs"))
        let baseline = root.appendingPathComponent("baseline.csv")
        try MetricsCSV.render(rows(runID: "b")).write(to: baseline, atomically: true, encoding: .utf8)
        #expect(throws: MergeError.self) {
            try BaselineComparison.compare(
                current: metrics, baseline: baseline.path, tolerances: [], compareLatency: .never,
                requirements: ["SKY-P1"], note: { _ in })
        }
        // A matching pair merges.
        try RunReport.write(rows: rows(runID: "new-run"), record: record(runID: "new-run"), to: folder, junit: nil)
        #expect(try ShardMerge.merge(files: [metrics]).rows.count == 1)
    }

    /// Publishing puts the folder in progress in place of the report folder in one step: nothing
    /// of the previous folder stays (not even a file the new run does not write), and the folder in
    /// progress is gone.
    @Test(arguments: [true, false])
    func publishReplacesTheWholeFolder(previousExists: Bool) throws {
        let target = root.appendingPathComponent("demo")
        if previousExists {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try RunReport.write(rows: rows(runID: "old"), record: record(runID: "old"), to: target, junit: nil)
            try "stale".write(to: target.appendingPathComponent("latency.csv"), atomically: true, encoding: .utf8)
        }
        let staging = RunStaging(target: target)
        try staging.begin(
            RunState(
                runID: "new", startedAt: "now",
                settings: RunSettings(
                    scenario: "demo", scenarioSHA256: "ab", toolVersion: "t", shard: nil, cases: 1, caseDigest: "d",
                    trace: "none", strict: false, systems: [])))
        try RunReport.write(rows: rows(runID: "new"), record: record(runID: "new"), to: staging.folder, junit: nil)
        try staging.publish()
        let names = try FileManager.default.contentsOfDirectory(atPath: target.path).sorted()
        #expect(names == ["metrics.csv", "run.json"])
        #expect(try RunReport.readRecord(target.appendingPathComponent("run.json")).runID == "new")
        #expect(try MetricsCSV.read(target.appendingPathComponent("metrics.csv")).map(\.runID) == ["new"])
        #expect(!FileManager.default.fileExists(atPath: staging.folder.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["demo"])
    }

    /// Since a run replaces its whole report folder, a folder holding anything else is refused
    /// before anything runs, naming what is there; a folder of an earlier run is fine.
    @Test func aReportFolderWithOtherFilesIsRefused() throws {
        let target = root.appendingPathComponent("demo")
        try FileManager.default.createDirectory(
            at: target.appendingPathComponent("systems"), withIntermediateDirectories: true)
        try RunReport.write(rows: rows(runID: "old"), record: record(runID: "old"), to: target, junit: nil)
        try RunStaging(target: target).checkTarget()
        try "mine".write(to: target.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect(throws: RunError.foreignFilesInReportFolder(folder: target.path, names: ["notes.txt"])) {
            try RunStaging(target: target).checkTarget()
        }
    }

    /// The exchange is atomic where the system has renameat2 (Linux): both paths exist throughout.
    @Test func exchangeSwapsTwoFolders() throws {
        let a = root.appendingPathComponent("a")
        let b = root.appendingPathComponent("b")
        for (folder, name) in [(a, "x"), (b, "y")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try name.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        #expect(AtomicFile.exchange(a.path, b.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: a.path) == ["y"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.path) == ["x"])
    }

    /// Case files: a record reads back; a truncated one, one with a changed byte, and one of another
    /// case or other settings are not used.
    @Test func caseFilesAreVerified() throws {
        let staging = RunStaging(target: root.appendingPathComponent("demo"))
        let settings = RunSettings(
            scenario: "demo", scenarioSHA256: "ab", toolVersion: "t", shard: nil, cases: 2, caseDigest: "d",
            trace: "none", strict: false, systems: [])
        try staging.begin(RunState(runID: "r", startedAt: "now", settings: settings))
        let s = try ScenarioLoader(datasetNames: nil).parse(validScenario, file: "x.yaml")
        let c = ScenarioCase(index: 0, label: "demo", scenario: s)
        let record = CaseRecord(
            settings: settings.digest, index: 0, label: "demo", seed: s.seed,
            metrics: MetricsCSV.render(rows(runID: "r")), events: "", latency: "", features: [], campuses: [],
            dropped: "", dispatched: 3, seconds: 0.1, systems: [])
        try staging.write(record)
        guard case .success(let back) = staging.record(of: c, digest: settings.digest) else {
            Issue.record("an intact case file is not read back")
            return
        }
        #expect(back.metrics == record.metrics && back.dispatched == 3)
        if case .success = staging.record(of: c, digest: "other") { Issue.record("other settings were trusted") }
        let other = ScenarioCase(index: 0, label: "demo[seed=9]", scenario: s)
        if case .success = staging.record(of: other, digest: settings.digest) {
            Issue.record("another case was trusted")
        }
        let file = staging.caseFile(0)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: file)
        if case .success = staging.record(of: c, digest: settings.digest) { Issue.record("a changed byte was trusted") }
        try bytes.prefix(bytes.count / 2).write(to: file)
        if case .success = staging.record(of: c, digest: settings.digest) {
            Issue.record("a truncated file was trusted")
        }
    }

    /// What a resume compares: each changed setting is named.
    @Test func settingsDifferencesNameWhatChanged() {
        let a = RunSettings(
            scenario: "demo", scenarioSHA256: "ab", toolVersion: "1", shard: "0/2", cases: 5, caseDigest: "d",
            trace: "summary", strict: false, systems: [])
        var b = a
        b.scenarioSHA256 = "cd"
        b.shard = "1/2"
        b.caseDigest = "e"
        let differences = b.differences(from: a)
        #expect(differences.count == 3)
        #expect(differences[0] == "the scenario file's sha256 was ab, is now cd")
        #expect(differences.contains("--shard was 0/2, is now 1/2"))
        #expect(a.differences(from: a).isEmpty && a.digest != b.digest)
    }
}
