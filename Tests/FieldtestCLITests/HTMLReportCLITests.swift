import Foundation
import Testing

/// `run --report` and `--trace`, and `fieldtest report`, end to end through the executable.
@Suite("fieldtest report and traces")
struct HTMLReportCLITests {
    let cli = FieldtestCLITests()
    static let scenario = FieldtestCLITests.repo.appendingPathComponent("Scenarios/navup-wheelchair.yaml").path

    @Test func runWritesTracesAndTheReportAndReportReadsTheFolderBack() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let page = dir.appendingPathComponent("report.html")
        var r = try cli.run(["run", Self.scenario, "--out", out.path, "--report", page.path])
        #expect(r.status == 0, "\(r.stderr)")
        let folder = out.appendingPathComponent("navup-wheelchair")
        for name in ["events.csv", "latency.csv", "traces.geojson"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "no \(name)")
        }
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("navup-wheelchair") && html.contains("<svg"))
        // It leads with what failed, right after the summary, and says where the run came from.
        let failures = try #require(html.range(of: "<section id=\"failures\">"))
        #expect(try #require(html.range(of: "<section id=\"summary\">")).lowerBound < failures.lowerBound)
        #expect(html.contains("Provenance") && html.contains("Command line") && html.contains("Datasets"))
        r = try cli.run(["report", folder.path, "--output", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("id=\"s-navup-wheelchair\""))
        r = try cli.run(["run", Self.scenario, "--out", out.path, "--trace", "none"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("events.csv").path))
    }

    @Test func reportOfAFolderWithoutRunsExitsTwoAndSaysWhatToGive() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try cli.run(["report", dir.path, "--output", dir.appendingPathComponent("r.html").path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("holds no metrics.csv"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r.html").path))
    }

    /// Two runs of one scenario by two tool commits (`FIELDTEST_COMMIT`): `report` of both draws each
    /// metric over the commits, oldest first, with a table of every metric at every commit.
    @Test func reportOfRunsOfTwoCommitsDrawsTheirHistory() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CompareCLITests.tweets().write(
            to: dir.appendingPathComponent("tweets.csv"), atomically: true, encoding: .utf8)
        try CompareCLITests.scenario.write(
            to: dir.appendingPathComponent("mic.yaml"), atomically: true, encoding: .utf8)
        for (out, commit) in [("old", "1111111aaaa"), ("new", "2222222bbbb")] {
            let r = try cli.run(
                ["run", "mic.yaml", "--out", out, "--quiet"], environment: ["FIELDTEST_COMMIT": commit], in: dir)
            #expect([0, 1].contains(r.status), "\(r.stderr)")
            // run.json times are whole seconds: the second run must finish in a later second than the first
            // for the order to be the runs' (an optimised build runs this scenario in well under a second).
            if out == "old" { Thread.sleep(forTimeInterval: 1.1) }
        }
        // Given newest first: the page still draws the older commit first.
        let r = try cli.run(["report", "new/mic", "old/mic", "--output", "r.html"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: dir.appendingPathComponent("r.html"), encoding: .utf8)
        let section = try #require(html.range(of: "<section id=\"h-mic\" class=\"history\">"))
        #expect(
            html[section.upperBound...].contains("aria-label=\"history of MIC-14 accuracy over 2 commits: 1111111 "))
        #expect(html.contains("Every metric at every commit (table)"))
        let old = try #require(html.range(of: ">1111111</th>"))
        let new = try #require(html.range(of: ">2222222</th>"))
        #expect(old.lowerBound < new.lowerBound)
    }
}
