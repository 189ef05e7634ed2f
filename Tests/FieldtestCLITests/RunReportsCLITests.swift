import FieldtestTestSupport
import Foundation
import Testing

/// `run` compares with the baseline rows of what it ran, records every dataset file it read,
/// checks every report folder before running, cleans up when interrupted; `locate` and
/// `route` honour or reject every option they are given.
/// Heavy tier: its tests run whole bundled scenarios through the binary, eleven runs in all.
@Suite("fieldtest run: baselines, reports and interruption", .heavy)
struct RunReportsCLITests {
    let cli = FieldtestCLITests()
    static let scenarios = FieldtestCLITests.repo.appendingPathComponent("Scenarios")

    func write(_ text: String, _ url: URL) throws { try text.write(to: url, atomically: false, encoding: .utf8) }

    func scenarioText(_ name: String) throws -> String {
        try String(contentsOf: Self.scenarios.appendingPathComponent(name + ".yaml"), encoding: .utf8)
    }

    /// A baseline merged from two scenarios' baselines, or recorded for a whole sweep, is
    /// compared only with the rows of the scenarios and cases that run.
    @Test func baselineRowsAreFilteredToTheCasesRun() throws {
        let dir = try cli.temporaryFolder()
        let lincoln = Self.scenarios.appendingPathComponent("skyscape-lincoln.yaml").path
        let miami = Self.scenarios.appendingPathComponent("skyscape-miami.yaml").path
        let recorded = dir.appendingPathComponent("recorded")
        var r = try cli.run([
            "run", lincoln, miami, "--out", dir.appendingPathComponent("out1").path, "--record-baseline", recorded.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let merged = dir.appendingPathComponent("merged.csv")
        r = try cli.run([
            "merge", recorded.appendingPathComponent("skyscape-lincoln.csv").path,
            recorded.appendingPathComponent("skyscape-miami.csv").path, "--output", merged.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        r = try cli.run([
            "run", lincoln, miami, "--baseline", merged.path, "--compare-latency", "never",
            "--out", dir.appendingPathComponent("out2").path,
        ])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.components(separatedBy: "check: 0 regressions").count == 3, "\(r.stdout)")
        #expect(!r.stdout.contains("missing from this run"))

        // A 3 × 2 sweep recorded whole, then checked one shard at a time.
        let sweep = dir.appendingPathComponent("sweep.yaml")
        try write(
            try scenarioText("skyscape-lincoln").replacingOccurrences(
                of: "name: skyscape-lincoln", with: "name: lincoln-sweep")
                + "\nsweep:\n  parameters:\n    low_quality_threshold: [20, 40, 60]\n  seeds: [1, 2]\n", sweep)
        let swbase = dir.appendingPathComponent("swbase")
        r = try cli.run([
            "run", sweep.path, "--record-baseline", swbase.path, "--out", dir.appendingPathComponent("out3").path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        r = try cli.run([
            "run", sweep.path, "--shard", "0/3", "--baseline", swbase.path, "--compare-latency", "never",
            "--out", dir.appendingPathComponent("out4").path,
        ])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("check: 0 regressions"), "\(r.stdout)")
        #expect(!r.stdout.contains("REGRESSION"))
        // A shard records only its slice, so recording a baseline from a shard is refused.
        r = try cli.run([
            "run", sweep.path, "--shard", "0/3", "--record-baseline", dir.appendingPathComponent("shardbase").path,
        ])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--record-baseline records whole scenarios"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("shardbase").path))
        // A baseline of another scenario only is an error before running, not a pass over nothing.
        r = try cli.run([
            "run", lincoln, "--baseline", recorded.appendingPathComponent("skyscape-miami.csv").path,
            "--out", dir.appendingPathComponent("out5").path,
        ])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: the baseline has no rows for scenario 'skyscape-lincoln'"), "\(r.stderr)")
    }

    /// `run.json` names every dataset file the driver read, including files the scenario does
    /// not list (the station history and places tables an LCD station's zone is found with),
    /// also when a second scenario takes the parsed data from the cache. The SPA reference sun
    /// times are computed, so no reference file is read.
    @Test func runRecordsUnlistedDatasetFiles() throws {
        let dir = try cli.temporaryFolder()
        let out = dir.appendingPathComponent("out")
        let r = try cli.run([
            "run", Self.scenarios.appendingPathComponent("skyscape-lincoln.yaml").path,
            Self.scenarios.appendingPathComponent("skyscape-singapore.yaml").path, "--out", out.path,
        ])
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        for name in ["skyscape-lincoln", "skyscape-singapore"] {
            let json = try JSONSerialization.jsonObject(
                with: Data(contentsOf: out.appendingPathComponent("\(name)/run.json")))
            let used = try #require((json as? [String: Any])?["datasets"] as? [String: String], "\(name)")
            #expect(used["world-cities"]?.count == 64 && used["us-cities"]?.count == 64, "\(name): \(used)")
            #expect(!used.keys.contains { $0.hasPrefix("reference/") }, "\(name): \(used)")
        }
        // Rota's v1 file has no coordinates: its zone came from the station history, unlisted.
        let singapore = try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("skyscape-singapore/run.json")))
        let used = try #require((singapore as? [String: Any])?["datasets"] as? [String: String])
        #expect(used["isd-history"]?.count == 64, "\(used)")
    }

    /// Every report folder is checked before the first scenario runs: a file where the default
    /// `Results/runs` folder or a per-scenario `--out` folder would go is a clear error, and no scenario runs.
    @Test func reportFoldersAreCheckedBeforeRunning() throws {
        let dir = try cli.temporaryFolder()
        try write("not a folder", dir.appendingPathComponent("Results"))
        let lincoln = Self.scenarios.appendingPathComponent("skyscape-lincoln.yaml").path
        var r = try cli.run(["run", lincoln], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("Results is a file, not a folder"), "\(r.stderr)")
        #expect(!r.stderr.contains("NSCocoaErrorDomain"))
        #expect(r.stdout.isEmpty)

        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try write("not a folder", out.appendingPathComponent("skyscape-tromso"))
        r = try cli.run([
            "run", lincoln, Self.scenarios.appendingPathComponent("skyscape-tromso.yaml").path, "--out", out.path,
        ])
        #expect(r.status == 2)
        #expect(r.stderr.contains("skyscape-tromso is a file, not a folder"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(
            !FileManager.default.fileExists(atPath: out.appendingPathComponent("skyscape-lincoln/metrics.csv").path))
    }

    /// When `run.json` cannot be replaced, the previous `metrics.csv` is left as it was.
    @Test func aFailedReportWriteKeepsThePreviousSet() throws {
        let dir = try cli.temporaryFolder()
        let folder = dir.appendingPathComponent("out/skyscape-lincoln")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("run.json"), withIntermediateDirectories: true)
        try write("previous metrics\n", folder.appendingPathComponent("metrics.csv"))
        let r = try cli.run([
            "run", Self.scenarios.appendingPathComponent("skyscape-lincoln.yaml").path,
            "--out", dir.appendingPathComponent("out").path,
        ])
        #expect(r.status == 2)
        #expect(r.stderr.contains("run.json"), "\(r.stderr)")
        #expect(!r.stderr.contains("NSCocoaErrorDomain"))
        #expect(
            try String(contentsOf: folder.appendingPathComponent("metrics.csv"), encoding: .utf8)
                == "previous metrics\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["metrics.csv", "run.json"])
    }

    /// SIGTERM in the middle of a run removes the drivers' temporary folders and exits 143.
    @Test func anInterruptedRunLeavesNoTemporaryFolders() throws {
        let dir = try cli.temporaryFolder()
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let p = Process()
        p.executableURL = FieldtestCLITests.executable
        p.arguments = [
            "run", Self.scenarios.appendingPathComponent("navup-teaching-day.yaml").path,
            "--out", dir.appendingPathComponent("out").path,
        ]
        p.currentDirectoryURL = FieldtestCLITests.repo
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        func temporaryFolders() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("fieldtest-") }
        }
        let deadline = Date().addingTimeInterval(120)
        while try temporaryFolders().isEmpty && p.isRunning && Date() < deadline { usleep(20_000) }
        #expect(p.isRunning, "the run ended before it made a temporary folder")
        #expect(try !temporaryFolders().isEmpty)
        p.terminate()  // SIGTERM
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 143)
        let left = try temporaryFolders()
        #expect(left.isEmpty, "\(left)")
    }

    /// `check` and `merge` errors name the file (and line): a missing file, a header-only
    /// baseline and a duplicated row.
    @Test func checkAndMergeErrorsNameFileAndLine() throws {
        let dir = try cli.temporaryFolder()
        let header = RunAndCheckSafetyTests.header
        let good = header + "s,a,1,NAV-F15,forbidden_edges_used,count,0,count,0,<=,pass,21\n"
        try write(good, dir.appendingPathComponent("good.csv"))
        try write(header, dir.appendingPathComponent("empty.csv"))
        var r = try cli.run(["check", "missing.csv", "--baseline", "good.csv"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains("missing.csv: error: cannot read file: no such file; give the path of a metrics CSV"),
            "\(r.stderr)")
        #expect(!r.stderr.contains("The operation could not be completed"))
        r = try cli.run(["merge", "good.csv", "missing.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("missing.csv: error: cannot read file: no such file"), "\(r.stderr)")
        r = try cli.run(["check", "good.csv", "--baseline", "empty.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("empty.csv:1: error: the baseline has a header but no metric rows"), "\(r.stderr)")
        try write(
            good + "s,a,1,NAV-F15,forbidden_edges_used,count,0,count,0,<=,pass,21\n",
            dir.appendingPathComponent("twice.csv"))
        r = try cli.run(["merge", "twice.csv"], in: dir)
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "twice.csv:3: error: duplicate row: requirement NAV-F15 metric forbidden_edges_used of scenario s seed 1 is also on line 2"
            ), "\(r.stderr)")
        r = try cli.run(["merge", "good.csv", "good.csv"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("merge: error: case s (seed 1) is in 2 inputs: good.csv, good.csv"), "\(r.stderr)")
    }

    /// `locate --cross-validate` writes its result to --output and refuses --input;
    /// `route --print-profiles` writes to --output and refuses routing options.
    @Test func locateAndRouteHonourOrRejectEveryOption() throws {
        let dir = try cli.temporaryFolder()
        let data = DataCommandsCLITests()
        var k = 0
        try data.ujiRows(1...120) { fields in
            k += 1
            fields[527] = k % 2 == 0 ? "1" : "2"
        }.write(to: dir.appendingPathComponent("train.csv"), atomically: false, encoding: .utf8)
        var r = try cli.run(
            ["locate", "--train", "train.csv", "--cross-validate", "phone", "--output", "cv.txt"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let written = try String(contentsOf: dir.appendingPathComponent("cv.txt"), encoding: .utf8)
        #expect(written.hasPrefix("leave-one-phone-out (tuned): 120 fingerprints: building hit rate "), "\(written)")
        r = try cli.run(["locate", "--train", "train.csv", "--cross-validate", "phone"], in: dir)
        #expect(r.stdout == written)
        r = try cli.run(
            ["locate", "--train", "train.csv", "--cross-validate", "phone", "--input", "train.csv"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("give one of --input and --cross-validate"), "\(r.stderr)")

        r = try cli.run(["route", "--print-profiles", "--output", "profiles.yaml"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let profiles = try String(contentsOf: dir.appendingPathComponent("profiles.yaml"), encoding: .utf8)
        #expect(profiles.contains("wheelchair"))
        #expect(try cli.run(["route", "--print-profiles"], in: dir).stdout == profiles)
        r = try cli.run(["route", "--print-profiles", "--graph", "map.osm"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--print-profiles prints the built-in profiles and routes nothing"), "\(r.stderr)")
    }
}
