import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// The output guard's parts: streams, special files, locks and the declared files of a command.
@Suite("output guard")
struct OutputGuardTests {
    func folder() throws -> URL {
        let dir = TemporaryFiles.url("guard")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("N9: stream paths name their descriptor, directly or through a link")
    func n9StreamPathsNameTheirDescriptor() throws {
        #expect(StreamPath.descriptor("-") == 1)
        #expect(StreamPath.descriptor("/dev/stdout") == 1)
        #expect(StreamPath.descriptor("/dev/stderr") == 2)
        #expect(StreamPath.descriptor("/dev/stdin") == 0)
        #expect(StreamPath.descriptor("/proc/self/fd/7") == 7)
        #expect(StreamPath.descriptor("/dev/fd/3") == 3)
        #expect(StreamPath.descriptor("/dev/null") == nil)
        #expect(StreamPath.descriptor("out.csv") == nil)
        let dir = try folder()
        let link = dir.appendingPathComponent("out.csv")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/dev/stderr")
        #expect(StreamPath.descriptor(link.path) == 2)
    }

    @Test("N9: /dev/stdin is refused as an output, two outputs to one stream collide")
    func n9StandardInputIsNoOutput() throws {
        #expect(throws: OutputPathCheck.UnusableOutput.self) {
            try OutputPathCheck.refuse(
                outputs: [.init(option: "--output", url: URL(fileURLWithPath: "/dev/stdin"))], inputs: [])
        }
        #expect(throws: OutputPathCheck.OutputsCollide.self) {
            try OutputPathCheck.refuse(
                outputs: [
                    .init(option: "--junit", url: URL(fileURLWithPath: "-")),
                    .init(option: "--report", url: URL(fileURLWithPath: "/dev/stdout")),
                ], inputs: [])
        }
    }

    @Test("N23: a FIFO is refused as an output and as a required regular file, without opening it")
    func n23FIFOIsRefused() throws {
        let dir = try folder()
        let fifo = dir.appendingPathComponent("f")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(SpecialFile.kind(fifo.path) == "a FIFO (named pipe)")
        #expect(SpecialFile.kind("/dev/null") == "a character device")
        #expect(throws: DataError.self) { try SpecialFile.requireRegular(fifo, displayName: "f", role: "a dataset") }
        #expect(throws: OutputPathCheck.UnusableOutput.self) {
            try OutputPathCheck.refuse(outputs: [.init(option: "--output", url: fifo)], inputs: [])
        }
        #expect(throws: DataError.self) { try AtomicFile.write(Data([1]), to: fifo) }
        try OutputPathCheck.refuse(
            outputs: [.init(option: "--output", url: URL(fileURLWithPath: "/dev/null"))], inputs: [])
    }

    @Test("N10: a held lock refuses a second holder at once, naming the pid")
    func n10LockRefusesSecondHolder() throws {
        let file = try folder().appendingPathComponent(".fieldtest.lock")
        let first = try FileLock(file, what: "a run", wait: false)
        #expect(!FileLock.isFree(file))
        do {
            _ = try FileLock(file, what: "a run", wait: false)
            Issue.record("the second lock was granted")
        } catch let busy as FileLock.Busy {
            #expect(busy.pid == getpid())
            #expect(busy.description.contains("already in progress"))
        }
        first.release()
        #expect(FileLock.isFree(file))
    }

    @Test("D1: every datasets folder's MANIFEST.csv and listed files are declared inputs")
    func d1DatasetsFoldersAreInputs() throws {
        let dir = try folder()
        try "name,file,format,core,rows,sha256,license,origin\n".write(
            to: dir.appendingPathComponent("MANIFEST.csv"), atomically: true, encoding: .utf8)
        let manifest = try DatasetManifest(root: dir)
        var files = CommandFiles()
        files.datasets(manifest)
        files.output(dir.appendingPathComponent("MANIFEST.csv").path, option: "--output")
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try files.check() }
    }

    @Test("N8: every existing file a system command names is an input")
    func n8SystemCommandFilesAreInputs() throws {
        let dir = try folder()
        let script = dir.appendingPathComponent("ok.py")
        let model = dir.appendingPathComponent("model.bin")
        for file in [script, model] { try Data([1]).write(to: file) }
        var files = CommandFiles()
        files.systemCommand(["python3", script.path, "--model=\(model.path)", "missing.txt"], option: "--system")
        #expect(Set(files.inputs.map(\.url.path)) == [script.path, model.path])
        files.output(model.path, option: "--output")
        #expect(throws: OutputPathCheck.OverwritesInput.self) { try files.check() }
    }

    @Test("N24: dataset names . and .. are refused")
    func n24DotNamesAreRefused() {
        #expect(!DatasetRegistration.isValidName("."))
        #expect(!DatasetRegistration.isValidName(".."))
        #expect(!DatasetRegistration.isValidName("a/b"))
        #expect(!DatasetRegistration.isValidName(""))
        #expect(DatasetRegistration.isValidName("a.b"))
    }
}
