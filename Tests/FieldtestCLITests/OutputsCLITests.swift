import Foundation
import Testing

/// What `run` and the batch commands write: outputs never over inputs, one JUnit file that CI
/// reads right, the closing line, standard input and output, and why `merge` exits 1.
@Suite("fieldtest outputs")
struct OutputsCLITests {
    let cli = FieldtestCLITests()
    static let repo = FieldtestCLITests.repo
    static let lincoln = repo.appendingPathComponent("Scenarios/skyscape-lincoln.yaml")
    static let xsd = repo.appendingPathComponent("Tests/MetricReportsTests/Fixtures/junit-10.xsd")

    /// Runs `fieldtest` with `input` on its standard input.
    func run(_ arguments: [String], in directory: URL, input: Data = Data()) throws -> FieldtestCLITests.Result {
        let p = Process()
        p.executableURL = FieldtestCLITests.executable
        p.arguments = arguments
        p.currentDirectoryURL = directory
        let (stdin, out, err) = (Pipe(), Pipe(), Pipe())
        p.standardInput = stdin
        p.standardOutput = out
        p.standardError = err
        try p.run()
        try stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return .init(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    /// A copy of the Lincoln scenario under `name` in `dir`.
    func scenario(_ name: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("\(name).yaml")
        try String(contentsOf: Self.lincoln, encoding: .utf8)
            .replacingOccurrences(of: "name: skyscape-lincoln", with: "name: \(name)")
            .write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// #26: `run s.yaml --out o --junit s.yaml` wrote JUnit over the scenario and exited 0.
    @Test func junitOverTheScenarioFileIsRefused() throws {
        let dir = try cli.temporaryFolder()
        let s = try scenario("s", in: dir)
        let before = try Data(contentsOf: s)
        let hard = dir.appendingPathComponent("hard.xml")
        try FileManager.default.linkItem(at: s, to: hard)
        for junit in ["s.yaml", "hard.xml", "./sub/../s.yaml"] {
            let r = try run(["run", "s.yaml", "--out", "o", "--junit", junit], in: dir)
            #expect(r.status == 2, "\(junit): \(r.stderr)")
            #expect(r.stderr.contains("error: --junit \(junit) is the input file s.yaml"), "\(r.stderr)")
            #expect(try Data(contentsOf: s) == before)
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
        }
    }

    /// The datasets' MANIFEST.csv (here a copy, with the recordings linked) is an input of every run.
    @Test func outputsOverTheManifestAreRefused() throws {
        let dir = try cli.temporaryFolder()
        let datasets = dir.appendingPathComponent("Datasets")
        let real = Self.repo.appendingPathComponent("Datasets")
        try FileManager.default.createDirectory(at: datasets, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: real.path) where name != "MANIFEST.csv" {
            try FileManager.default.createSymbolicLink(
                at: datasets.appendingPathComponent(name), withDestinationURL: real.appendingPathComponent(name))
        }
        let manifest = datasets.appendingPathComponent("MANIFEST.csv")
        try FileManager.default.copyItem(at: real.appendingPathComponent("MANIFEST.csv"), to: manifest)
        let before = try Data(contentsOf: manifest)
        let link = dir.appendingPathComponent("link.xml")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: manifest)
        let r = try run(
            ["run", Self.lincoln.path, "--datasets", datasets.path, "--out", "o", "--junit", "link.xml"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: --junit link.xml is the input file \(manifest.path)"), "\(r.stderr)")
        #expect(try Data(contentsOf: manifest) == before)
    }

    /// A baseline one metric better than this run: `run` prints REGRESSION and exits 1, and the
    /// JUnit file (one for both scenarios, valid against Jenkins' schema) shows the regression.
    @Test func aRegressionReachesTheJUnitFile() throws {
        let dir = try cli.temporaryFolder()
        let first = try scenario("first", in: dir)
        let second = try scenario("second", in: dir)
        let baselines = dir.appendingPathComponent("baselines")
        try FileManager.default.createDirectory(at: baselines, withIntermediateDirectories: true)
        let recorded = try String(
            contentsOf: Self.repo.appendingPathComponent("Results/baselines/skyscape-lincoln.csv"), encoding: .utf8)
        for name in ["first", "second"] {
            var lines = recorded.replacingOccurrences(of: "skyscape-lincoln,", with: "\(name),")
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if name == "first", let i = lines.firstIndex(where: { $0.contains(",sun_event_abs_error_max,") }) {
                var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                fields[6] = "1"  // the baseline was better: 1 s against the run's 2.7 s
                lines[i] = fields.joined(separator: ",")
            }
            try lines.joined(separator: "\n").write(
                to: baselines.appendingPathComponent("\(name).csv"), atomically: true, encoding: .utf8)
        }
        let r = try run(
            [
                "run", first.path, second.path, "--baseline", "baselines", "--compare-latency", "never", "--out", "o",
                "--junit", "junit.xml", "--jobs", "1",
            ], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("REGRESSION"))
        let last = try #require(r.stdout.split(separator: "\n").last)
        let totals = try #require(
            last.wholeMatch(
                of: /2 scenarios, \d+ rows: \d+ passed, \d+ failed, 0 not measured, \d+ info, (\d+) regressions? .+/),
            "\(last)")
        #expect(Int(totals.1) ?? 0 >= 1)
        #expect(!r.stdout.contains("\u{1B}["), "no colour off a terminal")
        let xml = try String(contentsOf: dir.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(xml.components(separatedBy: "<testsuite ").count == 3)
        let root = try #require(xml.firstMatch(of: /<testsuites name="fieldtest" tests="(\d+)" failures="(\d+)"/))
        #expect(Int(root.2) ?? 0 >= 1)
        #expect(xml.contains("type=\"regression\""))
        #expect(xml.contains("SKY-P2 sun_event_abs_error_max regressed against the baseline"))
        let xmllint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if xmllint == nil && ProcessInfo.processInfo.environment["CI"] == nil {
            print("skipped the schema check: xmllint is not installed (Debian: libxml2-utils, or make deps)")
            return
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(xmllint, "xmllint is missing in CI: make deps installs it"))
        p.arguments = ["--noout", "--schema", Self.xsd.path, dir.appendingPathComponent("junit.xml").path]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let messages = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(messages)")
    }

    /// `--quiet` prints failures and the closing line only; `--verbose` every row; run.json
    /// records the command line and the checkout's commit.
    @Test func quietVerboseAndProvenance() throws {
        let dir = try cli.temporaryFolder()
        let s = try scenario("s", in: dir)
        let quiet = try run(["run", s.path, "--out", "o", "--quiet"], in: dir)
        #expect(quiet.status == 0 || quiet.status == 1, "\(quiet.stderr)")
        #expect(!quiet.stdout.contains("reports in") && !quiet.stdout.contains("PASS"))
        #expect(quiet.stdout.split(separator: "\n").last?.hasPrefix("1 scenario, ") == true, "\(quiet.stdout)")
        let verbose = try run(["run", s.path, "--out", "o", "--verbose"], in: dir)
        #expect(verbose.stdout.contains("PASS") && verbose.stdout.contains("reports in"))
        let json = try String(contentsOf: dir.appendingPathComponent("o/s/run.json"), encoding: .utf8)
        #expect(json.contains("\"command_line\" : ["))
        #expect(json.contains("\"scenario_file\" : \"\(s.path)\""))
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let commandLine = try #require(record["command_line"] as? [String])
        #expect(Array(commandLine.suffix(5)) == ["run", s.path, "--out", "o", "--verbose"])
        #expect(record["finished_at"] is String && record["duration_s"] is Double)
        // The commit is read from the checkout's .git files; git itself only confirms it here.
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", Self.repo.path, "rev-parse", "HEAD"]
        let out = Pipe()
        git.standardOutput = out
        git.standardError = FileHandle.nullDevice
        if (try? git.run()) != nil {
            let head = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            git.waitUntilExit()
            if git.terminationStatus == 0 {
                #expect(record["tool_commit"] as? String == head.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
    }

    /// `--input -` reads standard input and `--output -` writes standard output (not a file named `-`).
    @Test func standardInputAndOutput() throws {
        let dir = try cli.temporaryFolder()
        let csv = "id,latitude,longitude,date,timezone\nlincoln,40.81,-96.70,2023-01-24,America/Chicago\n"
        let piped = try run(["sun", "--input", "-", "--output", "-"], in: dir, input: Data(csv.utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("id,") && piped.stdout.contains("\nlincoln,"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path))
        try csv.write(to: dir.appendingPathComponent("in.csv"), atomically: true, encoding: .utf8)
        let fromFile = try run(["sun", "--input", "in.csv"], in: dir)
        #expect(fromFile.stdout == piped.stdout)
        let twice = try run(["locate", "--train", "-", "--input", "-"], in: dir)
        #expect(twice.status == 2 && twice.stderr.contains("standard input (-) can be read only once"))
    }

    /// `merge` says why it exits 1 when every case is there but a merged row fails.
    @Test func mergeSaysWhyItFails() throws {
        let dir = try cli.temporaryFolder()
        try
            (RunAndCheckSafetyTests.header
            + "s,r,1,SKY-P2,err_max,accuracy,301,s,300,<=,fail,3\ns,r,1,SKY-P2,ok_max,accuracy,1,s,300,<=,pass,3\n")
            .write(to: dir.appendingPathComponent("m.csv"), atomically: true, encoding: .utf8)
        let r = try run(["merge", "m.csv", "--output", "-"], in: dir)
        #expect(r.status == 1)
        #expect(
            r.stderr.contains(
                "merge: 1 merged row fails its requirement (exit 1; the merged file is written): s SKY-P2 err_max"),
            "\(r.stderr)")
        #expect(r.stdout.contains("err_max"))
    }
}
