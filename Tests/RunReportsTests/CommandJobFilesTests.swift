import FieldtestApps
import FieldtestData
import FieldtestTestSupport
import Foundation
import ScenarioEngine
import Testing

@testable import RunReports

/// `report`'s job declares every run file it reads, so its page cannot replace one of them.
@Suite("Command jobs: report files")
struct ReportJobFilesTests {
    @Test func theReportDeclaresTheRunFilesBesideEachMetricsFile() throws {
        let folder = TemporaryFiles.url("report-job")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let metrics = folder.appendingPathComponent("metrics.csv")
        try "x\n".write(to: metrics, atomically: true, encoding: .utf8)
        let job = HTMLReport.Job(inputs: [metrics.path], requirements: [], output: "report.html")
        let inputs = job.files.inputs.map(\.url.lastPathComponent)
        #expect(inputs.first == "metrics.csv")
        #expect(Set(RunReport.fileNames).isSubset(of: Set(inputs)))
        let over = HTMLReport.Job(
            inputs: [metrics.path], requirements: [], output: folder.appendingPathComponent("run.json").path)
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try over.files.check() }
    }
}

/// `compare --out DIR` replaces DIR/<NAME>/ for each system, so those files are outputs the tool checks.
@Suite("Command jobs: compare files")
struct ComparisonJobFilesTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func eachSystemsRunFolderUnderOutIsDeclaredAndMayNotReplaceAnInput() throws {
        let manifest = try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets"))
        let folder = TemporaryFiles.url("compare-job")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("a"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A scenario kept where system a's run folder would write its run.json.
        let scenario = folder.appendingPathComponent("a/run.json")
        try FileManager.default.copyItem(
            at: Self.repo.appendingPathComponent("Scenarios/micity-city-day.yaml"), to: scenario)
        let entries = [
            SystemComparison.Entry(name: "a", capability: "sentiment", setting: nil),
            SystemComparison.Entry(name: "b", capability: "sentiment", setting: nil),
        ]
        var job = SystemComparison.Job(
            file: scenario.path, entries: entries, manifest: manifest, apps: .bundled,
            base: RunRequest(files: [scenario.path], toolVersion: "test"))
        job.out = folder.path
        let written = Set(job.files.outputs.filter { $0.option == "--out" }.map(\.url.path))
        for name in ["a", "b"] {
            for file in RunReport.fileNames {
                #expect(written.contains(folder.appendingPathComponent(name).appendingPathComponent(file).path))
            }
        }
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try job.files.check() }
        job.out = folder.appendingPathComponent("elsewhere").path
        try job.files.check()
    }
}
