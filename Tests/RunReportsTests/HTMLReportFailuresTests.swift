import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import RunReports

/// The page leads with what failed: the failures list, REGRESSION marks, provenance and folding.
@Suite("HTML report: failures first")
struct HTMLReportFailuresTests {
    /// A one-case run folder: a passing, a failing, a not-measured and (with `regressed`) a passing row
    /// that regressed against its baseline; `runJSON` is written as `run.json` when given.
    static func caseFolder(
        name: String = "demo", allPass: Bool = false, regressed: Bool = false, runJSON: [String: Any]? = nil
    ) throws -> URL {
        let folder = TemporaryFiles.url("report-fail")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func row(_ metric: String, _ value: Double, samples: Int = 10) -> MetricRow {
            MetricRow(
                scenario: name, runID: "r", seed: 1, requirement: "SKY-P1", metric: metric, kind: .accuracy,
                value: value, unit: "ratio", threshold: 0.9, comparator: .greaterOrEqual, samples: samples)
        }
        var rows = [row("steady_ratio", 0.95), row("dropped_ratio", 0.91)]
        if !allPass { rows += [row("failing_ratio", 0.5), row("unmeasured_ratio", 0, samples: 0)] }
        try AtomicFile.write(MetricsCSV.render(rows), to: folder.appendingPathComponent("metrics.csv"))
        if regressed {
            let check = """
                scenario,seed,requirement,metric,kind,unit,baseline,current,direction,verdict,reason,significant,significance
                \(name),1,SKY-P1,steady_ratio,accuracy,ratio,0.95,0.95,higherIsBetter,unchanged,same,,
                \(name),1,SKY-P1,dropped_ratio,accuracy,ratio,0.99,0.91,higherIsBetter,regression,fell by 0.08,yes,test

                """
            try AtomicFile.write(check, to: folder.appendingPathComponent(BaselineCheckCSV.fileName))
        }
        if let runJSON {
            try JSONSerialization.data(withJSONObject: runJSON).write(to: folder.appendingPathComponent("run.json"))
        }
        return folder
    }

    /// The text of the element with `id`, up to the next section.
    static func section(_ id: String, of html: String) throws -> Substring {
        let start = try #require(html.range(of: "id=\"\(id)\""))
        let rest = html[start.upperBound...]
        return rest[..<(rest.range(of: "<section")?.lowerBound ?? rest.endIndex)]
    }

    /// The `href="#…"` targets in `text`.
    static func links(_ text: Substring) -> [String] {
        text.components(separatedBy: "href=\"#row-").dropFirst().map { "row-" + $0.prefix { $0 != "\"" } }
    }

    @Test func failuresListComesAfterTheSummaryAndLinksEveryFailingRegressedAndUnmeasuredRow() throws {
        let folder = try Self.caseFolder(regressed: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [])
        let summary = try #require(html.range(of: "id=\"summary\""))
        let failuresAt = try #require(html.range(of: "id=\"failures\""))
        let scenarioAt = try #require(html.range(of: "id=\"s-demo\""))
        #expect(summary.lowerBound < failuresAt.lowerBound && failuresAt.lowerBound < scenarioAt.lowerBound)
        let list = try Self.section("failures", of: html)
        for metric in ["failing_ratio", "unmeasured_ratio", "dropped_ratio"] {
            #expect(list.contains(metric), "\(metric)")
        }
        #expect(!list.contains("steady_ratio"))
        #expect(list.contains("0.99"), "the regression's baseline value")
        let targets = Self.links(list)
        #expect(targets.count == 3)
        for target in targets {
            #expect(html.components(separatedBy: "id=\"\(target)\"").count == 2, "\(target) is one row's id")
        }
    }

    @Test func theListShowsAtMostItsLimitAndCountsTheRest() throws {
        let folder = try Self.caseFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = (0..<(HTMLReport.maximumFailureEntries + 100)).map { i in
            MetricRow(
                scenario: "demo", runID: "r", seed: 1, requirement: "SKY-P1", metric: "m\(i)", kind: .accuracy,
                value: 0.5, unit: "ratio", threshold: 0.9, comparator: .greaterOrEqual, samples: 10)
        }
        try AtomicFile.write(MetricsCSV.render(rows), to: folder.appendingPathComponent("metrics.csv"))
        let list = try Self.section("failures", of: try HTMLReport.render(inputs: [folder.path], requirements: []))
        #expect(Self.links(list).count == HTMLReport.maximumFailureEntries)
        #expect(list.contains("\(rows.count) rows failed") && list.contains("100 more not shown"))
    }

    @Test func whenNothingFailedTheListSaysSo() throws {
        let folder = try Self.caseFolder(allPass: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [])
        #expect(try Self.section("failures", of: html).contains("No failing, regressed or not-measured rows"))
    }

    @Test func aFailingCaseOfASweepLinksToItsMetricRow() throws {
        let folder = try HTMLReportTests.sweepFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [])
        let list = try Self.section("failures", of: html)
        #expect(list.contains("demo[devices.phone.network=3g,seed=3]"))
        let targets = Set(Self.links(list))
        #expect(targets.count == 1, "every failing case of one metric links to the sweep's one row of it")
        #expect(html.contains("id=\"\(try #require(targets.first))\""))
    }

    @Test func aRegressedRowIsMarkedRegressionWithBaselineAndCurrentNotPass() throws {
        let folder = try Self.caseFolder(regressed: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [])
        let table = try Self.section("s-demo", of: html)
        let rowStart = try #require(table.range(of: "dropped_"))
        let row = table[rowStart.lowerBound...].prefix { $0 != "\n" }.components(separatedBy: "</tr>")[0]
        #expect(row.contains("badge regression") && row.contains("REGRESSION"))
        #expect(!row.contains("badge pass"))
        #expect(row.contains("baseline 0.99 → now 0.91"))
        // Without baseline information nothing is marked.
        let plain = try Self.caseFolder()
        defer { try? FileManager.default.removeItem(at: plain) }
        let unmarked = try HTMLReport.render(inputs: [plain.path], requirements: [])
        #expect(!unmarked.contains("badge regression"))
    }

    @Test func provenanceNamesToolCommitCommandSystemsAndDatasetsOrSaysNotRecorded() throws {
        let sha = String(repeating: "ab", count: 32)
        let json: [String: Any] = [
            "scenario": "demo", "run_id": "r", "tool_version": "9.9.9", "tool_commit": "0123456789abcdef",
            "command_line": ["fieldtest", "run", "my scenario.yaml"],
            "machine": ["cpu": "test cpu", "cores": 2, "host": "box"],
            "systems": [
                ["capability": "sun", "name": "sunny", "version": "1.2", "sha256": sha, "command": ["./sunny"]]
            ],
            "dataset_files": [["name": "sun-times", "path": "Datasets/sun.csv", "format": "csv", "sha256": sha]],
        ]
        let folder = try Self.caseFolder(runJSON: json)
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = try HTMLReport.render(inputs: [folder.path], requirements: [])
        for text in [
            "fieldtest 9.9.9", "0123456789abcdef", "fieldtest run &apos;my scenario.yaml&apos;", "sunny", "version 1.2",
            "sun-times (Datasets/sun.csv)", sha, "test cpu",
        ] {
            #expect(html.contains(text) || html.contains(text.replacingOccurrences(of: "&apos;", with: "'")), "\(text)")
        }
        #expect(!html.contains("not recorded"))
        var partial = json
        partial["tool_commit"] = nil
        partial["systems"] = nil
        let older = try Self.caseFolder(runJSON: partial)
        defer { try? FileManager.default.removeItem(at: older) }
        let olderPage = try HTMLReport.render(inputs: [older.path], requirements: [])
        #expect(olderPage.contains("commit not recorded"))
        #expect(olderPage.contains("the built-in cores"))
        let bare = try Self.caseFolder()
        defer { try? FileManager.default.removeItem(at: bare) }
        #expect(try HTMLReport.render(inputs: [bare.path], requirements: []).contains("provenance not recorded"))
    }

    @Test func aFailingScenarioIsOpenAndAPassingOneFoldedWithItsCounts() throws {
        let failing = try Self.caseFolder(name: "broken")
        let passing = try Self.caseFolder(name: "fine", allPass: true)
        defer {
            try? FileManager.default.removeItem(at: failing)
            try? FileManager.default.removeItem(at: passing)
        }
        let html = try HTMLReport.render(inputs: [failing.path, passing.path], requirements: [])
        let broken = try Self.section("s-broken", of: html)
        let fine = try Self.section("s-fine", of: html)
        #expect(broken.contains("<details class=\"fold\" open"))
        #expect(fine.contains("<details class=\"fold\">"))
        #expect(fine.contains("<summary>"))
        #expect(broken.contains("1 case · 2 passed · 1 failed · 1 not measured · 0 regressed · 0 info"))
    }
}
