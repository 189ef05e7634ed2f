import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// What a run writes besides its rows: one JUnit file for all its scenarios, the provenance in
/// `run.json`, progress as cases complete, and no output over any of its inputs.
@Suite("Run outputs")
struct RunOutputsTests {
    let manifest: DatasetManifest
    let folder: URL

    init() throws {
        manifest = try DatasetManifest(root: RunnerTests.manifestRoot)
        folder = TemporaryFiles.url("fieldtest-outputs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func scenarioFile(name: String) throws -> String {
        let url = folder.appendingPathComponent("\(name).yaml")
        try validScenario.replacingOccurrences(of: "name: demo", with: "name: \(name)")
            .write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func run(_ request: RunRequest, progress: (@Sendable (CaseProgress) -> Void)? = nil) throws -> RunOutcome {
        try RunPipeline(
            request: request, manifest: manifest,
            apps: .bundled(skyscape: { _ in ManagedAppDriver(FailingFolderDriver(failing: nil)) })
        ).run(observe: { _ in }, progress: progress)
    }

    final class Seen: @unchecked Sendable {
        let lock = NSLock()
        var progress: [CaseProgress] = []
    }

    @Test func oneJUnitFileForEveryScenarioAndTheRunsProvenance() throws {
        let files = [try scenarioFile(name: "first"), try scenarioFile(name: "second")]
        let junit = folder.appendingPathComponent("reports/junit.xml")
        var request = RunRequest(
            files: files, out: folder.appendingPathComponent("out").path, junit: junit.path, toolVersion: "9.9.9")
        request.commandLine = ["fieldtest", "run", files[0], files[1]]
        request.toolCommit = String(repeating: "a", count: 40)
        let seen = Seen()
        let outcome = try run(request) { p in seen.lock.withLock { seen.progress.append(p) } }
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testsuite ").count == 3)
        #expect(xml.contains("<testsuite name=\"first\"") && xml.contains("<testsuite name=\"second\""))
        #expect(
            xml.contains("<testsuites name=\"fieldtest\" tests=\"\(outcome.totals.rows)\""))
        #expect(outcome.totals.scenarios == 2 && outcome.totals.rows > 0 && outcome.totals.seconds > 0)
        #expect(seen.progress.map(\.done) == [1, 1] && seen.progress.allSatisfy { $0.total == 1 })

        let runJSON = folder.appendingPathComponent("out/first/run.json")
        let text = try String(contentsOf: runJSON, encoding: .utf8)
        #expect(text.contains("\"scenario_file\" : \"\(files[0])\""), "slashes are written unescaped")
        #expect(!text.contains("\\/"))
        let record = try RunReport.readRecord(runJSON)
        #expect(record.commandLine == request.commandLine && record.toolCommit == request.toolCommit)
        let started = try #require(ISO8601DateFormatter().date(from: record.startedAt))
        let finished = try #require(record.finishedAt.flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(finished >= started)
        #expect((record.durationSeconds ?? -1) >= 0)
    }

    /// `run.json` files written before the provenance fields still read back.
    @Test func olderRunRecordsStillRead() throws {
        let old = """
            {"cases":1,"datasets":{},"events":3,"failed":0,"informational":1,"machine":{"host":"h"},"passed":2,
             "run_id":"r","scenario":"s","scenario_file":"s.yaml","scenario_sha256":"00","seed":1,
             "started_at":"2026-01-01T00:00:00Z","tool":"fieldtest","tool_version":"0.1.0"}
            """
        let url = folder.appendingPathComponent("run.json")
        try old.write(to: url, atomically: true, encoding: .utf8)
        let record = try RunReport.readRecord(url)
        #expect(record.passed == 2 && record.finishedAt == nil && record.commandLine == nil && record.toolCommit == nil)
    }

    /// Every output of a run is checked against every input before anything is written: the
    /// scenario file and the baseline, also through a symbolic or a hard link (MANIFEST.csv: the CLI tests).
    @Test func anOutputOverAnInputIsRefusedAndNothingIsWritten() throws {
        let file = try scenarioFile(name: "demo")
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        let link = folder.appendingPathComponent("link.xml")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: file)
        let hard = folder.appendingPathComponent("hard.xml")
        try FileManager.default.linkItem(atPath: file, toPath: hard.path)
        let out = folder.appendingPathComponent("out").path
        for junit in [file, link.path, hard.path, folder.appendingPathComponent("x/../demo.yaml").path] {
            #expect(throws: OutputPathCheck.OverwritesInput.self) {
                _ = try run(RunRequest(files: [file], out: out, junit: junit, toolVersion: "1"))
            }
        }
        // A recorded baseline over the baseline compared with, and a report over the baseline.
        let baselines = folder.appendingPathComponent("baselines")
        _ = try run(RunRequest(files: [file], out: out, recordBaseline: baselines.path, toolVersion: "1"))
        let baselineFile = baselines.appendingPathComponent("demo.csv")
        let recorded = try Data(contentsOf: baselineFile)
        #expect(throws: OutputPathCheck.OverwritesInput.self) {
            _ = try run(
                RunRequest(
                    files: [file], out: out, baseline: baselines.path, recordBaseline: baselines.path,
                    compareLatency: .never, toolVersion: "1"))
        }
        let reportAsBaseline = folder.appendingPathComponent("out/demo/metrics.csv")
        try FileManager.default.removeItem(at: reportAsBaseline)
        try FileManager.default.copyItem(at: baselineFile, to: reportAsBaseline)
        let error = try #require(throws: OutputPathCheck.OverwritesInput.self) {
            _ = try run(
                RunRequest(
                    files: [file], out: out, baseline: reportAsBaseline.path, compareLatency: .never,
                    toolVersion: "1"))
        }
        #expect(error.description.hasPrefix("error: --out \(reportAsBaseline.path) is the input file --baseline"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
        #expect(try Data(contentsOf: baselineFile) == recorded)
        #expect(try Data(contentsOf: reportAsBaseline) == recorded)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x").path))
    }

    @Test func twoOutputsOfOneFileAreRefused() throws {
        let file = try scenarioFile(name: "demo")
        let out = folder.appendingPathComponent("out")
        #expect(throws: OutputPathCheck.OutputsCollide.self) {
            _ = try run(
                RunRequest(
                    files: [file], out: out.path, junit: out.appendingPathComponent("demo/run.json").path,
                    toolVersion: "1"))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
