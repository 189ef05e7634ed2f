import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

@Suite("RFC 4180 reader")
struct CSVReaderTests {
    func read(_ text: String) throws(DataError) -> [CSVRecord] {
        try CSVReader(fileName: "t.csv").records(Array(text.utf8))
    }

    @Test func quotedFieldsSeparatorsAndLineBreaks() throws {
        let recs = try read("a,b,c\r\n1,\"x, y\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",3\n\n4,,\n")
        #expect(
            recs.map(\.fields) == [
                ["a", "b", "c"], ["1", "x, y", "say \"hi\""], ["2", "two\nlines", "3"], ["4", "", ""],
            ])
        // Line numbers are where each record starts; the blank line 5 is skipped.
        #expect(recs.map(\.line) == [1, 2, 3, 6])
    }

    @Test func quotesOutsideAQuotedStartAreOrdinaryBytes() throws {
        let recs = try read("ab\"c,\"\"\"x\"\"\",\"\"\"\"\n")
        #expect(recs.map(\.fields) == [["ab\"c", "\"x\"", "\""]])
    }

    @Test func textAfterAClosingQuoteIsALocatedError() {
        // RFC 4180: "a"b is not a field; it used to be read as ab.
        #expect(
            throws: DataError.invalidField(
                file: "t.csv", line: 2, field: "#2", value: "\"a\"b",
                reason:
                    "text after the closing quote; quote the whole field and double any quote inside it (\"a\"\"b\" for a\"b)"
            )
        ) {
            try read("id,text\n1,\"a\"b,c\n")
        }
        // The line is where the text after the quote is, also when the quoted part spans lines.
        #expect(
            throws: DataError.invalidField(
                file: "t.csv", line: 3, field: "#1", value: "\"x\ny\" z",
                reason:
                    "text after the closing quote; quote the whole field and double any quote inside it (\"a\"\"b\" for a\"b)"
            )
        ) {
            try read("h\n\"x\ny\" z\n")
        }
        // A quote closed right before a separator, a line end or the end of the file stays valid.
        #expect((try? read("\"a\",\"b\"\r\n\"c\"")).map { $0.map(\.fields) } == [["a", "b"], ["c"]])
    }

    /// The RFC 4180 reading the reader implements, one byte at a time (the reference for the runs it copies whole).
    static func referenceRecords(_ bytes: [UInt8]) -> [[String]]? {
        var out: [[String]] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var i = 0
        var atStart = true
        func finish() {
            fields.append(String(decoding: field, as: UTF8.self))
            field = []
        }
        while i < bytes.count {
            if atStart {
                atStart = false
                if bytes[i] == 0x0A {
                    i += 1
                    atStart = true
                    continue
                }
                if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
                    i += 2
                    atStart = true
                    continue
                }
            }
            let b = bytes[i]
            if b == 0x22 && field.isEmpty {
                i += 1
                var closed = false
                while i < bytes.count {
                    if bytes[i] == 0x22 {
                        if i + 1 < bytes.count && bytes[i + 1] == 0x22 {
                            field.append(0x22)
                            i += 2
                            continue
                        }
                        i += 1
                        closed = true
                        break
                    }
                    field.append(bytes[i])
                    i += 1
                }
                if !closed { return nil }
                if i < bytes.count, ![0x2C, 0x0A, 0x0D].contains(bytes[i]) { return nil }
                continue
            }
            if b == 0x2C {
                finish()
                i += 1
                continue
            }
            if b == 0x0A || b == 0x0D {
                finish()
                out.append(fields)
                fields = []
                if b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                i += 1
                atStart = true
                continue
            }
            field.append(b)
            i += 1
        }
        if !atStart {
            finish()
            out.append(fields)
        }
        return out
    }

    @Test func agreesWithAByteByByteReadingOnRandomText() {
        let alphabet: [[UInt8]] = [[0x61], [0x62], [0x2C], [0x22], [0x0A], [0x0D], Array("é".utf8), [0x20]]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            for _ in 0..<Int(state % 40) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                bytes += alphabet[Int(state % UInt64(alphabet.count))]
            }
            let expected = Self.referenceRecords(bytes)
            let got = try? CSVReader(fileName: "t.csv").records(bytes).map(\.fields)
            #expect(got == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test func lastLineWithoutNewlineAndBOM() throws {
        let recs = try read("\u{FEFF}id,text\n1,ok")
        #expect(recs.map(\.fields) == [["id", "text"], ["1", "ok"]])
    }

    @Test func invalidUTF8IsLocated() {
        var bytes = Array("id,text\n1,fine\n2,".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\n".utf8)
        #expect(throws: DataError.invalidUTF8(file: "t.csv", line: 3, field: "#2")) {
            try CSVReader(fileName: "t.csv").records(bytes)
        }
    }

    @Test func utf8IsValidatedWhetherASCIIOrNot() {
        #expect(validatedUTF8(Array("plain, ascii\u{0}".utf8)) == "plain, ascii\u{0}")
        #expect(validatedUTF8(Array("café 日本 😀".utf8)) == "café 日本 😀")
        #expect(validatedUTF8([UInt8]()) == "")
        for bad: [UInt8] in [[0x80], [0x61, 0xC0, 0x80], [0xE2, 0x82], [0x61, 0xFF, 0x62], [0xED, 0xA0, 0x80]] {
            #expect(validatedUTF8(bad) == nil, "\(bad)")
            #expect(validatedUTF8(bad[...]) == nil, "\(bad)")
        }
    }

    @Test func unterminatedQuote() {
        #expect(throws: DataError.unterminatedQuote(file: "t.csv", line: 2)) { try read("a,b\n1,\"open\n") }
    }

    @Test func tabSeparatedWithoutQuoting() throws {
        let recs = try CSVReader(fileName: "t.tsv", separator: "\t", quoting: false).records(
            Array("\"quoted\"\t1.5\n".utf8))
        #expect(recs.first?.fields == ["\"quoted\"", "1.5"])
    }
}

@Suite("Typed rows")
struct CSVTableTests {
    let text = "id,latitude,longitude,count\nA,1.5,103.8,3\nB,95.0,10,1\nC,nan,10,1\nD,1,2\nE,1,2,x\n"

    @Test func strictStopsAtTheFirstBadRowWithLocation() {
        #expect(
            throws: DataError.invalidField(
                file: "p.csv", line: 3, field: "latitude", value: "95.0", reason: "outside -90…90")
        ) {
            let t = try CSVTable(bytes: Array(text.utf8), file: "p.csv")
            _ = try t.load(policy: .strict) { (r: CSVRow) throws(DataError) -> String? in
                _ = try r.latitude()
                _ = try r.longitude()
                _ = try r.int("count")
                return try r.string("id")
            }
        }
    }

    @Test func lenientSkipsAndCountsEveryKindOfBadRow() throws {
        let t = try CSVTable(bytes: Array(text.utf8), file: "p.csv")
        let loaded = try t.load(policy: .lenient) { (r: CSVRow) throws(DataError) -> String? in
            _ = try r.latitude()
            _ = try r.longitude()
            _ = try r.int("count")
            return try r.string("id")
        }
        #expect(loaded.records == ["A"])
        #expect(loaded.report.rowsLoaded == 1)
        #expect(loaded.report.rowsSkipped == 4)
        #expect(
            loaded.report.issues.map(\.description) == [
                "p.csv:3: error: field 'latitude': outside -90…90 (value '95.0')",
                "p.csv:4: error: field 'latitude': not a finite number (value 'nan')",
                "p.csv:5: error: expected 4 fields, found 3; check quoting and separators",
                "p.csv:6: error: field 'count': not an integer (value 'x')",
            ])
    }

    @Test func missingColumnIsFatalEvenWhenLenient() throws {
        let t = try CSVTable(bytes: Array("id,lat\nA,1\n".utf8), file: "p.csv")
        #expect(throws: DataError.missingColumn(file: "p.csv", column: "latitude")) {
            _ = try t.load(policy: .lenient) { (r: CSVRow) throws(DataError) -> Double? in try r.latitude() }
        }
    }

    @Test func emptyFile() {
        #expect(throws: DataError.empty(file: "e.csv")) { try CSVTable(bytes: [], file: "e.csv") }
    }
}

@Suite("Writing")
struct WritingTests {
    @Test func csvWriterQuotesOnlyWhenNeeded() {
        var w = CSVWriter()
        w.row(["plain", "a,b", "q\"uote", "line\nbreak", ""])
        #expect(w.text == "plain,\"a,b\",\"q\"\"uote\",\"line\nbreak\",\n")
    }

    @Test func fieldByFieldRecordsEqualRows() {
        var a = CSVWriter()
        var b = CSVWriter(capacity: 64)
        a.row(["id", "a,b", "", "q\"x"])
        a.row(["2", "time"])
        for f in ["id", "a,b", "", "q\"x"] { b.field(f) }
        b.endRecord()
        b.field("2")
        b.field(unquotedBytes: { $0.append(contentsOf: "time".utf8) })
        b.endRecord()
        #expect(a.text == b.text)
        #expect(b.text == "id,\"a,b\",,\"q\"\"x\"\n2,time\n")
    }

    @Test func appendedRecordsEqualRecordsWrittenInPlace() {
        var whole = CSVWriter()
        var head = CSVWriter()
        var tail = CSVWriter()
        for (k, row) in [["id", "text"], ["1", "a,b"], ["2", "q\"x"], ["3", ""]].enumerated() {
            whole.row(row)
            if k < 2 { head.row(row) } else { tail.row(row) }
        }
        head.append(records: tail)
        head.append(records: CSVWriter())
        #expect(head.text == whole.text)
        #expect(head.text == "id,text\n1,\"a,b\"\n2,\"q\"\"x\"\n3,\n")
    }

    @Test func isoTimesAppendedAsBytesEqualTheStrings() {
        // Both sides of the epoch, leap days, the ends of years 0 and 9999 and beyond (the string fallback).
        var seconds: [Int] = [
            0, -1, 1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_399, -62_167_219_200,
            253_402_300_799, 253_402_300_800, -62_167_219_201,
        ]
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Int(truncatingIfNeeded: state >> 20) % 400_000_000_000 - 100_000_000_000)
        }
        for t in seconds {
            var bytes = Array("x,".utf8)
            CivilTime.appendISOUTC(t, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "x," + CivilTime.isoUTC(t), "\(t)")
        }
    }

    @Test func numbersAreLocaleFreeAndShort() {
        #expect(CSVWriter.number(3) == "3")
        #expect(CSVWriter.number(-0.25) == "-0.25")
        #expect(CSVWriter.number(1.0 / 3.0) == "0.3333333333")
        #expect(CSVWriter.number(.nan) == "nan")
        #expect(CSVWriter.number(1e-12) == "1e-12")
    }

    @Test("numbers built from the shortest digits are the text printf's %g gives", arguments: 1...17)
    func numbersAreWhatPrintfWrites(digits: Int) {
        var rng = SeededGenerator(seed: UInt64(digits))
        var values: [Double] = [
            0.0001, 0.00012345678901234, 0.5, 2.5, 0.125, 99.999999999999, 9.9999999999995, 0.30000000000000004,
            1.0000000000005, 123456.78901234567, 1e11 - 0.5, 1e14 + 0.5, 0.1234567890125, 0.01234567890125,
        ]
        for _ in 0..<6_000 {
            let exponent = Double.random(in: -5...16, using: &rng)
            let v = pow(10, exponent) * (Bool.random(using: &rng) ? 1 : -1)
            values.append(v)
            // Short decimals and their ties at this many digits, nudged by an ulp either way.
            let short = (v * pow(10, Double(digits))).rounded() / pow(10, Double(digits))
            values += [short, short.nextUp, short.nextDown]
            let tie = Double(
                "\(Int.random(in: 1...9, using: &rng))." + String(repeating: "3", count: max(0, digits - 1)) + "5")!
            values += [tie, tie.nextUp, tie.nextDown, tie / 1000, -tie * 1000]
        }
        var fast = 0
        for v in values where v.isFinite && v != v.rounded() {
            #expect(
                CSVWriter.number(v, significantDigits: digits) == CSVWriter.printfNumber(v, significantDigits: digits),
                "\(v) to \(digits) digits")
            if CSVWriter.roundedShortest(v, significantDigits: digits) != nil { fast += 1 }
        }
        // Most values of ordinary size take the fast path (too large or small ones, ties and 16–17 digits do not).
        if (8...15).contains(digits) { #expect(fast > values.count / 4) }
        if digits <= 15 { #expect(fast > 0) }
    }

    @Test func fixedDecimalsAreWhatPrintfWrites() {
        #expect(CSVWriter.fixed(0.84433, decimals: 4) == "0.8443")
        #expect(CSVWriter.fixed(-0.00001, decimals: 4) == "-0.0000")
        #expect(CSVWriter.fixed(-0.0, decimals: 4) == "-0.0000")
        #expect(CSVWriter.fixed(1, decimals: 0) == "1")
        #expect(CSVWriter.fixed(-1, decimals: 4) == "-1.0000")
        #expect(CSVWriter.fixed(0.99996, decimals: 4) == "1.0000")
        // Ties and values the product cannot decide go to the formatter: same text either way.
        let special: [Double] = [
            0.5, 1.5, 2.5, 0.125, 0.00005, 0.00015, -0.00025, 0.12345, 1e9, 1e12, 123456.789, .nan, .infinity,
            -.infinity,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1 + 0.2, 1.0 / 3.0, -2.0 / 3.0,
        ]
        for v in special {
            for d in [0, 1, 2, 3, 4, 6, 9, 12] {
                #expect(CSVWriter.fixed(v, decimals: d) == String(format: "%.\(d)f", v), "\(v) with \(d) decimals")
            }
        }
        // Many values of every magnitude a score or a metric takes, against printf.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var mismatches: [String] = []
        for k in 0..<200_000 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let unit = Double(state >> 11) / Double(1 << 53)
            let v = (unit * 2 - 1) * [1.0, 1e3, 1e-3, 1e6][k % 4]
            let d = [4, 4, 3, 2, 0, 6][k % 6]
            if CSVWriter.fixed(v, decimals: d) != String(format: "%.\(d)f", v) { mismatches.append("\(v) %.\(d)f") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// A temporary file left by a killed write (its process gone) is removed by the next write
    /// into the folder; one of a live process is not.
    @Test func atomicWriteSweepsTemporaryFilesOfDeadProcesses() throws {
        let dir = TemporaryFiles.url("atomic")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = dir.appendingPathComponent(".fieldtest-4194305-0A1B2C3D.tmp")  // above Linux's pid_max
        let live = dir.appendingPathComponent(".fieldtest-\(getpid())-0A1B2C3D.tmp")
        for url in [dead, live] { try Data("partial".utf8).write(to: url) }
        try AtomicFile.write("done\n", to: dir.appendingPathComponent("out.csv"))
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
    }

    @Test func atomicWriteReplacesAndLeavesNoTemporaryFile() throws {
        let dir = TemporaryFiles.url("atomic")
        let url = dir.appendingPathComponent("out.csv")
        try AtomicFile.write("first\n", to: url)
        try AtomicFile.write("second\n", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "second\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.csv"])
        try? FileManager.default.removeItem(at: dir)
    }
}

@Suite("Manifest")
struct DatasetManifestTests {
    /// Messages name a dataset file where it really is: relative to the current directory when
    /// inside it, else by its full path (a `--datasets` folder elsewhere is not called `Datasets/`).
    @Test func filesAreNamedWhereTheyAre() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(
            DatasetManifest.display(URL(fileURLWithPath: cwd + "/Datasets/weather/x.csv")) == "Datasets/weather/x.csv")
        let elsewhere = URL(fileURLWithPath: "/nonexistent-copy/weather/x.csv")
        #expect(DatasetManifest.display(elsewhere) == "/nonexistent-copy/weather/x.csv")
    }

    func folder(_ manifest: String, files: [String: String]) throws -> URL {
        let dir = TemporaryFiles.url("manifest")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try manifest.write(to: dir.appendingPathComponent("MANIFEST.csv"), atomically: false, encoding: .utf8)
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: false, encoding: .utf8)
        }
        return dir
    }

    let header = "name,file,format,core,rows,sha256,license,origin\n"
    let mapping = "0\tnegative\n1\tneutral\n2\tpositive\n"

    @Test func verifyDetectsHashAndRowMismatches() throws {
        let actual = try DatasetManifest.sha256(
            of: try folder("", files: ["m.txt": mapping]).appendingPathComponent("m.txt"))
        let good = header + "map,m.txt,tweeteval-mapping,classification,3,\(actual),MIT,test\n"
        let dir = try folder(good, files: ["m.txt": mapping])
        let m = try DatasetManifest(root: dir)
        let checks = m.verify()
        #expect(checks.count == 1 && checks.allSatisfy { $0.passed })
        let badRows = try folder(
            header + "map,m.txt,tweeteval-mapping,classification,4,\(actual),MIT,test\n", files: ["m.txt": mapping])
        let check = try DatasetManifest(root: badRows).verify()[0]
        #expect(!check.passed)
        #expect(check.problem == "3 rows, manifest says 4")
        let badHash = try folder(
            header + "map,m.txt,tweeteval-mapping,classification,3,\(String(repeating: "0", count: 64)),MIT,test\n",
            files: ["m.txt": mapping])
        #expect(try DatasetManifest(root: badHash).verify()[0].problem.hasPrefix("sha256 \(actual) does not match"))
        let missing = try folder(
            header + "map,gone.txt,tweeteval-mapping,classification,3,\(actual),MIT,test\n", files: [:])
        #expect(try DatasetManifest(root: missing).verify()[0].error != nil)
    }

    /// A manifest's files stay inside its folder: a link elsewhere in the folder is fine, a link
    /// leading out of it is refused, and so is a FIFO (which `verify` once waited on for ever).
    @Test func verifyKeepsFilesInsideTheFolderAndRegular() throws {
        let actual = try DatasetManifest.sha256(
            of: try folder("", files: ["m.txt": mapping]).appendingPathComponent("m.txt"))
        let row = { (file: String) in "map,\(file),tweeteval-mapping,classification,3,\(actual),MIT,test\n" }
        let outside = try folder("", files: ["m.txt": mapping])
        let leaking = try folder(header + row("link.txt"), files: [:])
        try FileManager.default.createSymbolicLink(
            at: leaking.appendingPathComponent("link.txt"), withDestinationURL: outside.appendingPathComponent("m.txt"))
        let leak = try DatasetManifest(root: leaking).verify()[0]
        #expect(!leak.passed && "\(leak.problem)".contains("leads out of the datasets folder"), "\(leak.problem)")
        let inside = try folder(header + row("link.txt"), files: ["data/m.txt": mapping])
        try FileManager.default.createSymbolicLink(
            atPath: inside.appendingPathComponent("link.txt").path, withDestinationPath: "data/m.txt")
        #expect(try DatasetManifest(root: inside).verify()[0].passed)
        let piped = try folder(header + row("fifo.txt"), files: [:])
        #expect(mkfifo(piped.appendingPathComponent("fifo.txt").path, 0o600) == 0)
        let fifo = try DatasetManifest(root: piped).verify()[0]
        #expect(!fifo.passed && "\(fifo.problem)".contains("not a regular file"), "\(fifo.problem)")
    }

    @Test func manifestRowsAreValidated() throws {
        let dir = try folder(
            header + "x,../etc/passwd,json,scoring,1,\(String(repeating: "a", count: 64)),MIT,o\n", files: [:])
        #expect(throws: DataError.self) { try DatasetManifest(root: dir) }
        let unknown = try folder(
            header + "x,a.txt,parquet,scoring,1,\(String(repeating: "a", count: 64)),MIT,o\n", files: [:])
        do {
            _ = try DatasetManifest(root: unknown)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("MANIFEST.csv:2: error: field 'format': unknown format"))
        }
    }

    @Test func bundledManifestListsEveryFileInDatasets() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Datasets")
        let m = try DatasetManifest(root: root)
        #expect(m.entries.count >= 30)
        for e in m.entries {
            #expect(FileManager.default.fileExists(atPath: m.url(of: e).path), "\(e.file) is missing")
        }
    }
}
