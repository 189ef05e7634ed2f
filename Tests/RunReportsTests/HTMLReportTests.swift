import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import RunReports

/// The HTML page: self-contained, escaped, with sweep plots, latency histograms, baseline deltas
/// and side-by-side columns when their inputs are there.
@Suite("HTML report")
struct HTMLReportTests {
    /// A run folder written the way `fieldtest run` writes one: a sweep of three network presets × three
    /// seeds, a checked accuracy metric that moves with the preset, a latency series, and `run.json`.
    static func sweepFolder(systems: [String]? = nil, offset: Double = 0) throws -> URL {
        let folder = TemporaryFiles.url("report-test")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let presets = ["wifi", "lte", "3g"]
        var rows: [MetricRow] = []
        var latency = "case,time,requirement,metric,seconds\n"
        for (i, preset) in presets.enumerated() {
            for seed in UInt64(1)...3 {
                let label = "demo[devices.phone.network=\(preset),seed=\(seed)]"
                rows.append(
                    MetricRow(
                        scenario: label, runID: "r", seed: seed, requirement: "SKY-P1", metric: "served<ratio>",
                        kind: .accuracy, value: 0.99 - 0.05 * Double(i) - 0.01 * Double(seed) + offset, unit: "ratio",
                        threshold: 0.9, comparator: .greaterOrEqual, samples: 10))
                rows.append(
                    MetricRow(
                        scenario: label, runID: "r", seed: seed, requirement: "SKY-P1", metric: "query_p95",
                        kind: .latency, value: 0.05 * Double(i + 1), unit: "s", threshold: 0.2,
                        comparator: .lessOrEqual, samples: 20))
                for k in 0..<20 {
                    latency +=
                        "\"\(label)\",2023-01-24T06:00:00.000Z,SKY-P1,query,\(0.01 * Double(k + 1) * Double(i + 1))\n"
                }
            }
        }
        try AtomicFile.write(MetricsCSV.render(rows), to: folder.appendingPathComponent("metrics.csv"))
        try AtomicFile.write(latency, to: folder.appendingPathComponent("latency.csv"))
        var json: [String: Any] = [
            "scenario": "demo", "run_id": "r", "started_at": "2026-11-25T20:00:00Z",
            "machine": ["cpu": "test cpu", "cores": "2"],
            "sweep": [
                "parameters": [["name": "devices.phone.network", "values": presets]],
                "seeds": [["from": 1, "count": 3]],
            ],
        ]
        if let systems { json["systems"] = systems.map { ["name": $0] } }
        try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("run.json"))
        return folder
    }

    @Test func sweepOfThreePresetsAndThreeSeedsDrawsOneLinePerSeedWithTheThreshold() throws {
        let folder = try Self.sweepFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ReportRun(metricsFile: folder.appendingPathComponent("metrics.csv"))
        let plots = SweepPlot.plots(rows: run.rows, sweep: try #require(run.sweep))
        let served = try #require(plots.first { $0.metric == "served<ratio>" })
        #expect(served.categories == ["wifi", "lte", "3g"])
        #expect(served.series.map(\.name) == ["seed 1", "seed 2", "seed 3"])
        #expect(served.series.allSatisfy { $0.points.map(\.x) == [0, 1, 2] })
        #expect(served.threshold == 0.9)
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [])
        #expect(html.contains("Sweep: each metric against devices.phone.network"))
        #expect(html.components(separatedBy: "class=\"series s").count - 1 >= 3)
        #expect(html.contains("class=\"threshold\""))
        #expect(html.contains("Latency"))
    }

    @Test func anOutputOverAFileTheReportReadsIsRefused() throws {
        let folder = try Self.sweepFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inside = folder.appendingPathComponent("latency.csv").path
        #expect(throws: OutputPathCheck.OverwritesInput.self) {
            try HTMLReport.render(inputs: [folder.path], requirements: [], output: inside)
        }
        let elsewhere = folder.deletingLastPathComponent().appendingPathComponent("report-\(UUID().uuidString).html")
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [], output: elsewhere.path)
        #expect(html.contains("Sweep: each metric against devices.phone.network"))
    }

    @Test func pageIsSelfContainedAndEscapesWhatItShows() throws {
        let folder = try Self.sweepFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [])
        #expect(!html.contains("<script"))
        #expect(!html.contains("src="))
        #expect(!html.contains("href=\"http"))
        #expect(!html.contains("<link"))
        #expect(html.contains("served&lt;ratio&gt;"))
        #expect(!html.contains("served<ratio>"))
        #expect(html.contains("@media print"))
    }

    @Test func severalSystemsOfOneScenarioStandSideBySide() throws {
        let a = try Self.sweepFolder(systems: ["bundled"])
        let b = try Self.sweepFolder(systems: ["external-api"], offset: -0.2)
        defer {
            try? FileManager.default.removeItem(at: a)
            try? FileManager.default.removeItem(at: b)
        }
        let html = try HTMLReport.render(inputs: [a.path, b.path], requirements: [])
        #expect(html.contains("side-by-side"))
        #expect(html.contains(">bundled</th>") && html.contains(">external-api</th>"))
        // One sweep plot holds both systems' lines, one per system and seed.
        #expect(html.contains("bundled: seed 1") && html.contains("external-api: seed 3"))
    }

    @Test func baselineDeltasAreColouredByDirection() throws {
        let folder = try Self.sweepFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = try MetricsCSV.read(folder.appendingPathComponent("metrics.csv"))
        var worse = rows
        for i in worse.indices where worse[i].kind == .accuracy { worse[i].value -= 0.5 }
        worse = worse.map {
            MetricRow(
                scenario: $0.scenario, runID: $0.runID, seed: $0.seed, requirement: $0.requirement, metric: $0.metric,
                kind: $0.kind, value: $0.value, unit: $0.unit, threshold: $0.threshold, comparator: $0.comparator,
                samples: $0.samples)
        }
        let check = BaselineCheck.compare(current: worse, baseline: rows)
        try AtomicFile.write(
            BaselineCheckCSV.render(check), to: folder.appendingPathComponent(BaselineCheckCSV.fileName))
        let run = try ReportRun(metricsFile: folder.appendingPathComponent("metrics.csv"))
        #expect(run.check.filter { $0.verdict == .regression }.count == 9)
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [])
        #expect(html.contains("delta worse"))
        #expect(html.contains("Against the baseline"))
    }

    @Test func aFolderWithoutMetricsIsAnErrorThatSaysWhatToGive() throws {
        let empty = TemporaryFiles.url("report-empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: ReportError.noMetrics(empty.path)) { try ReportRun.locate([empty.path]) }
        #expect(ReportError.noMetrics("x").description.contains("give a run folder"))
    }
}
