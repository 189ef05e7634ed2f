import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// `AtomicFile.write` on the kinds of target a user may name with `--output`.
@Suite("Atomic file writes")
struct AtomicFileTests {
    func folder() throws -> URL {
        let dir = TemporaryFiles.url("atomic")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test func aSymbolicLinkIsWrittenThroughAndKept() throws {
        let dir = try folder()
        let target = dir.appendingPathComponent("target.csv")
        let link = dir.appendingPathComponent("link.csv")
        try "old\n".write(to: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.csv")
        try AtomicFile.write("new\n", to: link)
        #expect(fileType(link.path) == S_IFLNK)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new\n")
        // A link to a file that does not exist yet creates that file.
        let dangling = dir.appendingPathComponent("dangling.csv")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "later.csv")
        try AtomicFile.write("made\n", to: dangling)
        #expect(fileType(dangling.path) == S_IFLNK)
        #expect(try String(contentsOf: dir.appendingPathComponent("later.csv"), encoding: .utf8) == "made\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                "dangling.csv", "later.csv", "link.csv", "target.csv",
            ])
        try? FileManager.default.removeItem(at: dir)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
    func aDeviceIsWrittenToNotReplaced() throws {
        try AtomicFile.write("discarded\n", to: URL(fileURLWithPath: "/dev/null"))
        #expect(fileType("/dev/null") == S_IFCHR)
        // A device that refuses the bytes is an error, not a silent success.
        #expect(throws: DataError.self) { try AtomicFile.write("x", to: URL(fileURLWithPath: "/dev/full")) }
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    /// N23: a FIFO named by path is refused without being opened (opening it for writing would
    /// block until someone reads it); a pipe reached as a stream (`/dev/fd/N`) is written to.
    @Test func n23AFIFOByPathIsRefusedAPipeAsStreamIsWritten() throws {
        let dir = try folder()
        let fifo = dir.appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: DataError.self) { try AtomicFile.write("never\n", to: fifo) }
        #expect(fileType(fifo.path) == S_IFIFO)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        try AtomicFile.write("through the pipe\n", to: URL(fileURLWithPath: "/dev/fd/\(ends[1])"))
        close(ends[1])
        let received = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
        #expect(String(decoding: received, as: UTF8.self) == "through the pipe\n")
        try? FileManager.default.removeItem(at: dir)
    }

    final class Received: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    @Test func aDirectoryIsAnErrorAndStaysAsItWas() throws {
        let dir = try folder()
        try "keep\n".write(to: dir.appendingPathComponent("inside.txt"), atomically: false, encoding: .utf8)
        do {
            try AtomicFile.write("x", to: dir)
            Issue.record("writing over a directory must fail")
        } catch {
            #expect(error.description.contains("it is a directory"))
            #expect(error.description.hasPrefix(dir.path + ": error: cannot write file:"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["inside.txt"])
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func aReplacedFileKeepsItsPermissions() throws {
        let dir = try folder()
        let url = dir.appendingPathComponent("private.csv")
        try AtomicFile.write("first\n", to: url)
        #expect(chmod(url.path, 0o600) == 0)
        try AtomicFile.write("second\n", to: url)
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOf: url, encoding: .utf8) == "second\n")
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func aReplacedFileLeavesOnlyTheTargetAndItsOtherLinksKeepTheOldBytes() throws {
        let dir = try folder()
        let url = dir.appendingPathComponent("out.csv")
        let other = dir.appendingPathComponent("other-link.csv")
        try AtomicFile.write("old\n", to: url)
        #expect(link(url.path, other.path) == 0)
        let writer = try AtomicFile.Writer(url: url)
        try writer.append(Array("new\n".utf8))
        #expect(try String(contentsOf: url, encoding: .utf8) == "old\n")  // untouched until the commit
        try writer.commit()
        #expect(try String(contentsOf: url, encoding: .utf8) == "new\n")
        #expect(try String(contentsOf: other, encoding: .utf8) == "old\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["other-link.csv", "out.csv"])
        // Exchanging needs both files; a target removed meanwhile is created by a rename.
        #expect(AtomicFile.Writer.replace(dir.appendingPathComponent("missing.csv").path, with: other.path) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["missing.csv", "out.csv"])
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func aNameAtTheFileSystemsLimitIsWritten() throws {
        let dir = try folder()
        let url = dir.appendingPathComponent(String(repeating: "s", count: 250) + ".json")  // 255 bytes
        try AtomicFile.write("{}\n", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "{}\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [url.lastPathComponent])
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func aFolderThatCannotBeMadeIsAnError() throws {
        let dir = try folder()
        let file = dir.appendingPathComponent("plain")
        try "x".write(to: file, atomically: false, encoding: .utf8)
        #expect(throws: DataError.self) { try AtomicFile.write("y", to: file.appendingPathComponent("out.csv")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["plain"])
        try? FileManager.default.removeItem(at: dir)
    }
}
