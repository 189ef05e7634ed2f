import FieldtestTestSupport
import Foundation
import Testing

/// The hostile-input campaign of 2026-11-27: outputs that destroyed inputs (D1, N6–N9, N22, N28),
/// special files (N23), concurrent runs and adds (N10, N14), `datasets add` (N15, N24, issue 38),
/// the graph cache's temporary files (N32), an interrupted default run (D17) and the error prefix.
/// Heavy tier: seventeen tests that start the binary about thirty times, most on bundled scenarios.
@Suite("fieldtest output guard", .heavy)
struct OutputGuardCLITests {
    let cli = FieldtestCLITests()
    static let repo = FieldtestCLITests.repo

    /// Runs `fieldtest` in `directory` (with `environment` added) and ends it after `timeout` seconds
    /// (a hang is a failure, not a stuck test).
    func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], timeout: Double = 60
    ) throws -> FieldtestCLITests.Result {
        let p = Process()
        p.executableURL = FieldtestCLITests.executable
        p.arguments = arguments
        p.currentDirectoryURL = directory
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let (out, err) = (Pipe(), Pipe())
        (p.standardInput, p.standardOutput, p.standardError) = (FileHandle.nullDevice, out, err)
        try p.run()
        let deadline = DispatchTime.now() + timeout
        DispatchQueue.global().asyncAfter(deadline: deadline) { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return .init(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    /// Runs `script` with `sh -c` in `directory`, `$FT` naming the executable; its exit status.
    /// (No background jobs: the shell inherits the test process's blocked SIGCHLD, so `wait` would hang.)
    func shell(_ script: String, in directory: URL) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.currentDirectoryURL = directory
        p.environment = ProcessInfo.processInfo.environment.merging(["FT": FieldtestCLITests.executable.path]) {
            _, new in new
        }
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// A datasets folder of one's own holding a copy of the Miami TMY2 recording as `tmy2-copy`.
    func ownDatasets(in dir: URL) throws -> URL {
        let ds = dir.appendingPathComponent("ds")
        try FileManager.default.createDirectory(
            at: ds.appendingPathComponent("weather"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.repo.appendingPathComponent("Datasets/weather/12839.tm2"),
            to: ds.appendingPathComponent("weather/12839.tm2"))
        let manifest = try String(
            contentsOf: Self.repo.appendingPathComponent("Datasets/MANIFEST.csv"), encoding: .utf8)
        let lines = manifest.split(separator: "\n").filter { $0.hasPrefix("name,") || $0.hasPrefix("tmy2-miami,") }
        let text = lines.map { $0.replacingOccurrences(of: "tmy2-miami,", with: "tmy2-copy,") }.joined(separator: "\n")
        try (text + "\n").write(to: ds.appendingPathComponent("MANIFEST.csv"), atomically: true, encoding: .utf8)
        return ds
    }

    static let okSystem = """
        import json, sys
        for line in sys.stdin:
            r = json.loads(line)
            if r['op'] == 'hello': print(json.dumps({"ok": True, "name": "ok", "version": "1"}), flush=True); continue
            rows = r.get('rows') or [r]
            a = [{"id": x["id"], "label": "neutral", "score": 0.0} for x in rows]
            print(json.dumps({"id": r["id"], "rows": a} if 'rows' in r else a[0]), flush=True)
        """

    @Test("D1: the MANIFEST.csv of a datasets folder of one's own is an input")
    func d1OwnDatasetsManifestIsAnInput() throws {
        let dir = try cli.temporaryFolder()
        let ds = try ownDatasets(in: dir)
        let manifest = ds.appendingPathComponent("MANIFEST.csv")
        let before = try Data(contentsOf: manifest)
        let scenario = Self.repo.appendingPathComponent("Scenarios/skyscape-miami.yaml").path
        for arguments in [
            ["run", scenario, "--datasets", "ds", "--out", "o", "--junit", "ds/MANIFEST.csv"],
            ["run", scenario, "--datasets", "ds", "--out", "o", "--report", "ds/MANIFEST.csv"],
            ["score", "--dataset", "tmy2-copy", "--datasets", "ds", "--output", "ds/MANIFEST.csv"],
        ] {
            let r = try run(arguments, in: dir)
            #expect(r.status == 2, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("ds/MANIFEST.csv") && r.stderr.contains("input"), "\(r.stderr)")
            #expect(try Data(contentsOf: manifest) == before)
        }
        let env = try run(
            ["run", scenario, "--out", "o", "--junit", "ds/MANIFEST.csv"], in: dir,
            environment: ["FIELDTEST_DATASETS": ds.path])
        #expect(env.status == 2, "\(env.stderr)")
        #expect(try Data(contentsOf: manifest) == before)
    }

    @Test("N6: report and merge never overwrite the run.json beside a metrics.csv they read")
    func n6RunJSONBesideMetricsIsAnInput() throws {
        let dir = try cli.temporaryFolder()
        let folder = dir.appendingPathComponent("r/scenario")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "scenario,requirement\n".write(
            to: folder.appendingPathComponent("metrics.csv"), atomically: true, encoding: .utf8)
        try "{}\n".write(to: folder.appendingPathComponent("run.json"), atomically: true, encoding: .utf8)
        for command in ["report", "merge"] {
            let r = try run([command, "r/scenario/metrics.csv", "--output", "r/scenario/run.json"], in: dir)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("r/scenario/run.json"), "\(r.stderr)")
            #expect(try String(contentsOf: folder.appendingPathComponent("run.json"), encoding: .utf8) == "{}\n")
        }
    }

    @Test("N7: compare --output over its scenario is refused")
    func n7CompareOutputOverScenario() throws {
        let dir = try cli.temporaryFolder()
        let scenario = dir.appendingPathComponent("mic.yaml")
        try FileManager.default.copyItem(
            at: Self.repo.appendingPathComponent("Scenarios/micity-city-day.yaml"), to: scenario)
        let before = try Data(contentsOf: scenario)
        let r = try run(
            [
                "compare", "mic.yaml", "--capability", "sentiment", "--candidate", "a=builtin", "--candidate",
                "b=builtin",
                "--output", "mic.yaml",
            ], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("mic.yaml"))
        #expect(try Data(contentsOf: scenario) == before)
    }

    @Test("N8: the script of an external system is an input of run, evaluate and compare")
    func n8SystemScriptIsAnInput() throws {
        let dir = try cli.temporaryFolder()
        let script = dir.appendingPathComponent("ok.py")
        try Self.okSystem.write(to: script, atomically: true, encoding: .utf8)
        try "text,label\n\"good day\",positive\n".write(
            to: dir.appendingPathComponent("l.csv"), atomically: true, encoding: .utf8)
        let scenario = Self.repo.appendingPathComponent("Scenarios/micity-city-day.yaml").path
        for arguments in [
            ["run", scenario, "--out", "o", "--system", "sentiment=python3 ok.py", "--report", "ok.py"],
            ["run", scenario, "--out", "o", "--system", "sentiment=python3 ok.py", "--junit", "./ok.py"],
            ["evaluate", "sentiment", "--input", "l.csv", "--system", "python3 ok.py", "--output", "ok.py"],
            [
                "compare", scenario, "--capability", "sentiment", "--candidate", "a=python3 ok.py", "--output", "ok.py",
            ],
        ] {
            let r = try run(arguments, in: dir)
            #expect(r.status == 2, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("ok.py"), "\(r.stderr)")
            #expect(try String(contentsOf: script, encoding: .utf8) == Self.okSystem)
        }
        // A scenario's own systems block names it too.
        let text = try String(contentsOfFile: scenario, encoding: .utf8).replacingOccurrences(
            of: "\nrequirements:", with: "\nsystems:\n  sentiment: {command: [python3, ok.py]}\nrequirements:")
        try text.write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let r = try run(["run", "s.yaml", "--out", "o", "--junit", "ok.py"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(try String(contentsOf: script, encoding: .utf8) == Self.okSystem)
    }

    @Test("N9: /dev/stdout, /dev/stderr and /proc/self/fd/N are streams; /dev/stdin is refused")
    func n9StreamsAreWrittenToTheirDescriptor() throws {
        let dir = try cli.temporaryFolder()
        try "id,latitude,longitude,date,timezone\nm,25.77,-80.19,2021-03-12,America/New_York\n".write(
            to: dir.appendingPathComponent("sun.csv"), atomically: true, encoding: .utf8)
        for (output, redirect) in [
            ("/dev/stdout", ">>"), ("/dev/stderr", "2>>"), ("/proc/self/fd/1", ">>"), ("/dev/fd/1", ">>"),
        ] {
            try "earlier log line\n".write(to: dir.appendingPathComponent("log.txt"), atomically: true, encoding: .utf8)
            let status = try shell("\"$FT\" sun --input sun.csv --output \(output) \(redirect) log.txt", in: dir)
            #expect(status == 0, "\(output)")
            let log = try String(contentsOf: dir.appendingPathComponent("log.txt"), encoding: .utf8)
            #expect(log.hasPrefix("earlier log line\nid,"), "\(output): \(log)")
        }
        let stdin = try shell("\"$FT\" sun --input sun.csv --output /dev/stdin < sun.csv", in: dir)
        #expect(stdin == 2)
        #expect(try String(contentsOf: dir.appendingPathComponent("sun.csv"), encoding: .utf8).hasPrefix("id,lat"))
    }

    @Test("N28: run --report - writes the HTML to standard output, never a file named -")
    func n28RunReportDashIsStandardOutput() throws {
        let dir = try cli.temporaryFolder()
        let scenario = Self.repo.appendingPathComponent("Scenarios/navup-wheelchair.yaml").path
        let r = try run(["run", scenario, "--out", "o", "--report", "-"], in: dir, timeout: 300)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(r.stderr.contains("passed"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path))
        let both = try run(["run", scenario, "--out", "o", "--report", "-", "--junit", "-"], in: dir)
        #expect(both.status == 2, "\(both.stderr)")
    }

    @Test("N22: --record-baseline into the run's own report folder is refused")
    func n22RecordBaselineIntoReportFolder() throws {
        let dir = try cli.temporaryFolder()
        let scenario = Self.repo.appendingPathComponent("Scenarios/skyscape-miami.yaml").path
        let r = try run(["run", scenario, "--out", "d", "--record-baseline", "d/skyscape-miami"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--record-baseline d/skyscape-miami") && r.stderr.contains("report folder"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("d/skyscape-miami").path))
    }

    @Test("N23: FIFOs are refused as datasets, files to add, cache files and outputs, without hanging")
    func n23FIFOsAreRefused() throws {
        let dir = try cli.temporaryFolder()
        let fifo = dir.appendingPathComponent("f.csv")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let add = try run(
            ["datasets", "add", "f.csv", "--name", "f", "--format", "us-cities", "--into", "x"], in: dir, timeout: 20)
        #expect(add.status == 2, "\(add.stderr)")
        #expect(add.stderr.contains("FIFO"), "\(add.stderr)")
        // A scenario naming it by path.
        let scenario = try String(
            contentsOf: Self.repo.appendingPathComponent("Scenarios/skyscape-miami.yaml"), encoding: .utf8)
        let manifestName = "tmy2-miami"
        #expect(scenario.contains(manifestName))
        // A manifest listing it.
        let ds = try ownDatasets(in: dir)
        try FileManager.default.removeItem(at: ds.appendingPathComponent("weather/12839.tm2"))
        #expect(mkfifo(ds.appendingPathComponent("weather/12839.tm2").path, 0o600) == 0)
        let own = scenario.replacingOccurrences(of: manifestName, with: "tmy2-copy")
        try own.write(to: dir.appendingPathComponent("own.yaml"), atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let r = try run(
                [command, "own.yaml", "--datasets", "ds", "--out", "o"].filter {
                    command == "run" || ($0 != "--out" && $0 != "o")
                }, in: dir, timeout: 30)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("FIFO"), "\(command): \(r.stderr)")
        }
        try "id,text\n1,good\n".write(to: dir.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        let classify = try run(["classify", "--input", "t.csv", "--output", "f.csv"], in: dir, timeout: 20)
        #expect(classify.status == 2, "\(classify.stderr)")
        #expect(classify.stderr.contains("FIFO"))
        let null = try run(["classify", "--input", "t.csv", "--output", "/dev/null"], in: dir, timeout: 60)
        #expect(null.status == 0, "\(null.stderr)")
    }

    @Test("N10: a second run into the same --out is refused while the first holds it")
    func n10SecondRunIntoSameOutIsRefused() throws {
        let dir = try cli.temporaryFolder()
        let out = dir.appendingPathComponent("c")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let fd = open(out.appendingPathComponent(".skyscape-miami.lock").path, O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        _ = "4242\n".withCString { write(fd, $0, 5) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let scenario = Self.repo.appendingPathComponent("Scenarios/skyscape-miami.yaml").path
        for shard in [[], ["--shard", "1/2"]] {
            let r = try run(["run", scenario, "--out", "c"] + shard, in: dir)
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("already in progress") && r.stderr.contains("4242"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("skyscape-miami").path))
        }
    }

    @Test("runs of different scenarios into one --out go on side by side")
    func runsOfDifferentScenariosShareAnOutFolder() throws {
        let dir = try cli.temporaryFolder()
        let out = dir.appendingPathComponent("c")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // Another scenario's run holds its lock: this one is not held up by it.
        let fd = open(out.appendingPathComponent(".some-other-scenario.lock").path, O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let scenario = Self.repo.appendingPathComponent("Scenarios/skyscape-miami.yaml").path
        let r = try run(["run", scenario, "--out", "c", "--compare-latency", "never", "--quiet"], in: dir)
        #expect(r.status <= 1, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("skyscape-miami/metrics.csv").path))
    }

    @Test("N14: concurrent datasets add into one folder keep every row")
    func n14ConcurrentAddsKeepEveryRow() throws {
        let dir = try cli.temporaryFolder()
        let states = Self.repo.appendingPathComponent("Datasets/places/us_states.json").path
        let adds = try (1...12).map { i -> Process in
            let p = Process()
            p.executableURL = FieldtestCLITests.executable
            p.arguments = ["datasets", "add", states, "--name", "s\(i)", "--format", "json", "--into", "ds"]
            p.currentDirectoryURL = dir
            (p.standardOutput, p.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
            try p.run()
            return p
        }
        for p in adds {
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
        }
        let manifest = try String(contentsOf: dir.appendingPathComponent("ds/MANIFEST.csv"), encoding: .utf8)
        #expect(manifest.split(separator: "\n").count == 13, "\(manifest)")
    }

    @Test("N15: datasets add of a symbolic link copies the data")
    func n15SymbolicLinkCopiesTheData() throws {
        let dir = try cli.temporaryFolder()
        let states = Self.repo.appendingPathComponent("Datasets/places/us_states.json")
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: states.path)
        let r = try run(
            ["datasets", "add", "link.json", "--name", "linked", "--format", "json", "--into", "ds2"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("symbolic link"))
        let copy = dir.appendingPathComponent("ds2/link.json")
        var info = stat()
        #expect(lstat(copy.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        let verify = try run(["datasets", "verify", "--datasets", "ds2", "linked"], in: dir)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("N24: datasets add refuses . and .., a data file named MANIFEST.csv and --into a file")
    func n24OddAddsAreRefused() throws {
        let dir = try cli.temporaryFolder()
        let states = Self.repo.appendingPathComponent("Datasets/places/us_states.json").path
        for name in [".", ".."] {
            let r = try run(["datasets", "add", states, "--name", name, "--format", "json", "--into", "ds"], in: dir)
            #expect(r.status == 2, "\(name): \(r.stderr)")
        }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("src"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: states), to: dir.appendingPathComponent("src/MANIFEST.csv"))
        let named = try run(
            ["datasets", "add", "src/MANIFEST.csv", "--name", "m", "--format", "json", "--into", "ds"], in: dir)
        #expect(named.status == 2, "\(named.stderr)")
        #expect(named.stderr.contains("MANIFEST.csv"))
        try "x".write(to: dir.appendingPathComponent("file"), atomically: true, encoding: .utf8)
        let into = try run(["datasets", "add", states, "--name", "s", "--format", "json", "--into", "file"], in: dir)
        #expect(into.status == 2, "\(into.stderr)")
        #expect(into.stderr.contains("not a folder"), "\(into.stderr)")
        #expect(!into.stderr.contains("already exists"))
    }

    @Test("Issue 38: datasets add of a TweetEval text file copies its labels file, or refuses")
    func issue38TweetEvalLabelsAreCopied() throws {
        let dir = try cli.temporaryFolder()
        let src = dir.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
        try "good day\nbad day\n".write(to: src.appendingPathComponent("x_text.txt"), atomically: true, encoding: .utf8)
        let missing = try run(
            ["datasets", "add", "src/x_text.txt", "--name", "tw", "--format", "tweeteval-text", "--into", "ds"], in: dir
        )
        #expect(missing.status == 2, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("x_labels.txt"), "\(missing.stderr)")
        try "2\n0\n".write(to: src.appendingPathComponent("x_labels.txt"), atomically: true, encoding: .utf8)
        let r = try run(
            ["datasets", "add", "src/x_text.txt", "--name", "tw", "--format", "tweeteval-text", "--into", "ds"], in: dir
        )
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("ds/x_labels.txt").path))
    }

    @Test("N32: a graph cache temporary file of a dead process is removed by the next use")
    func n32StaleGraphCacheTemporaryIsRemoved() throws {
        let dir = try cli.temporaryFolder()
        let cache = dir.appendingPathComponent("gc")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale = cache.appendingPathComponent(".abc.graph.\(gone.processIdentifier).123.tmp")
        let live = cache.appendingPathComponent(".abc.graph.\(getpid()).123.tmp")
        for file in [stale, live] { try Data([1]).write(to: file) }
        try "id,from_lat,from_lon,to_lat,to_lon,profile\nq,39.0956,-77.1536,39.096,-77.153,walk\n".write(
            to: dir.appendingPathComponent("q.csv"), atomically: true, encoding: .utf8)
        let map = Self.repo.appendingPathComponent("Datasets/maps/montgomery_college_rockville_campus.osm").path
        let r = try run(
            ["route", "--graph", map, "--queries", "q.csv"], in: dir, environment: ["FIELDTEST_GRAPH_CACHE": cache.path]
        )
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
    }

    /// Starts a run of navup-teaching-day into the default `Results/runs` of `dir` and sends
    /// `signal` once its folder in progress exists; its standard error.
    func interruptedDefaultRun(in dir: URL, signal: Int32) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = FieldtestCLITests.executable
        p.arguments = ["run", Self.repo.appendingPathComponent("Scenarios/navup-teaching-day.yaml").path]
        p.currentDirectoryURL = dir
        let err = Pipe()
        (p.standardOutput, p.standardError) = (FileHandle.nullDevice, err)
        let folder = dir.appendingPathComponent("Results/runs/navup-teaching-day")
        let earlier = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        try p.run()
        let deadline = Date().addingTimeInterval(120)
        func inProgress() -> Bool {  // this run's folder in progress, not one an earlier run left
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains {
                $0.hasSuffix(".inprogress") && !earlier.contains($0)
            }
        }
        while !inProgress() && p.isRunning && Date() < deadline { usleep(10_000) }
        #expect(p.isRunning, "the run ended before it began")
        kill(p.processIdentifier, signal)
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    @Test("D17: an interrupted run in the default Results/runs leaves nothing behind")
    func d17InterruptedDefaultRunLeavesNothing() throws {
        let dir = try cli.temporaryFolder()
        let folder = dir.appendingPathComponent("Results/runs/navup-teaching-day")
        _ = try interruptedDefaultRun(in: dir, signal: SIGKILL)
        let killed = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(killed.contains { $0.hasSuffix(".inprogress") }, "\(killed)")
        let term = try interruptedDefaultRun(in: dir, signal: SIGTERM)
        #expect(term.status == 143)
        #expect(!term.stderr.contains("--resume continues") && !term.stderr.contains("(and --out)"), "\(term.stderr)")
        // The SIGKILLed run's leftovers went with the next run; the SIGTERMed run removed its own.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left.isEmpty, "\(left)")
    }

    @Test("One error prefix: no 'Error: error:'")
    func oneErrorPrefix() throws {
        let dir = try cli.temporaryFolder()
        for arguments in [
            ["score", "--weather", "x.csv", "--year", "2200"], ["run", "x.yaml", "--shard", "9/2"],
            ["run", "x.yaml", "--system", "foo=bar"],
        ] {
            let r = try run(arguments, in: dir)
            #expect(r.status == 2)
            #expect(!r.stderr.contains("Error: error:") && !r.stderr.contains("Error: --year"), "\(r.stderr)")
            #expect(r.stderr.lowercased().components(separatedBy: "error:").count == 2, "\(r.stderr)")
        }
    }
}
