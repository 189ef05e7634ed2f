import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// `CSVChunkReader`: a file read a run of records at a time gives the records, lines and errors of
/// the whole file read at once, wherever the runs are cut.
@Suite("CSV chunk reader")
struct CSVChunkReaderTests {
    static func file(_ text: String) throws -> URL {
        let url = TemporaryFiles.url("chunks.csv")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Every record with its line, read in runs of `chunk` bytes.
    static func chunked(_ url: URL, chunk: Int) throws -> (header: [String], records: [CSVRecord], runs: Int) {
        var header: [String] = []
        var records: [CSVRecord] = []
        var runs = 0
        try CSVChunkReader(fileName: "f.csv", chunkBytes: chunk).forEachTable(path: url.path) { table in
            header = table.header.names
            records += table.records
            runs += 1
        }
        return (header, records, runs)
    }

    static let tricky = [
        "id,text\n1,plain\n2,\"quoted, with comma\"\n3,\"two\nlines\"\n\n4,\"a \"\"quote\"\"\"\n5,x\"y\n",
        "\u{FEFF}id,text\r\n1,crlf\r\n2,\"multi\r\nline\"\r\n3,last",
        "\n\nid,text\n1,a\r2,lone cr\n3,\"\"\n",
        "id,text\n",
        "id,text",
    ]

    @Test(arguments: tricky.indices, [1, 2, 3, 5, 8, 64, 1 << 20])
    func runsGiveTheWholeFilesRecordsAndLines(index: Int, chunk: Int) throws {
        let text = Self.tricky[index]
        let url = try Self.file(text)
        defer { try? FileManager.default.removeItem(at: url) }
        let whole = try CSVTable(bytes: Array(text.utf8), file: "f.csv")
        let read = try Self.chunked(url, chunk: chunk)
        #expect(read.header == whole.header.names)
        #expect(read.records == whole.records)
    }

    @Test func aLargeFileIsReadInManyRunsOfBoundedSize() throws {
        var text = "id,value\n"
        for i in 0..<20_000 { text += "\(i),\"v\(i)\nsecond line\"\n" }
        let url = try Self.file(text)
        defer { try? FileManager.default.removeItem(at: url) }
        var largest = 0
        var runs = 0
        try CSVChunkReader(fileName: "f.csv", chunkBytes: 4096).forEachRun(path: url.path) { run in
            largest = max(largest, run.bytes.count)
            runs += 1
        }
        #expect(runs > 100)
        #expect(largest < 2 * 4096)  // a run, plus at most one read block
        let read = try Self.chunked(url, chunk: 4096)
        #expect(read.records.count == 20_000)
        #expect(read.records.last == CSVRecord(line: 40_000, fields: ["19999", "v19999\nsecond line"]))
    }

    /// Runs are read ahead on another thread: a handler that throws must stop it, every time.
    @Test func aHandlerThatThrowsStopsTheReadingAhead() throws {
        var text = "id,value\n"
        for i in 0..<20_000 { text += "\(i),x\n" }
        let url = try Self.file(text)
        defer { try? FileManager.default.removeItem(at: url) }
        struct Stop: Error {}
        for stopAt in [1, 2, 3, 5, 50] {
            var seen = 0
            #expect(throws: Stop.self) {
                try CSVChunkReader(fileName: "f.csv", chunkBytes: 1024).forEachRun(path: url.path) { _ in
                    seen += 1
                    if seen == stopAt { throw Stop() }
                }
            }
            #expect(seen == stopAt)
        }
    }

    @Test func anErrorInALaterRunIsReportedAtItsLineInTheFile() throws {
        var text = "id,text\n"
        for i in 0..<500 { text += "\(i),ok\n" }
        text += "500,\"bad\"x\n"
        let url = try Self.file(text)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try Self.chunked(url, chunk: 100)
        } throws: { error in
            guard case .invalidField(_, let line, let field, _, _) = error as? DataError else { return false }
            return line == 502 && field == "text"
        }
    }

    @Test func anEmptyFileHasNoHeaderAndAnEndlessLineHitsTheLimit() throws {
        let empty = try Self.file("")
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: DataError.empty(file: "f.csv")) { try Self.chunked(empty, chunk: 16) }
        // /dev/zero has no line end: the run grows to the limit, then stops with the limit's error.
        #expect {
            try CSVChunkReader(fileName: "/dev/zero", chunkBytes: 1024, limit: 1 << 20).forEachRun(path: "/dev/zero") {
                _ in
            }
        } throws: { error in
            "\(error)".contains("larger than 1048576 bytes")
        }
    }

    @Test func aStreamedWriteReplacesItsTargetOnlyOnCommit() throws {
        let dir = TemporaryFiles.url("writer")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.csv")
        try "old\n".write(to: target, atomically: true, encoding: .utf8)
        let writer = try AtomicFile.Writer(url: target)
        try writer.append(Array("new ".utf8))
        #expect(try String(contentsOf: target, encoding: .utf8) == "old\n")
        try writer.append(Array("rows\n".utf8))
        try writer.commit()
        #expect(try String(contentsOf: target, encoding: .utf8) == "new rows\n")
        // Dropped without commit (an error): the target stays, no temporary file is left.
        do {
            let abandoned = try AtomicFile.Writer(url: target)
            try abandoned.append(Array("half".utf8))
        }
        #expect(try String(contentsOf: target, encoding: .utf8) == "new rows\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.csv"])
    }
}
