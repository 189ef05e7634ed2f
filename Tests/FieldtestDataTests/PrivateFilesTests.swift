import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@Suite("Private files: databases only their owner can read")
struct PrivateFilesTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static func scratch() throws -> URL {
        let url = TemporaryFiles.url("private")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a folder is made 0700 and a database file 0600, whatever the umask")
    func modes() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("run")
        let previous = umask(0o022)
        defer { umask(previous) }
        try PrivateFiles.makeFolder(folder)
        #expect(try Self.mode(folder.path) == 0o700)
        let db = folder.appendingPathComponent("accounts.sqlite").path
        try PrivateFiles.prepareFile(atPath: db)
        #expect(try Self.mode(db) == 0o600)
        // An existing, more open file is tightened, its bytes kept.
        let open = folder.appendingPathComponent("old.sqlite").path
        #expect(
            FileManager.default.createFile(
                atPath: open, contents: Data([1, 2, 3]), attributes: [.posixPermissions: 0o644]))
        try PrivateFiles.prepareFile(atPath: open)
        #expect(try Self.mode(open) == 0o600)
        #expect(FileManager.default.contents(atPath: open) == Data([1, 2, 3]))
    }

    @Test("folders of dead processes are removed; those of live processes and other names stay")
    func staleFolders() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: root) }
        // Linux never hands out a pid above pid_max (at most 4,194,304), so this process is gone.
        let uuid = "12345678-ABCD-4EF0-8123-456789ABCDEF"
        let dead = root.appendingPathComponent("fieldtest-run-4194305-\(uuid)")
        let live = root.appendingPathComponent("fieldtest-run-\(getpid())-\(uuid)")
        let other = root.appendingPathComponent("fieldtest-run-notapid")
        // Another tool's folder whose name starts with digits is not taken for a dead run.
        let foreign = root.appendingPathComponent("fieldtest-run-4194305-cache")
        for url in [dead, live, other, foreign] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        let removed = PrivateFiles.removeStaleFolders(in: root, prefix: "fieldtest-run-")
        #expect(removed.map(\.lastPathComponent) == ["fieldtest-run-4194305-\(uuid)"])
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }
}
