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
}
