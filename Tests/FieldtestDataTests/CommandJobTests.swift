import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// The jobs of the `datasets` commands declare what they read and write, and outcomes map to exit codes.
@Suite("Command jobs: datasets")
struct CommandJobTests {
    @Test func outcomesAreTheToolsExitCodes() {
        #expect([CommandJobOutcome.success, .failure, .invalidInput].map(\.exitCode) == [0, 1, 2])
        #expect(CommandJobOutcome(failed: true) == .failure)
        #expect(CommandJobOutcome(failed: false) == .success)
    }

    @Test func addingAFileDeclaresItAndItsCompanionAsInputs() throws {
        let folder = TemporaryFiles.url("job")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("val_text.txt")
        let labels = folder.appendingPathComponent("val_labels.txt")
        try "a tweet\n".write(to: text, atomically: true, encoding: .utf8)
        try "1\n".write(to: labels, atomically: true, encoding: .utf8)
        let job = DatasetRegistration.Job(
            file: text.path, name: "val", format: .tweetevalText, into: nil, folders: [], license: nil)
        let inputs = job.files.inputs.map(\.url.lastPathComponent)
        #expect(inputs == ["val_text.txt", "val_labels.txt"])
        #expect(job.files.outputs.isEmpty)
    }

    @Test func jobsThatWriteNoFileDeclareNone() throws {
        #expect(DatasetsLocation.WhereJob().files.outputs.isEmpty)
        #expect(DatasetsLocation.VerifyJob(folders: [], names: []).files.outputs.isEmpty)
    }
}
