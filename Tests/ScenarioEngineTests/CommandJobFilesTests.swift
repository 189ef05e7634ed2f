import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import ScenarioEngine

/// The harness commands' jobs declare the files they read and write, so the tool refuses an output
/// over an input before anything runs.
@Suite("Command jobs: harness files")
struct CommandJobFilesTests {
    let folder: URL

    init() throws {
        folder = TemporaryFiles.url("jobs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "scenario,requirement\n".write(to: path("metrics.csv"), atomically: true, encoding: .utf8)
        try "{}\n".write(to: path("run.json"), atomically: true, encoding: .utf8)
    }

    func path(_ name: String) -> URL { folder.appendingPathComponent(name) }

    @Test func checkDeclaresTheRunFilesAndRefusesJUnitOverTheBaseline() throws {
        let baseline = path("base.csv")
        try "x\n".write(to: baseline, atomically: true, encoding: .utf8)
        let ok = BaselineComparison.CheckJob(
            current: path("metrics.csv").path, baseline: baseline.path, junit: path("j.xml").path, requirements: [])
        let inputs = ok.files.inputs.map(\.url.lastPathComponent)
        #expect(inputs.contains("run.json") && inputs.contains("base.csv"))
        #expect(ok.files.outputs.map(\.option) == ["--junit"])
        try ok.files.check()
        let over = BaselineComparison.CheckJob(
            current: path("metrics.csv").path, baseline: baseline.path, junit: baseline.path, requirements: [])
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try over.files.check() }
    }

    @Test func mergeDeclaresItsOutputAndRefusesOneOverAnInput() throws {
        let job = RunFolderMerge.Job(
            inputs: [path("metrics.csv").path], output: path("merged.csv").path, out: nil, allowPartial: false,
            commandLine: [])
        #expect(job.files.inputs.map(\.url.lastPathComponent) == ["metrics.csv", "run.json"])
        #expect(job.files.outputs.map(\.option) == ["--output"])
        let over = RunFolderMerge.Job(
            inputs: [path("metrics.csv").path], output: path("run.json").path, out: nil, allowPartial: false,
            commandLine: [])
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try over.files.check() }
    }

    @Test func aTextOutputJobDeclaresOnlyItsOutputAndWritesItsText() throws {
        let schema = TextOutputJob(output: path("s.json").path) { JSONSchemaWriter.render(AppRegistry([])) }
        #expect(schema.files.outputs.map(\.option) == ["--output"])
        #expect(schema.files.inputs.isEmpty)
        #expect(try schema.run() == .success)
        #expect(try String(contentsOf: path("s.json"), encoding: .utf8) == JSONSchemaWriter.render(AppRegistry([])))
        let toStandardOutput = TextOutputJob(output: nil) { "" }
        #expect(toStandardOutput.files.outputs.isEmpty)
    }
}
