import FieldtestTestSupport
import Foundation
import Testing

/// The tests' shared temporary folder (test support): every test's files go into one folder of the
/// test process, so that nothing is left in the system's temporary folder when it ends.
@Suite("Temporary files of the tests")
struct TemporaryFilesTests {
    @Test("a temporary name keeps its extension, is new each time and lies in the process's folder")
    func namesAreUniqueAndInTheProcessFolder() {
        let a = TemporaryFiles.url("junit.xml")
        let b = TemporaryFiles.url("junit.xml")
        #expect(a != b)
        #expect(a.pathExtension == "xml")
        #expect(a.lastPathComponent.hasPrefix("junit-"))
        #expect(a.deletingLastPathComponent().path == TemporaryFiles.root.path)
        #expect(TemporaryFiles.root.lastPathComponent == "fieldtest-tests-\(getpid())")
        #expect(TemporaryFiles.url("cli").pathExtension.isEmpty)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: TemporaryFiles.root.path, isDirectory: &isFolder))
        #expect(isFolder.boolValue)
    }

    @Test("the folders of ended test processes are removed; a running process's folder and other files stay")
    func foldersOfEndedProcessesGo() throws {
        let system = TemporaryFiles.url("system")
        let ended = system.appendingPathComponent("fieldtest-tests-2000000000")  // beyond any pid_max
        let own = system.appendingPathComponent("fieldtest-tests-\(getpid())")
        let other = system.appendingPathComponent("fieldtest-tests-notes")
        for folder in [ended, own, other] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        TemporaryFiles.removeFoldersOfEndedProcesses(in: system)
        #expect(!FileManager.default.fileExists(atPath: ended.path))
        #expect(FileManager.default.fileExists(atPath: own.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }
}
