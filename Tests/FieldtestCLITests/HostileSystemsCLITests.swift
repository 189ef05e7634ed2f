import Foundation
import Testing

/// `evaluate --system` and `compare` against misbehaving systems and odd options, and the
/// system's end when the harness is interrupted or killed, through the built executable.
@Suite("Hostile systems on the command line")
struct HostileSystemsCLITests {
    let cli = FieldtestCLITests()
    static let toy = SystemsCLITests.toy

    func tweets(in dir: URL) throws {
        try "text,label\nI love this great day,positive\nworst delayed flight,negative\nat noon,neutral\n"
            .write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
    }

    @Test func evaluateExitsOneWithFaultRowsAndSaysWhereTheStandardErrorIs() throws {
        let dir = try cli.temporaryFolder()
        try tweets(in: dir)
        let r = try cli.run(
            [
                "evaluate", "sentiment", "--input", "t.csv", "--system", "python3 \(Self.toy) crash-after 0",
                "--output", "fig.csv", "--timeout", "5",
            ], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("faulted on 3 rows (3 crash"), "\(r.stderr)")
        #expect(r.stderr.contains("kept in fig.csv.stderr"), "\(r.stderr)")
        let csv = try String(contentsOf: dir.appendingPathComponent("fig.csv"), encoding: .utf8)
        #expect(csv.contains(",system_errors_crash,all,3,count,3\n"))
    }

    @Test func evaluateRefusesClassesWithASystemAndTimeoutsOutOfRange() throws {
        let dir = try cli.temporaryFolder()
        try tweets(in: dir)
        var r = try cli.run(
            ["evaluate", "sentiment", "--input", "t.csv", "--system", "builtin", "--classes", "negative,positive"],
            in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--classes applies to the built-in model only"), "\(r.stderr)")
        for timeout in ["0", "-1", "86401", "1e300"] {
            r = try cli.run(
                ["evaluate", "sentiment", "--input", "t.csv", "--system", "python3 x.py", "--timeout=\(timeout)"],
                in: dir)
            #expect(r.status == 2, "\(timeout)")
            #expect(r.stderr.contains("--timeout must be"), "\(r.stderr)")
        }
    }

    @Test func n26CompareRefusesOddNamesNoSystemsAndAnUnusedCapability() throws {
        let base = ["compare", "Scenarios/micity-rate-limit.yaml", "--capability"]
        let cases: [([String], String)] = [
            (base + ["sentiment"], "--candidate NAME=COMMAND"),
            (base + ["sentiment", "--system", "a=builtin"], "--system (CAPABILITY=COMMAND) is run's option"),
            (base + ["sentiment", "--candidate", "a=builtin", "--candidate", "a=builtin"], "given twice"),
            (base + ["sentiment", "--candidate", "=builtin"], "NAME is empty"),
            (base + ["sentiment", "--candidate", "\u{1b}[31mred=builtin"], "U+001B"),
            (
                base + ["sun", "--candidate", "a=builtin", "--candidate", "b=builtin"],
                "the capabilities it uses: sentiment"
            ),
        ]
        for (arguments, fragment) in cases {
            let r = try cli.run(arguments)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.contains(fragment), "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains("\u{1b}"), "no raw escape reaches the terminal")
            #expect(!r.stderr.contains("Error: error:"))
        }
    }

    @Test func n26CompareReadsDatasetsNamedByPathAsRunDoes() throws {
        let dir = try cli.temporaryFolder()
        let scenario = try String(
            contentsOf: FieldtestCLITests.repo.appendingPathComponent("Scenarios/micity-rate-limit.yaml"),
            encoding: .utf8)
        let cities = FieldtestCLITests.repo.appendingPathComponent("Datasets/places/us_cities_geonames_cities500.csv")
        try scenario.replacingOccurrences(
            of: "datasets: [airline-tweets, noaa-lcd-lincoln-2023, us-cities]",
            with:
                "datasets: [airline-tweets, noaa-lcd-lincoln-2023, {name: my-cities, path: '\(cities.path)', format: us-cities}]"
        ).write(to: dir.appendingPathComponent("mic.yaml"), atomically: true, encoding: .utf8)
        let validate = try cli.run(["validate", "mic.yaml"], in: dir)
        #expect(validate.status == 0, "\(validate.stderr)")
        let r = try cli.run(
            ["compare", "mic.yaml", "--capability", "sentiment", "--candidate", "a=builtin", "--output", "c.csv"],
            in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("no dataset named"))
    }

    /// A system that ignores SIGTERM and writes its pid to `pidFile`, then hangs on its first request.
    func stuckSystem(in dir: URL) throws -> (script: String, pidFile: URL) {
        let pidFile = dir.appendingPathComponent("pid")
        let script = dir.appendingPathComponent("stuck.py")
        try """
        import json, os, signal, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        sys.stdin.readline()
        print(json.dumps({"ok": True, "name": "stuck", "version": "1"}), flush=True)
        open(sys.argv[1] + ".tmp", "w").write(str(os.getpid())); os.rename(sys.argv[1] + ".tmp", sys.argv[1])
        sys.stdin.readline()
        time.sleep(3600)
        """.write(to: script, atomically: true, encoding: .utf8)
        return (script.path, pidFile)
    }

    /// Polls `condition` every 50 ms for up to `seconds`.
    func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGKILL])
    func n19TheSystemDoesNotOutliveAnInterruptedOrKilledHarness(signal: Int32) throws {
        let dir = try cli.temporaryFolder()
        try tweets(in: dir)
        let (script, pidFile) = try stuckSystem(in: dir)
        let p = Process()
        p.executableURL = FieldtestCLITests.executable
        p.arguments = [
            "evaluate", "sentiment", "--input", "t.csv", "--system", "python3 \(script) \(pidFile.path)", "--timeout",
            "60",
        ]
        p.currentDirectoryURL = dir
        // A temporary folder of its own, to see what it leaves there.
        let temporary = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        p.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        #expect(eventually(20) { FileManager.default.fileExists(atPath: pidFile.path) })
        let pid = try #require(Int32(try String(contentsOf: pidFile, encoding: .utf8)))
        #expect(ExternalSystemAlive.alive(pid))
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        #expect(eventually(5) { !ExternalSystemAlive.alive(pid) }, "the system \(pid) outlived fieldtest")
        if ExternalSystemAlive.alive(pid) { kill(pid, SIGKILL) }
        if signal != SIGKILL {
            #expect(p.terminationStatus == 128 + signal)
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        }
    }
}

/// Whether a process is alive (a zombie counts as gone).
enum ExternalSystemAlive {
    static func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !stat.contains(") Z ")
    }
}
