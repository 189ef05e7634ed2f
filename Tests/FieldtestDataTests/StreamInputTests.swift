import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// Inputs that are not regular files (a FIFO, as a shell's `<(command)` gives) are read by streaming.
@Suite("reading FIFO inputs")
struct StreamInputTests {
    @Test("a FIFO's bytes are read to its end, larger than one read chunk")
    func fifoIsReadToTheEnd() throws {
        let dir = TemporaryFiles.url("fifo")
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
        let dir = TemporaryFiles.url("fifo")
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

/// Endless or oversized inputs stop at a limit with an error that names the file, before the bytes are held.
@Suite("input size limits")
struct InputLimitTests {
    @Test("an endless device stops at the limit with an error, not an exhausted memory")
    func endlessDevice() {
        #expect {
            _ = try readFileBytes(URL(fileURLWithPath: "/dev/zero"), displayName: "/dev/zero", limit: 1 << 20)
        } throws: { error in
            "\(error)".hasPrefix("/dev/zero:") && "\(error)".contains("larger than 1048576 bytes")
        }
    }

    @Test("a regular file over the limit is refused by its size, before it is read")
    func largeFile() throws {
        let url = TemporaryFiles.url("big.csv")
        try Data(repeating: 0x41, count: 4096).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: DataError.self) { _ = try readFileBytes(url, displayName: "big.csv", limit: 4095) }
        #expect(try readFileBytes(url, displayName: "big.csv", limit: 4096).count == 4096)
    }

    @Test(
        "sizes are read as bytes or with K, M and G suffixes",
        arguments: [
            ("512", 512), ("8K", 8192), ("3m", 3 << 20), ("2G", 2 << 30), ("0", nil), ("-1", nil), ("lots", nil),
        ] as [(String, Int?)])
    func sizes(_ text: String, _ bytes: Int?) {
        #expect(InputLimits.parseSize(text) == bytes)
    }

    @Test("a record holds memory for its own fields only, not the widest record's")
    func recordsAreSizedToThemselves() throws {
        // A 68-column header, then a million bare carriage returns: each an empty record.
        let header = (1...68).map { "c\($0)" }.joined(separator: ",") + "\n"
        var bytes = Array(header.utf8)
        bytes += Array(repeating: 0x0D, count: 1_000_000)
        var capacity = 0
        try CSVReader(fileName: "cr.csv").forEachRecord(bytes) { record in
            if record.line > 1 { capacity = max(capacity, record.fields.capacity) }
        }
        #expect(capacity < 8, "an empty record kept room for \(capacity) fields")
    }
}
