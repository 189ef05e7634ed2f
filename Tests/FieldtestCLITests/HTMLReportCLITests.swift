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
}
