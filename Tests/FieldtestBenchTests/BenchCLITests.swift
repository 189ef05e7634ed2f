import Foundation
import Testing

@testable import FieldtestBench

/// Runs the built `fieldtest-bench` executable: out-of-range sizes are usage errors (exit 2)
/// and not traps, and `--check` turns a goal that is not met into exit 1.
@Suite("fieldtest-bench command line")
struct BenchCLITests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let datasets = repo.appendingPathComponent("Datasets")

    static var executable: URL {
        // The test bundle sits in the products folder next to the executable.
        let products = Bundle.main.bundleURL
        let candidates = [
            products.appendingPathComponent("fieldtest-bench"),
            products.deletingLastPathComponent().appendingPathComponent("fieldtest-bench"),
            repo.appendingPathComponent(".build/debug/fieldtest-bench"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        let p = Process()
        p.executableURL = Self.executable
        p.arguments = arguments
        p.currentDirectoryURL = Self.repo
        if let environment { p.environment = environment }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    @Test(
        "out-of-range sizes are usage errors (exit 2) naming the option and its range, not traps or NaN rates",
        arguments: [
            (["engine", "--processes=-1"], "--processes must be in 1…1000000"),
            (["engine", "--events", "0"], "--events must be in 1…1000000000"),
            (["sun", "--rows=-1"], "--rows must be in 1…10000000"),
            (["sun", "--rows", "0"], "--rows must be in 1…10000000"),
            (["route", "--queries=-1"], "--queries must be in 1…1000000"),
            (["route", "--queries", "0"], "--queries must be in 1…1000000"),
            (["route", "--grid-side=-3"], "--grid-side must be in 2…1000"),
            (["route", "--repeats", "0"], "--repeats must be in 1…100"),
            (["e2e", "--tweets", "0"], "--tweets must be in 1…10000000"),
            (["e2e", "--parts", "route,moon"], "--parts route,moon: expected some of route, sun, classify, locate"),
            (["heap", "--grid-queries", "0"], "--grid-queries must be in 1…1000000"),
            (["heap", "--repeats=-1"], "--repeats must be in 1…100"),
            (["locate", "--queries", "0"], "--queries must be at least 1"),
            (["sweep", "--cases", "0"], "--cases must be in 1…100000"),
            (["sweep", "--jobs", "0"], "--jobs must be at least 1"),
        ])
    func sizesAreValidated(arguments: [String], message: String) throws {
        let r = try run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(!r.stdout.contains("nan") && !r.stdout.contains("NaN"))
    }

    @Test("locate: more queries than the data can spare says how many it can")
    func locateTooManyQueries() throws {
        let r = try run(["locate", "--queries", "20000"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: --queries 20000: the bundled training data has "), "\(r.stderr)")
        #expect(r.stderr.contains("queries (half of them) so the model trains on the rest"))
        #expect(!r.stderr.contains("training set is empty"))
    }

    /// Whether a short engine run meets its goal depends on the build and the machine's load, so the
    /// test holds `--check` to the verdict printed: exit 1 exactly when the line says NOT met.
    @Test("--check exits 1 exactly when a stated goal is NOT met; without it the verdict is only printed")
    func checkFollowsTheVerdict() throws {
        // No Python on the path: the baseline is skipped and only Fieldtest's own goal is judged.
        let environment = ["PATH": "/nonexistent"]
        let plain = try run(["engine", "--events", "2000", "--processes", "10"], environment: environment)
        #expect(plain.status == 0, "\(plain.stderr)")
        let checked = try run(["engine", "--events", "2000", "--processes", "10", "--check"], environment: environment)
        let verdict = try #require(checked.stdout.split(separator: "\n").first { $0.hasPrefix("engine: goal ") })
        if verdict.hasSuffix("NOT met") {
            #expect(checked.status == 1)
            #expect(checked.stderr.contains("error: goals NOT met: engine ≥ 1,000,000 events/s"))
        } else {
            #expect(verdict.hasSuffix(": met"))
            #expect(checked.status == 0, "\(checked.stderr)")
        }
    }

    /// `--format json` is one document: the machine's description, the measured records (the
    /// engine's goal with its verdict) and whether every goal was met; `--check` exits 1 exactly
    /// when it was not. `--format csv` starts with the machine's description, one record a line.
    @Test func machineReadableFormats() throws {
        let environment = ["PATH": "/nonexistent"]
        let arguments = ["engine", "--events", "2000", "--processes", "10", "--check"]
        let r = try run(arguments + ["--format", "json"], environment: environment)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let machine = try #require(document["machine"] as? [String: Any])
        for key in ["cores", "memory_bytes", "os", "swift", "date", "cpu", "host", "build"] {
            #expect(machine[key] != nil, "machine.\(key)")
        }
        #expect((machine["cores"] as? Int ?? 0) >= 1)
        let results = try #require(document["results"] as? [[String: Any]])
        let goal = try #require(results.first { $0["kind"] as? String == "goal" })
        #expect(goal["benchmark"] as? String == "engine" && goal["unit"] as? String == "events/s")
        #expect((goal["value"] as? Double ?? 0) > 0 && goal["goal"] as? String == ">= 1000000")
        let met = try #require(goal["met"] as? Bool)
        #expect(document["goals_met"] as? Bool == met)
        #expect(r.status == (met ? 0 : 1), "\(r.stderr)")

        let csv = try run(arguments + ["--format", "csv"], environment: environment)
        let lines = csv.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "benchmark,kind,name,value,unit,goal,met,text")
        #expect(lines.dropFirst().prefix(3).allSatisfy { $0.hasPrefix(",machine,") })
        #expect(lines.contains { $0.hasPrefix("engine,goal,engine,") && $0.contains(",events/s,>= 1000000,") })
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count >= 8 })
    }

    @Test func verdictRecordsOnlyUnmetGoals() {
        let before = Goals.unmet
        defer { Goals.unmet = before }
        Goals.unmet = []
        #expect(Goals.verdict(true, "a") == "met")
        #expect(Goals.verdict(false, "b") == "NOT met")
        #expect(Goals.unmet == ["b"])
    }

    /// Every baseline a benchmark runs ships as a resource beside the executable.
    @Test(arguments: [
        "engine_simpy", "classify_vader", "classify_sklearn", "locate_sklearn", "route_networkx", "sun_pvlib_astral",
    ])
    func baselineScriptShips(name: String) throws {
        let url = try #require(PythonBaseline.scriptURL(name))
        #expect(try String(contentsOf: url, encoding: .utf8).contains("import sys"))
    }

    /// A short `bench sweep` as a correctness check (not timed): the sweep runs through the whole
    /// pipeline, its self-check (every case's rows in metrics.csv, run.json counting them) passes, and
    /// it prints the rate, the memory verdict and the breakdown with every part.
    @Test func shortSweepRunsAndReportsEveryFigure() throws {
        let r = try run(["sweep", "--cases", "12", "--jobs", "2", "--datasets", Self.datasets.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("sweep: 12 cases in "), "\(r.stdout)")
        #expect(r.stdout.contains("cases per CPU-second (per core)"))
        #expect(r.stdout.contains("peak resident memory") && r.stdout.contains("goal < 300 MB: "))
        for part in ["engine and app logic", "core calls", "KDF", "I/O", "PBKDF2 derivation at production cost"] {
            #expect(r.stdout.contains(part), "missing \(part)")
        }
    }
}
