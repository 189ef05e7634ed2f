import FieldtestData
import Foundation
import ScenarioEngine
import Testing

@testable import RunReports

/// `report`'s job declares every run file it reads, so its page cannot replace one of them.
@Suite("Command jobs: report files")
struct ReportJobFilesTests {
    @Test func theReportDeclaresTheRunFilesBesideEachMetricsFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-job-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let metrics = folder.appendingPathComponent("metrics.csv")
        try "x\n".write(to: metrics, atomically: true, encoding: .utf8)
        let job = HTMLReport.Job(inputs: [metrics.path], requirements: [], output: "report.html")
        let inputs = try job.files.inputs.map(\.url.lastPathComponent)
        #expect(inputs.first == "metrics.csv")
        #expect(Set(RunReport.fileNames).isSubset(of: Set(inputs)))
        let over = HTMLReport.Job(
            inputs: [metrics.path], requirements: [], output: folder.appendingPathComponent("run.json").path)
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try over.files.check() }
    }
}
