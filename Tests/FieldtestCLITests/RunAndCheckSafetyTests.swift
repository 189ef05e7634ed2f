import Foundation
import Testing

/// `run`, `check` and `merge` refuse input that would silently give a wrong or clobbered report.
@Suite("fieldtest run/check input safety")
struct RunAndCheckSafetyTests {
    let cli = FieldtestCLITests()
    static let header = "scenario,run_id,seed,requirement,metric,kind,value,unit,threshold,comparator,status,samples\n"

    func write(_ text: String, _ url: URL) throws { try text.write(to: url, atomically: false, encoding: .utf8) }

    /// Two scenario files with one name would overwrite each other's reports: rejected before anything runs.
    @Test func duplicateScenarioNamesAreRejectedBeforeRunning() throws {
        let dir = try cli.temporaryFolder()
        let scenario = try String(
            contentsOf: FieldtestCLITests.repo.appendingPathComponent("Scenarios/skyscape-lincoln.yaml"),
            encoding: .utf8)
        let a = dir.appendingPathComponent("a.yaml")
        let b = dir.appendingPathComponent("b.yaml")
        try write(scenario, a)
        try write(scenario, b)
        let out = dir.appendingPathComponent("out")
        let r = try cli.run(["run", a.path, b.path, "--out", out.path])
        #expect(r.status == 2)
        #expect(
            r.stderr.contains("\(b.path): error: scenario name 'skyscape-lincoln' is also the name of \(a.path)"),
            "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("skyscape-lincoln").path))
    }

    /// A scenario that fails to start (exit 2) leaves none of the folders made for its reports.
    @Test func scenarioThatCannotStartLeavesNoEmptyFolders() throws {
        let dir = try cli.temporaryFolder()
        // A weather action 710 km from the station the city day replays: an input error found at start.
        let text = try String(
            contentsOf: FieldtestCLITests.repo.appendingPathComponent("Scenarios/micity-city-day.yaml"), encoding: .utf8
        )
        .replacingOccurrences(
            of: "do: weather, latitude: 40.8136, longitude: -96.7026}",
            with: "do: weather, latitude: 39.7392, longitude: -104.9903}")
        let scenario = dir.appendingPathComponent("far.yaml")
        try write(text, scenario)
        let out = dir.appendingPathComponent("reports/nested")
        let r = try cli.run(["run", scenario.path, "--out", out.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("km from the recorded station"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("reports").path))
        // An --out folder that was there before stays.
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        #expect(try cli.run(["run", scenario.path, "--out", out.path]).status == 2)
        #expect(FileManager.default.fileExists(atPath: out.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    /// Unwritable --junit or --record-baseline locations stop the run before it starts, leaving
    /// the previous reports as they were.
    @Test func unwritableOutputsAreRejectedBeforeRunning() throws {
        let dir = try cli.temporaryFolder()
        let out = dir.appendingPathComponent("out")
        let previous = out.appendingPathComponent("skyscape-lincoln")
        try FileManager.default.createDirectory(at: previous, withIntermediateDirectories: true)
        try write("previous metrics\n", previous.appendingPathComponent("metrics.csv"))
        try write("{}\n", previous.appendingPathComponent("run.json"))
        let scenario = FieldtestCLITests.repo.appendingPathComponent("Scenarios/skyscape-lincoln.yaml").path
        let blocker = dir.appendingPathComponent("file")
        try write("x", blocker)
        for (option, path) in [
            ("--junit", "/proc/fieldtest-x.xml"), ("--record-baseline", "/proc/fieldtest-bl"),
            ("--junit", blocker.appendingPathComponent("x.xml").path), ("--junit", dir.path),
        ] {
            let r = try cli.run(["run", scenario, "--out", out.path, option, path])
            #expect(r.status == 2, "\(option) \(path)")
            #expect(r.stderr.contains("error: \(option)"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(
                try String(contentsOf: previous.appendingPathComponent("metrics.csv"), encoding: .utf8)
                    == "previous metrics\n")
            #expect(try String(contentsOf: previous.appendingPathComponent("run.json"), encoding: .utf8) == "{}\n")
        }
        #expect(!FileManager.default.fileExists(atPath: "/proc/fieldtest-bl"))
    }

    /// `run.json` records the hash of the dataset file read, and the manifest's when they differ.
    @Test func runRecordsTheHashOfTheDatasetFilesRead() throws {
        let dir = try cli.temporaryFolder()
        let datasets = dir.appendingPathComponent("Datasets")
        let real = FieldtestCLITests.repo.appendingPathComponent("Datasets")
        let fm = FileManager.default
        try fm.createDirectory(at: datasets.appendingPathComponent("weather"), withIntermediateDirectories: true)
        for name in try fm.contentsOfDirectory(atPath: real.path) where name != "weather" {
            try fm.createSymbolicLink(
                at: datasets.appendingPathComponent(name), withDestinationURL: real.appendingPathComponent(name))
        }
        let edited = "LCD_USW00014939_Lincoln_2023JanFeb.csv"
        for name in try fm.contentsOfDirectory(atPath: real.appendingPathComponent("weather").path) where name != edited
        {
            try fm.createSymbolicLink(
                at: datasets.appendingPathComponent("weather/" + name),
                withDestinationURL: real.appendingPathComponent("weather/" + name))
        }
        // The same observations with one more line ending: another file, the same records.
        var bytes = try Data(contentsOf: real.appendingPathComponent("weather/" + edited))
        bytes.append(contentsOf: Array("\n".utf8))
        try bytes.write(to: datasets.appendingPathComponent("weather/" + edited))
        let manifestSHA = "9d2c08db31b71f3f46effa4cfbc9f20c929ad461205ac4537153f89216c3926f"
        let actualSHA = try sha256(datasets.appendingPathComponent("weather/" + edited))
        #expect(actualSHA != manifestSHA)

        let out = dir.appendingPathComponent("out")
        let r = try cli.run([
            "run", FieldtestCLITests.repo.appendingPathComponent("Scenarios/skyscape-lincoln.yaml").path,
            "--datasets", datasets.path, "--out", out.path,
        ])
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "weather/\(edited): warning: dataset 'noaa-lcd-lincoln-2023' has sha256 \(actualSHA), not \(manifestSHA)"
            ),
            "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("skyscape-lincoln/run.json")))
        let record = try #require(json as? [String: Any])
        let used = try #require(record["datasets"] as? [String: String])
        #expect(used["noaa-lcd-lincoln-2023"] == actualSHA)
        #expect((record["datasets_manifest"] as? [String: String]) == ["noaa-lcd-lincoln-2023": manifestSHA])
        // Unchanged datasets are recorded with their (matching) hashes and no manifest section.
        let worldCities = try #require(used["world-cities"])
        #expect(worldCities.count == 64)
    }

    func sha256(_ url: URL) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [url.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    /// Duplicate rows in a baseline or in the checked file are errors naming both lines, in `check`
    /// and in `merge`; a misspelt tolerance name is an error with a suggestion.
    @Test func checkRejectsDuplicateRowsAndUnknownToleranceNames() throws {
        let dir = try cli.temporaryFolder()
        let good =
            Self.header + "s,a,1,SKY-P2,sunrise_error_max,accuracy,12,s,300,<=,pass,100\n"
            + "s,a,1,SKY-P2,sunset_error_max,accuracy,10,s,300,<=,pass,100\n"
        let duplicated = good + "s,a,1,SKY-P2,sunrise_error_max,accuracy,400,s,300,<=,fail,100\n"
        let base = dir.appendingPathComponent("base.csv")
        let dup = dir.appendingPathComponent("dup.csv")
        try write(good, base)
        try write(duplicated, dup)
        for args in [["check", base.path, "--baseline", dup.path], ["check", dup.path, "--baseline", base.path]] {
            let r = try cli.run(args)
            #expect(r.status == 2)
            #expect(
                r.stderr.contains(
                    "\(dup.path):4: error: duplicate row: requirement SKY-P2 metric sunrise_error_max of scenario s seed 1 is also on line 2"
                ),
                "\(r.stderr)")
        }
        let typo = try cli.run(["check", base.path, "--baseline", base.path, "--tolerance", "acuracy=1"])
        #expect(typo.status == 2)
        #expect(
            typo.stderr.contains("tolerance name 'acuracy'") && typo.stderr.contains("did you mean 'accuracy'?"),
            "\(typo.stderr)")
        let metricTypo = try cli.run(["check", base.path, "--baseline", base.path, "--tolerance", "sunrise_eror_max=5"])
        #expect(metricTypo.status == 2)
        #expect(metricTypo.stderr.contains("did you mean 'sunrise_error_max'?"), "\(metricTypo.stderr)")
        for setting in ["accuracy=1", "SKY-P2=5", "sunset_error_max=5"] {
            #expect(
                try cli.run(["check", base.path, "--baseline", base.path, "--tolerance", setting]).status == 0,
                "\(setting)")
        }
        let runTypo = try cli.run([
            "run", FieldtestCLITests.repo.appendingPathComponent("Scenarios/skyscape-lincoln.yaml").path,
            "--baseline", FieldtestCLITests.repo.appendingPathComponent("Results/baselines").path,
            "--tolerance", "acuracy=1", "--out", dir.appendingPathComponent("out").path,
        ])
        #expect(runTypo.status == 2)
        #expect(runTypo.stderr.contains("did you mean 'accuracy'?"), "\(runTypo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/skyscape-lincoln").path))

        let shard0 = dir.appendingPathComponent("shard0.csv")
        let shard1 = dir.appendingPathComponent("shard1.csv")
        try write(good, shard0)
        try write(
            Self.header + "s,a,1,SKY-P3,tap_p95,latency,0.1,s,3,<=,pass,10\n"
                + "s,a,1,SKY-P2,sunset_error_max,accuracy,10,s,300,<=,pass,100\n", shard1)
        let merge = try cli.run(["merge", shard0.path, shard1.path])
        #expect(merge.status == 1)
        #expect(
            merge.stderr.contains("merge: error: case s (seed 1) is in 2 inputs: \(shard0.path), \(shard1.path)"),
            "\(merge.stderr)")
        #expect(merge.stdout.isEmpty)
    }
}
