import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Plot
import Testing

@testable import RunReports

/// Runs of one scenario from several tool commits: the History section (asv-style), its order, its
/// intervals and threshold, the latency group and the table fallback.
@Suite("HTML report: history over commits")
struct HTMLReportHistoryTests {
    static let header = MetricsCSV.columns.joined(separator: ",")

    /// A run folder of scenario `demo` made with `commit` (nil: none recorded), ending at `finished`:
    /// an accuracy row (`error`, with its interval, threshold ≤ 1 s), a flat count row and a checked
    /// latency row.
    static func runFolder(commit: String?, finished: String, error: Double, machine: String = "m1") throws -> URL {
        let folder = TemporaryFiles.url("history")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let status = error <= 1 ? "pass" : "fail"
        let rows = [
            header,
            "demo,r,1,SKY-P2,sun_event_abs_error_mean,accuracy,\(error),s,1,<=,\(status),40,,\(error * 0.8),\(error * 1.2),clear",
            "demo,r,1,SKY-P2,polar_event_mismatches,count,0,count,0,<=,pass,12,,,,",
            "demo,r,1,SKY-P2,sun_events_compared,count,40,count,,,info,40,,,,",
            "demo,r,1,SKY-P1,location_query_latency_p95,latency,\(error / 100),s,5,<=,pass,120,,,,",
        ]
        try AtomicFile.write(rows.joined(separator: "\n") + "\n", to: folder.appendingPathComponent("metrics.csv"))
        var json: [String: Any] = [
            "format_version": 2, "scenario": "demo", "run_id": "run-\(finished)", "started_at": finished,
            "finished_at": finished, "machine": ["machine_id": machine, "host": "h"],
        ]
        if let commit { json["tool_commit"] = commit }
        try JSONSerialization.data(withJSONObject: json).write(to: folder.appendingPathComponent("run.json"))
        return folder
    }

    static func commit(_ c: Character) -> String { String(repeating: c, count: 40) }

    @Test func commitsRunInTheOrderFirstRunAndACommitRunTwiceShowsItsLatestRun() throws {
        let folders = [
            try Self.runFolder(commit: Self.commit("b"), finished: "2026-11-27T10:00:00Z", error: 0.6),
            try Self.runFolder(commit: Self.commit("a"), finished: "2026-11-26T10:00:00Z", error: 0.5),
            try Self.runFolder(commit: Self.commit("c"), finished: "2026-11-28T10:00:00Z", error: 1.5),
            // A re-run of commit a after c: a keeps its place, with this run's value.
            try Self.runFolder(commit: Self.commit("a"), finished: "2026-11-28T12:00:00Z", error: 0.55),
            try Self.runFolder(commit: nil, finished: "2026-11-28T13:00:00Z", error: 9),
        ]
        defer { folders.forEach { try? FileManager.default.removeItem(at: $0) } }
        let runs = try folders.map { try ReportRun(metricsFile: $0.appendingPathComponent("metrics.csv")) }
        let history = try #require(RunHistory.of(runs))
        #expect(history.commits.map(\.short) == ["aaaaaaa", "bbbbbbb", "ccccccc"])
        #expect(history.commits.map(\.runs) == [2, 1, 1])
        #expect(history.commits[0].time == "2026-11-28T12:00:00Z")
        #expect(history.withoutCommit == 1)
        let error = try #require(history.series.first { $0.metric == "sun_event_abs_error_mean" })
        #expect(error.points.map(\.value) == [0.55, 0.6, 1.5])
        #expect(error.points.map(\.status) == [.pass, .pass, .fail])
        #expect(error.points[1].low == 0.48 && error.points[1].high == 0.72)
        #expect(error.threshold == 1 && error.varies)
        let (accuracy, latency) = history.drawn()
        // The moving metric; flat counts are left to the table.
        #expect(accuracy.map(\.metric) == ["sun_event_abs_error_mean"])
        #expect(latency.map(\.metric) == ["location_query_latency_p95"])
        // One commit only: no history.
        #expect(RunHistory.of(Array(runs[1...1]) + [runs[3]]) == nil)
    }

    @Test func theSectionDrawsEachMetricOverCommitsWithIntervalsThresholdAndATable() throws {
        let folders = [
            try Self.runFolder(commit: Self.commit("a"), finished: "2026-11-26T10:00:00Z", error: 0.5),
            try Self.runFolder(commit: Self.commit("b"), finished: "2026-11-27T10:00:00Z", error: 0.6),
            try Self.runFolder(commit: Self.commit("c"), finished: "2026-11-28T10:00:00Z", error: 1.5, machine: "m2"),
        ]
        defer { folders.forEach { try? FileManager.default.removeItem(at: $0) } }
        let html = try HTMLReport.render(inputs: folders.map(\.path), requirements: [])
        let start = try #require(html.range(of: "id=\"h-demo\""))
        let rest = html[start.lowerBound...]
        let history = String(rest[..<(rest.range(of: "</section>")?.upperBound ?? rest.endIndex)])
        #expect(history.contains("History: demo over commits"))
        let label = "aria-label=\"history of SKY-P2 sun_event_abs_error_mean over 3 commits: aaaaaaa 500 ms"
        #expect(history.contains(label), "\(history.prefix(3000))")
        #expect(history.contains("ccccccc 1.5 s [1.2 s, 1.8 s] FAIL, threshold ≤ 1 s\""))
        // Three points with an interval each (a bar and two caps), the failing one red.
        #expect(history.components(separatedBy: "class=\"ci same\"").count - 1 == 6)
        #expect(history.components(separatedBy: "class=\"ci worse\"").count - 1 == 3)
        #expect(history.contains("class=\"threshold\""))
        for short in ["aaaaaaa", "bbbbbbb", "ccccccc"] { #expect(history.contains(">\(short)</text>")) }
        #expect(!history.contains("history of SKY-P2 polar_event_mismatches"))
        #expect(!history.contains("history of SKY-P2 sun_events_compared"))
        #expect(history.contains("2 count or rate metrics are the same at every commit and not drawn"))
        #expect(history.contains("Latency over commits"))
        #expect(history.contains("history of SKY-P1 location_query_latency_p95"))
        #expect(history.contains("2 machines"))
        // The table: every metric (the informational count too), one column per commit in order.
        #expect(history.contains("<details><summary>Every metric at every commit (table)</summary>"))
        let a = try #require(history.range(of: ">500 ms [400 ms, 600 ms]<"))
        let b = try #require(history.range(of: ">600 ms [480 ms, 720 ms]<"))
        #expect(a.lowerBound < b.lowerBound)
        #expect(history.contains("sun_<wbr/>events_<wbr/>compared"))
        // Before the side-by-side table of the same runs.
        let sideBySide = try #require(html.range(of: "class=\"requirements"))
        #expect(start.lowerBound < sideBySide.lowerBound)
    }

    @Test func runsOfOneCommitHaveNoHistoryAndAPassingScenarioOpensForItsHistory() throws {
        let folders = [
            try Self.runFolder(commit: Self.commit("a"), finished: "2026-11-26T10:00:00Z", error: 0.5),
            try Self.runFolder(commit: Self.commit("a"), finished: "2026-11-27T10:00:00Z", error: 0.6),
            try Self.runFolder(commit: Self.commit("b"), finished: "2026-11-28T10:00:00Z", error: 0.7),
        ]
        defer { folders.forEach { try? FileManager.default.removeItem(at: $0) } }
        let one = try HTMLReport.render(inputs: folders.prefix(2).map(\.path), requirements: [])
        #expect(!one.contains("id=\"h-demo\"") && !one.contains("history of"))
        #expect(!one.contains("<details class=\"fold\" open"), "every row passes: folded")
        let two = try HTMLReport.render(inputs: folders.map(\.path), requirements: [])
        #expect(two.contains("id=\"h-demo\""))
        #expect(two.contains("<details class=\"fold\" open"), "the history is shown")
    }

    @Test func atMostTheLatestSixtyCommitsAreShown() throws {
        let count = HTMLReport.maximumHistoryCommits + 2
        let folders = try (0..<count).map { i in
            try Self.runFolder(
                commit: String(format: "%07d", i) + String(repeating: "f", count: 33),
                finished: String(format: "2026-%02d-%02dT10:00:00Z", 1 + i / 28, 1 + i % 28), error: 0.5)
        }
        defer { folders.forEach { try? FileManager.default.removeItem(at: $0) } }
        let html = try HTMLReport.render(inputs: folders.map(\.path), requirements: [])
        #expect(html.contains("The 2 oldest commits are not shown."))
        #expect(html.contains("over \(count - 2) commits"))
        #expect(!html.contains(">0000001</th>") && html.contains(">0000002</th>") && html.contains(">0000061</th>"))
    }

    @Test func theChartNamesAtMostSixCommitsAlwaysTheLatest() {
        let commits = (0..<20).map { String(format: "c%06d", $0) }
        let points = (0..<20).map {
            HistoryPoint(index: $0, value: Double($0), low: nil, high: nil, failed: false, tip: "")
        }
        let chart = Charts.historyChart(
            title: "t", commits: commits, yLabel: "y", points: points, threshold: nil, thresholdLabel: "",
            format: { v, _ in String(v) })
        let svg = Node<HTML.BodyContext>.div(chart).render()
        let named = commits.filter { svg.contains(">\($0)</text>") }
        #expect(named.count <= Charts.historyLabels && named.contains("c000019"), "\(named)")
        #expect(svg.components(separatedBy: "<circle").count - 1 == 20)
    }
}
