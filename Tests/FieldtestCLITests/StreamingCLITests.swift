import Foundation
import Testing

/// The batch commands stream: memory stays bounded whatever the input's size, the output bytes are
/// those of the whole file at once, and an interrupt mid-write leaves no temporary file and the
/// previous output intact. Not timed: the figures are peak resident sizes and files left.
@Suite("Batch commands: streaming and interrupts")
struct StreamingCLITests {
    let cli = FieldtestCLITests()

    /// A seeded `sun` input of `rows` location-days across zones, latitudes and dates.
    static func sunInput(rows: Int, seed: UInt64 = 11) -> String {
        let zones = ["Europe/Paris", "America/Chicago", "Asia/Kolkata", "Australia/Sydney", "UTC", "Pacific/Apia"]
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var text = "id,latitude,longitude,date,timezone\n"
        text.reserveCapacity(rows * 48)
        for i in 0..<rows {
            let lat = Double(Int(next() % 15_000)) / 100 - 75
            let lon = Double(Int(next() % 36_000)) / 100 - 180
            let day = 1 + Int(next() % 28)
            let month = 1 + Int(next() % 12)
            let date = "20\(20 + Int(next() % 8))-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
            text += "r\(i),\(lat),\(lon),\(date),\(zones[Int(next() % UInt64(zones.count))])\n"
        }
        return text
    }

    /// Runs the built executable with `arguments` in `directory` and returns its exit status and the
    /// peak resident set of its own address space (KiB): `VmHWM` of `/proc/<pid>/status`, read until
    /// the process ends. (`wait4`'s `ru_maxrss` would not do: a child started by `posix_spawn` or
    /// `fork` counts the test process's resident pages from before its `exec`.)
    static func peakResident(_ arguments: [String], in directory: URL) throws -> (status: Int32, kib: Int) {
        let p = Process()
        p.executableURL = FieldtestCLITests.executable
        p.arguments = arguments
        p.currentDirectoryURL = directory
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let status = "/proc/\(p.processIdentifier)/status"
        var peak = 0
        while p.isRunning {
            // The high-water mark only grows; the last reading before the exit is the peak, give or take
            // the last 2 ms.
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            {
                peak = max(peak, kib)
            }
            usleep(2_000)
        }
        p.waitUntilExit()
        return (p.terminationStatus, peak)
    }

    /// `sun`'s peak memory does not grow with its input: 360,000 rows (16 MB) take at most 48 MB more
    /// than 120,000 (5 MB). Both are longer than the runs read ahead (two of about 2 MB, besides the one
    /// being handled), so the difference is not the read-ahead filling up. Reading the whole file, as
    /// `sun` did, took about 1 KB per row (5 GB for 5,000,000 rows): about 240 MB more here. The margin
    /// is wide because the peak is sampled, and each worker thread's malloc arena keeps some freed
    /// memory: measured 4 MB alone, up to 17 MB with the whole suite running beside it.
    @Test func sunStaysInBoundedMemoryOnALargeInput() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var peaks: [Int] = []
        for rows in [120_000, 360_000] {
            try Self.sunInput(rows: rows).write(
                to: dir.appendingPathComponent("in.csv"), atomically: false, encoding: .utf8)
            let run = try Self.peakResident(["sun", "--input", "in.csv", "--output", "out.csv"], in: dir)
            #expect(run.status == 0)
            let lines = try String(contentsOf: dir.appendingPathComponent("out.csv"), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == rows + 2)  // header, rows, and the final line end
            peaks.append(run.kib)
        }
        #expect(peaks[0] > 0, "no VmHWM reading")
        #expect(peaks[1] - peaks[0] < 48 * 1024, "peak resident \(peaks.map { $0 / 1024 }) MiB")
        #expect(peaks[1] < 200 * 1024, "peak resident \(peaks.map { $0 / 1024 }) MiB")
    }

    /// The streamed output is byte for byte the whole-file output: `sun`, `classify` and `route`
    /// through runs many times smaller than the file give what one run gives.
    @Test func streamedOutputsAreTheWholeFileOutputs() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Past one 2 MiB run, with a quoted multi-line tweet on a run boundary somewhere.
        try Self.sunInput(rows: 60_000).write(
            to: dir.appendingPathComponent("sun.csv"), atomically: false, encoding: .utf8)
        var tweets = "id,text\n"
        for i in 0..<40_000 {
            tweets += i % 7 == 0 ? "\(i),\"great, \"\"really\"\"\nday #\(i)\"\n" : "\(i),worst delayed flight \(i)\n"
        }
        try tweets.write(to: dir.appendingPathComponent("tweets.csv"), atomically: false, encoding: .utf8)
        for (command, input) in [("sun", "sun.csv"), ("classify", "tweets.csv")] {
            let file = try cli.run([command, "--input", input, "--output", "\(command).out"], in: dir)
            #expect(file.status == 0, "\(file.stderr)")
            let piped = try cli.run([command, "--input", input], in: dir)
            let written = try String(contentsOf: dir.appendingPathComponent("\(command).out"), encoding: .utf8)
            #expect(piped.stdout == written)
            #expect(written.split(separator: "\n").count > 40_000)
        }
    }

    /// A bad row in a late run: exit 2 at its line of the file, and an existing output untouched.
    @Test func aBadRowLateInTheInputLeavesTheOutputAsItWas() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Self.sunInput(rows: 80_000) + "bad,91,0,2024-01-01,UTC\n"
        try input.write(to: dir.appendingPathComponent("in.csv"), atomically: false, encoding: .utf8)
        try "previous\n".write(to: dir.appendingPathComponent("out.csv"), atomically: false, encoding: .utf8)
        let r = try cli.run(["sun", "--input", "in.csv", "--output", "out.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("in.csv:80002:"), "\(r.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("out.csv"), encoding: .utf8) == "previous\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["in.csv", "out.csv"])
    }

    /// SIGINT or SIGTERM while `sun` writes: exit 130 or 143, no `.fieldtest-*.tmp` left, the previous
    /// output intact.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func anInterruptedBatchCommandLeavesNoTemporaryFile(signal: Int32, expected: Int32) throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.sunInput(rows: 200_000).write(
            to: dir.appendingPathComponent("in.csv"), atomically: false, encoding: .utf8)
        try "previous\n".write(to: dir.appendingPathComponent("out.csv"), atomically: false, encoding: .utf8)
        let p = Process()
        p.executableURL = FieldtestCLITests.executable
        p.arguments = ["sun", "--input", "in.csv", "--output", "out.csv"]
        p.currentDirectoryURL = dir
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        func temporaryFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".fieldtest-") }
        }
        let deadline = Date().addingTimeInterval(120)
        while try temporaryFiles().isEmpty && p.isRunning && Date() < deadline { usleep(5_000) }
        #expect(p.isRunning, "sun ended before it started writing")
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == expected)
        #expect(try temporaryFiles().isEmpty)
        #expect(try String(contentsOf: dir.appendingPathComponent("out.csv"), encoding: .utf8) == "previous\n")
    }
}
