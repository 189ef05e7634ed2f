import Foundation
import Testing

@testable import FieldtestData

/// Inputs that are not regular files (a FIFO, as a shell's `<(command)` gives) are read by streaming.
@Suite("reading FIFO inputs")
struct StreamInputTests {
    @Test("a FIFO's bytes are read to its end, larger than one read chunk")
    func fifoIsReadToTheEnd() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in.csv")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let text =
            "id,latitude,longitude,date,timezone\n"
            + (0..<5000).map { "p\($0),48.85,2.35,2024-06-21,Europe/Paris\n" }.joined()
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            handle.write(Data(text.utf8))
            try? handle.close()
        }
        writer.start()
        let bytes = try readFileBytes(fifo, displayName: "in.csv")
        #expect(bytes == Array(text.utf8))
        #expect(bytes.count > 1 << 16)
    }

    @Test("an unreadable FIFO names the file and the system's reason")
    func unreadableFifoNamesTheReason() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in.csv")
        try #require(mkfifo(fifo.path, 0o200) == 0)
        guard getuid() != 0 else { return }  // root may open any file
        #expect(throws: DataError.unreadable(file: "in.csv", reason: "Permission denied")) {
            _ = try readFileBytes(fifo, displayName: "in.csv")
        }
    }
}
