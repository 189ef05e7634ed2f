import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// The run orchestration behind `fieldtest run` and `fieldtest check`, through the library:
/// scenario files in, report folders and outcomes out.
@Suite("Run pipeline")
struct RunPipelineTests {
    let manifest: DatasetManifest
    let folder: URL

    init() throws {
        manifest = try DatasetManifest(root: RunnerTests.manifestRoot)
        folder = TemporaryFiles.url("fieldtest-pipeline")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Writes `text` as a scenario file and returns its path.
    func scenarioFile(_ text: String = validScenario, name: String = "demo.yaml") throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func request(_ files: [String], baseline: String? = nil, recordBaseline: String? = nil, out: String? = nil)
        -> RunRequest
    {
        RunRequest(
            files: files, out: out ?? folder.appendingPathComponent("out").path, baseline: baseline,
            recordBaseline: recordBaseline, compareLatency: .never, toolVersion: "9.9.9")
    }

    func run(_ request: RunRequest) throws -> (RunOutcome, [RunEvent]) {
        var events: [RunEvent] = []
        let outcome = try RunPipeline(
            request: request, manifest: manifest,
            apps: .bundled(skyscape: { _ in ManagedAppDriver(FailingFolderDriver(failing: nil)) })
        ).run { events.append($0) }
        return (outcome, events)
    }

    @Test func writesReportsAndReadsBackItsRunRecord() throws {
        let file = try scenarioFile()
        let (outcome, events) = try run(request([file]))
        #expect(!outcome.anyRegression)
        let finished = events.compactMap { if case .finished(let o) = $0 { o } else { nil } }
        let o = try #require(finished.first)
        #expect(finished.count == 1 && o.check == nil)
        #expect(o.folder.path == folder.appendingPathComponent("out").appendingPathComponent("demo").path)
        let record = try RunReport.readRecord(o.folder.appendingPathComponent("run.json"))
        #expect(record.scenario == "demo" && record.toolVersion == "9.9.9" && record.seed == 7 && record.cases == 1)
        #expect(record.scenarioSHA256 == (try DatasetManifest.sha256(of: URL(fileURLWithPath: file))))
        #expect(record.datasets["noaa-lcd-rota-2018"] == manifest.entry(named: "noaa-lcd-rota-2018")?.sha256)
        #expect(record.passed == o.passedCount && record.failed == o.rows.filter { $0.status == .fail }.count)
        #expect(outcome.anyFailed == (record.failed > 0 || (record.notMeasured ?? 0) > 0))
        #expect(RunReport.machine(besides: o.folder.appendingPathComponent("metrics.csv")) == MachineIdentity.current())
        let rows = try MetricsCSV.read(o.folder.appendingPathComponent("metrics.csv"), displayName: "metrics.csv")
        #expect(MetricsCSV.render(rows) == MetricsCSV.render(o.rows))
        // Events come in order: prepared before the scenario starts, finished last.
        #expect(events.firstIndex { if case .prepared = $0 { true } else { false } } == 0)
    }

    @Test func recordedBaselineComparesUnchanged() throws {
        let file = try scenarioFile()
        let baselines = folder.appendingPathComponent("baselines").path
        _ = try run(request([file], recordBaseline: baselines))
        let (outcome, events) = try run(request([file], baseline: baselines))
        let check = try #require(events.compactMap { if case .finished(let o) = $0 { o.check } else { nil } }.first)
        // Unchanged rows are not regressions; a row that fails is one even when its baseline failed too.
        let failing = check.comparisons.filter { $0.current?.status == .fail }.map(\.key)
        #expect(check.regressions.map(\.key) == failing && !check.comparisons.isEmpty)
        #expect(outcome.anyRegression == !failing.isEmpty)
        #expect(
            check.rendered(quiet: false).hasSuffix(
                "check: \(failing.count) regressions, 0 improvements, \(check.comparisons.count - failing.count) unchanged\n"
            ))
    }

    @Test func missingBaselineSaysHowToRecordOne() throws {
        let file = try scenarioFile()
        let baselines = folder.appendingPathComponent("empty-baselines")
        try FileManager.default.createDirectory(at: baselines, withIntermediateDirectories: true)
        #expect(
            throws: RunError.missingBaseline(
                path: baselines.appendingPathComponent("demo.csv").path, scenario: "demo",
                scenarioFile: file, baselineOption: baselines.path)
        ) {
            try run(request([file], baseline: baselines.path))
        }
    }

    @Test func twoFilesOfOneScenarioNameAreRefusedBeforeAnythingRuns() throws {
        let a = try scenarioFile(name: "a.yaml")
        let b = try scenarioFile(name: "b.yaml")
        #expect(throws: RunError.duplicateScenarioName(file: b, name: "demo", otherFile: a)) {
            try run(request([a, b]))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func anOutputFolderBlockedByAFileIsRefusedAndLeavesNothingBehind() throws {
        let file = try scenarioFile()
        let blocker = folder.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let out = blocker.appendingPathComponent("out").path
        #expect(
            throws: RunError.unwritableOutput(
                path: out, option: "--out", problem: "\(blocker.path) is a file, not a folder")
        ) {
            try run(request([file], out: out))
        }
        let report = folder.appendingPathComponent("new/deeper").path
        #expect(throws: RunError.self) { try run(request([file], recordBaseline: report, out: out)) }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new").path))
    }

    @Test(
        "request checks",
        arguments: [
            (
                RunRequest(files: ["a"], recordBaseline: "b", shard: Shard(parsing: "0/2"), toolVersion: "1"),
                "--record-baseline records whole scenarios"
            ),
            (RunRequest(files: ["a"], tolerances: ["accuracy=1"], toolVersion: "1"), "--tolerance applies only"),
            (RunRequest(files: ["a"], jobs: 0, toolVersion: "1"), "--jobs must be at least 1"),
        ])
    func requestValidation(request: RunRequest, message: String) {
        #expect(throws: RunError.self) { try request.validate() }
        do { try request.validate() } catch { #expect(error.description.hasPrefix(message)) }
    }

    @Test(arguments: [("0/4", 0, 4), ("3/4", 3, 4)]) func shardParses(text: String, index: Int, count: Int) throws {
        let shard = try #require(Shard(parsing: text))
        #expect(shard.index == index && shard.count == count && shard.description == text)
    }

    @Test(arguments: ["4/4", "-1/2", "1", "a/b", "1/0"]) func badShardIsNil(text: String) {
        #expect(Shard(parsing: text) == nil)
    }

    /// A shard's baseline keeps only the rows of the cases it runs, and drops other scenarios' rows.
    @Test func baselineSelectionKeepsTheShardsCases() throws {
        let s = try ScenarioLoader(datasetNames: nil).parse(
            validScenario + "\nsweep:\n  seeds: [1, 2, 3, 4]\n", file: "x.yaml")
        let all = ScenarioRunner.cases(of: s)
        let mine = ScenarioRunner.shard(all, index: 0, count: 2)
        func row(_ c: ScenarioCase, scenario: String? = nil) -> MetricRow {
            MetricRow(
                scenario: scenario ?? c.label, runID: "r", seed: c.scenario.seed, requirement: "SKY-P2", metric: "m",
                kind: .accuracy,
                value: 1, unit: "s", threshold: nil, comparator: .none, samples: 1)
        }
        let rows = all.map { row($0) } + [row(all[0], scenario: "other")]
        let kept = BaselineSelection.select(rows, of: s, running: mine)
        #expect(kept.map(\.seed) == mine.map(\.scenario.seed))
        #expect(mine.count == 2)
    }

    @Test func datasetHashingWarnsOnceForAFileThatDiffersFromTheManifest() throws {
        let copy = folder.appendingPathComponent("w.csv")
        try "x\n".write(to: copy, atomically: true, encoding: .utf8)
        var hashing = DatasetHashing(manifest: manifest)
        var warnings: [String] = []
        let used = try hashing.hashes(read: ["noaa-lcd-rota-2018": copy], listed: []) { warnings.append($0) }
        _ = try hashing.hashes(read: ["noaa-lcd-rota-2018": copy], listed: []) { warnings.append($0) }
        #expect(warnings.count == 1 && warnings[0].contains("warning: dataset 'noaa-lcd-rota-2018' has sha256"))
        #expect(used.hashes["noaa-lcd-rota-2018"] == (try DatasetManifest.sha256(of: copy)))
        #expect(used.manifestHashes["noaa-lcd-rota-2018"] == manifest.entry(named: "noaa-lcd-rota-2018")?.sha256)
    }

    @Test func checkOfAMissingBaselineFileSaysHowToRecordOne() {
        #expect(throws: BaselineComparison.Problem.missingBaseline("/nonexistent/b.csv")) {
            try BaselineComparison.compare(
                current: "m.csv", baseline: "/nonexistent/b.csv", tolerances: [], compareLatency: .never,
                requirements: [], note: { _ in })
        }
    }
}
