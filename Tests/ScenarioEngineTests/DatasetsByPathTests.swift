import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import ScenarioEngine

/// Datasets named by path in `datasets:` (`{name, path, format}`), as fields see them, and what a
/// run records of them.
@Suite("Datasets by path")
struct DatasetsByPathTests {
    static let repo = ScenarioValidationTests.repo
    let loader = ScenarioLoader(manifest: try! DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))

    /// A folder with `data/campus.osm` (a bundled campus), `data/lcd.csv` (a bundled LCD file) and
    /// `data/notes.txt` (no header of any layout).
    static func folder() throws -> URL {
        let dir = TemporaryFiles.url("bypath")
        let data = dir.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: repo.appendingPathComponent("Datasets/maps/universidad_central_del_ecuador_campus.osm"),
            to: data.appendingPathComponent("campus.osm"))
        try FileManager.default.copyItem(
            at: repo.appendingPathComponent("Datasets/weather/LCD_USW00014939_Lincoln_2023JanFeb.csv"),
            to: data.appendingPathComponent("lcd.csv"))
        try "first line\nsecond line\n".write(
            to: data.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)
        return dir
    }

    /// `navUPScenario` replaying `entry` (the text of one `datasets:` item) as its campus `campus`.
    static func scenario(_ entries: String, campus: String = "home-campus") -> String {
        navUPScenario.replacingOccurrences(
            of: "datasets: [campus-quito, campus-montgomery, ujiindoorloc-train-a, ujiindoorloc-train-b]",
            with: "datasets:\n\(entries)"
        ).replacingOccurrences(of: "  campus: campus-quito", with: "  campus: \(campus)")
    }

    func messages(_ text: String, folder: URL) -> [String] {
        do {
            _ = try loader.parse(text, file: "x.yaml", folder: folder)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aFileByPathIsADatasetOfItsNameWithTheFormatItShows() throws {
        let dir = try Self.folder()
        let s = try loader.parse(
            Self.scenario("  - {name: home-campus, path: data/campus.osm}"), file: "x.yaml", folder: dir)
        #expect(s.datasets == ["home-campus"])
        #expect(s.datasetFiles.map(\.format) == [.osmXML])
        #expect(
            s.datasetFiles.first?.url.path == dir.appendingPathComponent("data/campus.osm").standardizedFileURL.path)
        #expect(s.datasetFiles.first?.line == 10)
        // An absolute path, and a format given that the file agrees with.
        let absolute = dir.appendingPathComponent("data/campus.osm").path
        let t = try loader.parse(
            Self.scenario("  - {name: home-campus, path: \(absolute), format: osm-xml}"), file: "x.yaml",
            folder: URL(fileURLWithPath: "/"))
        #expect(t.datasetFiles.first?.url.path == absolute)
        let entry = try #require(t.datasetEntries.first)
        #expect(entry.folder?.appendingPathComponent(entry.file).path == absolute)
    }

    @Test func problemsAreLocatedAndSayWhatToChange() throws {
        let dir = try Self.folder()
        let cases: [(entries: String, campus: String, expected: String)] = [
            (
                "  - {name: home-campus, path: data/campsu.osm}", "home-campus",
                "x.yaml:10:31: error: 'datasets[0].path': data/campsu.osm does not exist (did you mean 'campus.osm'?)"
            ),
            (
                "  - {name: home-campus, path: data/campus.osm, format: ujiindoorloc}", "home-campus",
                "error: 'datasets[0].format': data/campus.osm is osm-xml data (the extension .osm), not ujiindoorloc"
            ),
            (
                "  - {name: home-campus, path: data/lcd.csv}", "home-campus",
                "error: 'parameters.campus': dataset 'home-campus' is noaa-lcd data; this field reads osm-xml or osm-pbf data"
            ),
            (
                "  - {name: home-campus, path: data/notes.txt}", "home-campus",
                "x.yaml:10:5: error: 'datasets[0]': cannot tell the format of data/notes.txt (no header of a known layout in its first line); add 'format:'"
            ),
            (
                "  - {name: home campus, path: data/campus.osm}", "campus-quito",
                "error: 'datasets[0].name': 'home campus' cannot be a dataset name"
            ),
            (
                "  - {name: home-campus, path: data/campus.osm}", "home-campsu",
                "unknown dataset 'home-campsu' (did you mean 'home-campus'?)"
            ),
            (
                "  - {name: home-campus, path: data/campus.osm}\n  - home-campus", "home-campus",
                "x.yaml:11:5: error: dataset 'home-campus' is listed twice"
            ),
        ]
        for c in cases {
            let found = messages(Self.scenario(c.entries, campus: c.campus), folder: dir)
            #expect(found.contains { $0.contains(c.expected) }, "\(c.entries): \(found)")
        }
        // A file that is missing is one problem: the fields naming it are not reported again as unknown.
        #expect(messages(Self.scenario(cases[0].entries), folder: dir).count == 1)
    }

    @Test func aSessionKeepsTheValuesParsedUnderANameApartForEachFile() throws {
        let dir = try Self.folder()
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        func entry(_ file: String) -> DatasetEntry {
            ScenarioDataset(
                name: "home", path: file, url: dir.appendingPathComponent(file), format: .osmXML, line: 1
            ).entry
        }
        let a = store.session(adding: [entry("data/campus.osm")])
        let b = store.session(adding: [entry("data/lcd.csv")])
        #expect(try a.url("home").lastPathComponent == "campus.osm")
        #expect(try b.url("home").lastPathComponent == "lcd.csv")
        #expect(try a.cached("k") { "a" } == "a")
        #expect(try b.cached("k") { "b" } == "b")
        #expect(try store.session(adding: [entry("data/campus.osm")]).cached("k") { "again" } == "a")
        #expect(try store.session().cached("k") { "bundled" } == "bundled")
        // A loader's report of a file is seen by every session.
        var report = LoadReport()
        report.rowsSkipped = 2
        try a.recordLoadReport(report, for: dir.appendingPathComponent("data/campus.osm"))
        #expect(store.session().loadReport(for: dir.appendingPathComponent("data/./campus.osm"))?.rowsSkipped == 2)
    }

    @Test func theTimeWindowIsCheckedAgainstTheRecording() {
        let day = 86_400.0
        #expect(ScenarioPreflight.window(start: 0, end: day, recording: 0, 2 * day, what: "w", at: nil) == nil)
        let partly = ScenarioPreflight.window(start: day, end: 3 * day, recording: 0, 2 * day, what: "w", at: nil)
        #expect(partly?.severity == .warning)
        #expect(
            partly?.message.hasPrefix(
                "part of the scenario's time window (1970-01-02T00:00:00Z to 1970-01-04T00:00:00Z) is outside w, recorded from 1970-01-01T00:00:00Z to 1970-01-03T00:00:00Z"
            ) == true)
        let outside = ScenarioPreflight.window(start: 3 * day, end: 4 * day, recording: 0, 2 * day, what: "w", at: nil)
        #expect(outside?.severity == .error)
        #expect(outside?.message.contains("is wholly outside w") == true)
    }

    @Test func runJSONRecordsEachDatasetAndOldReportsStillRead() throws {
        var record = RunRecord(
            tool: "fieldtest", toolVersion: "1", scenario: "s", scenarioFile: "s.yaml", scenarioSHA256: "x", seed: 1,
            runID: "r", startedAt: "t", datasets: ["home": "ab"], machine: [:], cases: 1, shard: nil, events: 0,
            passed: 0, failed: 0, informational: 0)
        let dir = TemporaryFiles.url("record")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Without the block (as reports written before it): no key, and it reads back as nil.
        try RunReport.write(rows: [], record: record, to: dir, junit: nil)
        let old = try String(contentsOf: dir.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(!old.contains("dataset_files"))
        #expect(try RunReport.readRecord(dir.appendingPathComponent("run.json")).datasetFiles == nil)
        record.datasetFiles = [
            DatasetFileRecord(
                name: "home", path: "data/campus.osm", format: "osm-xml", rows: 1933, sha256: "ab", rowsSkipped: 1,
                skippedReasons: ["data/campus.osm:3: error: bad"])
        ]
        try RunReport.write(rows: [], record: record, to: dir, junit: nil)
        let text = try String(contentsOf: dir.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(text.contains("\"rows_skipped\" : 1") && text.contains("\"skipped_reasons\""))
        #expect(try RunReport.readRecord(dir.appendingPathComponent("run.json")).datasetFiles == record.datasetFiles)
    }
}
