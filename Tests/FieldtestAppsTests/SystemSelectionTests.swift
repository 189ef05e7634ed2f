import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestApps

/// Where an external system's standard error ends up when a scenario runs without a report folder.
@Suite("External systems' standard error")
struct SystemSelectionTests {
    @Test("an empty temporary log is removed and not recorded; one with text, or in a report folder, stays")
    func emptyTemporaryLogsGo() throws {
        let empty = TemporaryFiles.url("sut.stderr")
        let written = TemporaryFiles.url("sut.stderr")
        try FileManager.default.createDirectory(
            at: empty.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: empty)
        try Data("warning: model cache cold\n".utf8).write(to: written)

        #expect(SystemSelection.keptStandardError(written.path, temporary: true) == written.path)
        #expect(FileManager.default.fileExists(atPath: written.path))
        #expect(SystemSelection.keptStandardError(empty.path, temporary: false) == empty.path)
        #expect(FileManager.default.fileExists(atPath: empty.path))
        #expect(SystemSelection.keptStandardError(empty.path, temporary: true) == nil)
        #expect(!FileManager.default.fileExists(atPath: empty.path))
    }
}
