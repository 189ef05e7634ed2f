import Foundation
import Testing

/// `merge RUN_FOLDER… --out DIR` writes a complete run folder whose report equals a one-machine
/// run's of the same sweep, figure for figure.
@Suite("fieldtest merge --out: a complete run folder")
struct MergeFolderCLITests {
    let cli = FieldtestCLITests()

    /// A small sweep in Lincoln: one hour, wifi and 3g × seeds 1 and 2 (4 cases), with latency,
    /// accuracy items, events and map features.
    func sweep(in dir: URL) throws -> URL {
        let file = dir.appendingPathComponent("tiny.yaml")
        try """
        version: 1
        name: tiny-sweep
        app: skyscape
        seed: 12
        time: {start: 2023-01-24T06:00:00Z, duration: 1h, timezone: America/Chicago}
        datasets: [noaa-lcd-lincoln-2023, us-cities]
        devices:
          - {name: phone, gps: urban, network: 3g, position: {latitude: 40.8136, longitude: -96.7026}}
        actors:
          - name: ana
            device: phone
            actions:
              - {at: 1m, do: search, query: "Lincoln"}
              - {at: 4m, do: add-favourite, place: "Lincoln"}
              - {at: 5m, do: add-favourite, place: "Omaha"}
              - {at: 15m, every: 20m, do: view-details, place: "Lincoln"}
              - {at: 20m, do: open-calendar, place: "Lincoln", day: 0}
              - {at: 30m, do: set-reminder, place: "Lincoln", event: sunset, day: 0}
        feeds:
          - {kind: weather-refresh, every: 5m, dataset: noaa-lcd-lincoln-2023}
        requirements: [SKY-P1, SKY-P2, SKY-D1, SKY-Q1]
        sweep:
          parameters:
            devices.phone.network: [wifi, 3g]
          seeds: [1, 2]

        """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// Each figure's accessible name with its numbers aside, as in deploy/slurm/test-cluster.sh.
    func figures(_ html: String) -> [String] {
        html.matches(of: /aria-label="([^"]*)"/).map {
            String($0.1).replacing(/[0-9][0-9.,]*/, with: "#")
        }
    }

    @Test func aMergedFolderReportsAsTheOneMachineRun() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try sweep(in: dir).path
        var r = try cli.run(["run", scenario, "--out", "whole", "--quiet"], in: dir)
        #expect(r.status <= 1, "\(r.stderr)")
        for i in 0..<2 {
            r = try cli.run(["run", scenario, "--shard", "\(i)/2", "--out", "s\(i)", "--quiet"], in: dir)
            #expect(r.status <= 1, "\(r.stderr)")
        }
        // Folders of run folders, as a batch system leaves them.
        r = try cli.run(["merge", "s0", "s1", "--out", "merged"], in: dir)
        #expect(r.status <= 1 && r.stderr.contains("merge: wrote merged/tiny-sweep"), "\(r.stderr)")
        let merged = dir.appendingPathComponent("merged/tiny-sweep")
        let whole = dir.appendingPathComponent("whole/tiny-sweep")
        for name in ["items.csv", "events.csv", "traces.geojson"] {
            #expect(
                try text(merged.appendingPathComponent(name)) == text(whole.appendingPathComponent(name)), "\(name)")
        }
        // metrics.csv: the same rows but the run_id, latency rows aside (their values are measured on the clock).
        func runID(_ folder: URL) throws -> String {
            let json = try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("run.json")))
            return try #require((json as? [String: Any])?["run_id"] as? String)
        }
        let metrics = try text(merged.appendingPathComponent("metrics.csv")).replacingOccurrences(
            of: try runID(merged), with: try runID(whole)
        ).split(separator: "\n")
        let wholeMetrics = try text(whole.appendingPathComponent("metrics.csv")).split(separator: "\n")
        #expect(metrics.count == wholeMetrics.count && metrics.count > 4)
        #expect(metrics.filter { !$0.contains(",latency,") } == wholeMetrics.filter { !$0.contains(",latency,") })
        let histogram = try text(merged.appendingPathComponent("latency-histogram.csv"))
        #expect(!histogram.isEmpty)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: merged.appendingPathComponent("run.json")))
                as? [String: Any])
        let merge = try #require(json["merge"] as? [String: Any])
        #expect(json["cases"] as? Int == 4 && (merge["cases"] as? [Any])?.count == 4 && json["shard"] == nil)
        #expect((merge["shards"] as? [Any])?.count == 2 && merge["complete"] as? Bool == true)
        // The merged run.json and CSV files keep to the published contracts.
        let schema = try JSONSchemaSubset(file: FieldtestCLITests.repo.appendingPathComponent("docs/schemas/run.json"))
        #expect(try schema.errors(json) == [])
        let tables = PublishedTableSchemasCLITests()
        for name in ["metrics", "items", "events", "latency", "latency-histogram"] {
            try tables.expectValid(merged.appendingPathComponent(name + ".csv"), name)
        }

        r = try cli.run(["report", "merged", "--output", "merged.html"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        r = try cli.run(["report", "whole", "--output", "whole.html"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let a = figures(try text(dir.appendingPathComponent("merged.html")))
        let b = figures(try text(dir.appendingPathComponent("whole.html")))
        #expect(!a.isEmpty && a == b, "\(zip(a, b).filter { $0 != $1 }.prefix(5))")
        // check reads the merged metrics.csv (every row carries the merged run's run_id).
        r = try cli.run(
            ["check", "merged/tiny-sweep/metrics.csv", "--baseline", "whole/tiny-sweep/metrics.csv"], in: dir)
        #expect(r.status <= 1, "\(r.stderr)")
    }

    @Test func aMissingShardWritesNothingAndOutputsNeverOverwriteInputs() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = try sweep(in: dir).path
        let r0 = try cli.run(["run", scenario, "--shard", "0/2", "--out", "s0", "--quiet"], in: dir)
        #expect(r0.status <= 1, "\(r0.stderr)")
        var r = try cli.run(["merge", "s0", "--out", "merged"], in: dir)
        #expect(r.status == 1 && r.stderr.contains("(shard 1/2)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("merged").path))
        r = try cli.run(["merge", "s0", "--out", "merged", "--allow-partial"], in: dir)
        #expect(r.status <= 1, "\(r.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: dir.appendingPathComponent("merged/tiny-sweep/run.json"))) as? [String: Any])
        #expect((json["merge"] as? [String: Any])?["complete"] as? Bool == false)
        for out in ["s0", "s0/tiny-sweep", "."] {
            r = try cli.run(["merge", "s0", "--out", out, "--allow-partial"], in: dir)
            #expect(r.status == 2 && r.stderr.contains("error:"), "\(out): \(r.stderr)")
        }
        // A bad row in a shard's file: file, line and field, exit 2, nothing replaced.
        let items = dir.appendingPathComponent("s0/tiny-sweep/items.csv")
        var lines = try text(items).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("x,SKY-P1,m,i,e,a,maybe,", at: 1)
        try lines.joined(separator: "\n").write(to: items, atomically: true, encoding: .utf8)
        let before = try text(dir.appendingPathComponent("merged/tiny-sweep/run.json"))
        r = try cli.run(["merge", "s0", "--out", "merged", "--allow-partial"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("s0/tiny-sweep/items.csv:2"), "\(r.stderr)")
        #expect(r.stderr.contains("correct"), "\(r.stderr)")
        #expect(try text(dir.appendingPathComponent("merged/tiny-sweep/run.json")) == before)
        // --out and --output are one or the other.
        r = try cli.run(["merge", "s0", "--out", "m2", "--output", "m.csv"], in: dir)
        #expect(r.status == 2)
    }
}
