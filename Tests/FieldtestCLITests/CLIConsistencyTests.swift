import Foundation
import Testing

/// One meaning per flag across subcommands: `--baseline FILE|DIR`, `check --junit`, `--datasets`
/// overlaying the bundled folder, `--color`, progress lines in logs, and where the bundled data is found.
@Suite("CLI consistency")
struct CLIConsistencyTests {
    let cli = FieldtestCLITests()
    static let repo = FieldtestCLITests.repo

    /// Runs the tool with `environment` added to this process's and `input` as standard input.
    func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
        in directory: URL = repo, executable: URL = FieldtestCLITests.executable
    ) throws -> FieldtestCLITests.Result {
        try cli.run(arguments, environment: environment, input: input, in: directory, executable: executable)
    }

    /// A copy of a bundled baseline as a run's metrics.csv (no run.json beside it: the rows name the scenario).
    func currentRun(_ scenario: String = "skyscape-lincoln") throws -> URL {
        let folder = try cli.temporaryFolder()
        let metrics = folder.appendingPathComponent("metrics.csv")
        try FileManager.default.copyItem(
            at: Self.repo.appendingPathComponent("Results/baselines/\(scenario).csv"), to: metrics)
        return metrics
    }

    @Test func checkTakesABaselineFolderAsRunDoes() throws {
        let metrics = try currentRun()
        let r = try run(["check", metrics.path, "--baseline", "Results/baselines", "--compare-latency", "never"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("0 regressions"), "\(r.stdout)")
        // A folder without the scenario's baseline: the file looked for is named.
        let empty = try cli.temporaryFolder()
        let missing = try run(["check", metrics.path, "--baseline", empty.path])
        #expect(missing.status == 2)
        #expect(
            missing.stderr.contains("\(empty.path)/skyscape-lincoln.csv: error: missing baseline"), "\(missing.stderr)")
    }

    /// `currentRun()` with one accuracy figure made worse: a regression.
    func regressedRun() throws -> URL {
        let metrics = try currentRun()
        let lines = try String(contentsOf: metrics, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.contains(",sun_event_abs_error_max,accuracy,") })
        var fields = lines[index].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[6] = String((Double(fields[6]) ?? 0) + 50)
        let text = (lines[..<index] + [fields.joined(separator: ",")] + lines[(index + 1)...]).joined(separator: "\n")
        try text.write(to: metrics, atomically: true, encoding: .utf8)
        return metrics
    }

    @Test func checkWritesJUnitWithRegressionsAsFailures() throws {
        let metrics = try regressedRun()
        let junit = metrics.deletingLastPathComponent().appendingPathComponent("check.xml")
        let r = try run([
            "check", metrics.path, "--baseline", "Results/baselines/skyscape-lincoln.csv", "--junit", junit.path,
            "--compare-latency", "never",
        ])
        #expect(r.status == 1, "\(r.stderr)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"skyscape-lincoln\""))
        #expect(xml.contains("type=\"regression\""))
        #expect(xml.contains("sun_event_abs_error_max"))
        // A check that cannot be made still leaves CI a report: one error case.
        let bad = try run(["check", metrics.path, "--baseline", "/nonexistent/base.csv", "--junit", junit.path])
        #expect(bad.status == 2)
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("<error"))
    }

    @Test func colourFollowsTheColorOption() throws {
        let metrics = try regressedRun()  // a regression is printed in red
        let always = try run([
            "check", metrics.path, "--baseline", "Results/baselines", "--compare-latency", "never", "--color", "always",
        ])
        #expect(always.stdout.contains("\u{1B}["), "\(always.stdout)")
        let never = try run([
            "check", metrics.path, "--baseline", "Results/baselines", "--compare-latency", "never", "--color", "never",
        ])
        #expect(!never.stdout.contains("\u{1B}["))
        #expect(never.status == 1 && always.status == 1)
        let wrong = try run(["check", metrics.path, "--baseline", "Results/baselines", "--color", "sometimes"])
        #expect(wrong.status == 2)
    }

    /// Without a terminal, a run writes a progress line every FIELDTEST_PROGRESS_SECONDS (10 s by
    /// default) to standard error, so CI logs show it is alive; `--quiet` writes none.
    @Test func progressLinesGoToLogsUnlessQuiet() throws {
        let out = try cli.temporaryFolder()
        let args = ["run", "Scenarios/navup-wheelchair.yaml", "--out", out.path, "--compare-latency", "never"]
        let r = try run(args, environment: ["FIELDTEST_PROGRESS_SECONDS": "0.01"])
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("fieldtest: navup-wheelchair case 1/1, "), "\(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}[K"))  // no terminal line-replacing codes in a log
        let quiet = try run(args + ["--quiet"], environment: ["FIELDTEST_PROGRESS_SECONDS": "0.01"])
        #expect(!quiet.stderr.contains("fieldtest: navup-wheelchair case"), "\(quiet.stderr)")
    }

    /// `--datasets DIR` adds a folder on top of the bundled one in every command: `serve` still finds the
    /// shipped model, and `score --dataset` a bundled recording, with a folder of one's own given.
    @Test func datasetsOverlaysInServeAndScore() throws {
        let mine = try cli.temporaryFolder()
        try "name,file,format,core,rows,sha256,license,origin\n".write(
            to: mine.appendingPathComponent("MANIFEST.csv"), atomically: true, encoding: .utf8)
        let requests = """
            {"op":"hello","protocol":1,"capability":"sentiment","seed":1}
            {"op":"classify","id":"1","text":"what a lovely day"}

            """
        let served = try run(["serve", "sentiment", "--datasets", mine.path], input: requests)
        #expect(served.status == 0, "\(served.stderr)")
        #expect(served.stdout.contains(#""label""#), "\(served.stdout)")
        let scored = try run(["score", "--dataset", "noaa-lcd-lincoln-2023", "--datasets", mine.path])
        #expect(scored.status == 0, "\(scored.stderr)")
        #expect(scored.stdout.hasPrefix("location_id,event,event_time,quality_pct,"))
    }

    @Test func datasetsWhereNamesTheFolderAndHowItWasFound() throws {
        let here = try run(["datasets", "where"])
        #expect(here.status == 0)
        #expect(here.stdout == Self.repo.appendingPathComponent("Datasets").path + "  (the working directory)\n")
        let wrong = try run(["datasets", "where"], environment: ["FIELDTEST_DATA": "/nonexistent"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("/nonexistent/Datasets  ($FIELDTEST_DATA)"), "\(wrong.stderr)")
        let listed = try run(
            ["datasets", "list"], environment: ["FIELDTEST_DATA": "/nonexistent"], in: URL(fileURLWithPath: "/"))
        #expect(listed.status == 2)
        #expect(listed.stderr.contains("looked in:"), "\(listed.stderr)")
    }

    /// An executable in PREFIX/bin finds PREFIX/share/fieldtest/Datasets from any folder (what
    /// `make install PREFIX=…` lays out), before the checkout it was built in.
    @Test func anInstalledLayoutIsFoundFromAnyFolder() throws {
        let prefix = try cli.temporaryFolder()
        let bin = prefix.appendingPathComponent("bin")
        let share = prefix.appendingPathComponent("share/fieldtest")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let executable = bin.appendingPathComponent("fieldtest")
        do {
            try FileManager.default.linkItem(at: FieldtestCLITests.executable, to: executable)
        } catch {
            try FileManager.default.copyItem(at: FieldtestCLITests.executable, to: executable)
        }
        // The data as make install copies it (a link to the checkout's folder stands in for the copy).
        try FileManager.default.createSymbolicLink(
            at: share.appendingPathComponent("Datasets"),
            withDestinationURL: Self.repo.appendingPathComponent("Datasets"))
        let root = URL(fileURLWithPath: "/")
        let found = try run(["datasets", "where"], in: root, executable: executable)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("share/fieldtest/Datasets  (<executable>/../share/fieldtest (make install))"))
        let listed = try run(["datasets", "list"], in: root, executable: executable)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("noaa-lcd-lincoln-2023"))
    }
}
