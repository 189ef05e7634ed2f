import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// `merge --out`: each file of the shards' run folders merges, case by case in sweep order, into
/// the file a one-machine run of the whole sweep writes.
@Suite("Run folder merge: every file of a run folder")
struct RunFolderMergeTests {
    let loader = ScenarioLoader(datasetNames: nil)

    /// A 2 presets × 2 seeds sweep: 4 cases.
    func sweep() throws -> Scenario {
        try loader.parse(
            miCityScenario + "sweep:\n  parameters:\n    devices.phone.network: [wifi, 3g]\n  seeds: [1, 2]\n",
            file: "x.yaml")
    }

    /// Case `c`'s trace: an event, a latency sample, a campus every case draws alike, and a route of its own.
    func trace(_ c: ScenarioCase) -> TraceFiles.Case {
        var t = CaseTrace(app: "micity")
        let at = 1_700_000_000.0 + Double(c.index)
        t.events = [
            TraceEvent(time: at, device: "phone", requirement: "MIC-12", metric: "a", value: Double(c.index), unit: "s")
        ]
        t.latency = [
            TraceLatencySample(time: at, requirement: "MIC-12", metric: "load", seconds: 0.01 * Double(c.index + 1))
        ]
        let campus = TraceGeometry.polygon([
            GeoPoint(latitude: 1, longitude: 1), GeoPoint(latitude: 1, longitude: 2),
            GeoPoint(latitude: 2, longitude: 2),
        ])
        t.features = [
            TraceFeature(kind: "campus", time: nil, geometry: campus),
            TraceFeature(
                kind: "route", time: at, device: "phone",
                geometry: .lineString([
                    GeoPoint(latitude: 1, longitude: 1), GeoPoint(latitude: 1.5, longitude: 1 + Double(c.index)),
                ])),
        ]
        if c.index == 1 { t.droppedFeatures = 3 }
        return TraceFiles.Case(label: c.label, start: 1_700_000_000, trace: t)
    }

    /// The rows of case `c` under run `runID`.
    func rows(_ c: ScenarioCase, runID: String) -> [MetricRow] {
        ["a", "b"].map { metric in
            MetricRow(
                scenario: c.label, runID: runID, seed: c.scenario.seed, requirement: "MIC-12", metric: metric,
                kind: .accuracy, value: Double(c.index), unit: "s", threshold: 10, comparator: .lessOrEqual,
                samples: 1)
        }
    }

    /// The run folder `run` writes for `cases` of `s` (the whole sweep, or one shard of it).
    func writeFolder(_ s: Scenario, cases: [ScenarioCase], shard: String?, runID: String, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func put(_ text: String, _ name: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try put(MetricsCSV.render(cases.flatMap { rows($0, runID: runID) }), "metrics.csv")
        try put(
            ItemsCSV.header
                + cases.map {
                    ItemsCSV.rows(
                        [
                            ItemRecord(
                                requirement: "MIC-12", metric: "a",
                                outcome: .init(
                                    item: "tweet, \"\($0.index)\"", expected: "x", answer: "y", correct: true))
                        ],
                        case: $0.label)
                }.joined(), ItemsCSV.fileName)
        let traces = cases.map(trace)
        try put(TraceFiles.events(traces), TraceFiles.eventsFile)
        try put(TraceFiles.latency(traces), TraceFiles.latencyFile)
        try put(TraceFiles.geoJSON(traces, level: .summary), TraceFiles.geoJSONFile)
        try put(
            TraceFiles.latencyHistogramColumns.joined(separator: ",") + "\n"
                + cases.map {
                    TraceFiles.latencyHistogramRows(
                        [
                            .init(
                                requirement: "MIC-12", metric: "load", seconds: [0.001, 0.002 * Double($0.index + 1)],
                                counts: [3, 2])
                        ],
                        case: $0.label)
                }.joined(), TraceFiles.latencyHistogramFile)
        var record = RunRecord(
            tool: "fieldtest", toolVersion: "1", scenario: s.name, scenarioFile: "x.yaml", scenarioSHA256: "ab",
            seed: 1, runID: runID, startedAt: "2026-01-01T00:00:0\(shard?.first ?? "0")Z",
            datasets: ["tweets": String(repeating: "a", count: 64)], machine: ["host": "h", "cpu": "c", "cores": "2"],
            cases: cases.count, shard: shard, events: 10 * cases.count,
            passed: 2 * cases.count, failed: 0, informational: 0, notMeasured: 0, sweep: SweepRecord(s))
        record.toolCommit = "c0ffee"
        try RunReport.writeRecord(record, to: folder)
    }

    /// The one-machine folder and the folder merged from `count` shards, and the merge's report.
    func mergedAndWhole(_ dir: URL, shards count: Int = 2) throws -> (merged: URL, whole: URL, report: MergeReport) {
        let s = try sweep()
        let all = ScenarioRunner.cases(of: s)
        let whole = dir.appendingPathComponent("whole")
        try writeFolder(s, cases: all, shard: nil, runID: "whole", to: whole)
        var files: [String] = []
        for i in 0..<count {
            let folder = dir.appendingPathComponent("shard-\(i)/mood")
            try writeFolder(
                s, cases: ScenarioRunner.shard(all, index: i, count: count), shard: "\(i)/\(count)", runID: "run-\(i)",
                to: folder)
            files.append(folder.appendingPathComponent("metrics.csv").path)
        }
        let inputs = try ShardMerge.read(files: files)
        let report = try ShardMerge.merge(inputs)
        let out = dir.appendingPathComponent("merged")
        let written = try RunFolderMerge.write(
            report, inputs: inputs, to: out.path, commandLine: ["fieldtest", "merge"], runID: "m")
        #expect(written.notes.isEmpty, "\(written.notes)")
        return (out.appendingPathComponent("mood"), whole, report)
    }

    func text(_ folder: URL, _ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    func scratch() throws -> URL {
        let dir = TemporaryFiles.url("folder-merge")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func eachTraceAndItemFileEqualsTheOneMachineRunsByteForByte() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (merged, whole, _) = try mergedAndWhole(dir)
        for name in [
            ItemsCSV.fileName, TraceFiles.eventsFile, TraceFiles.latencyFile, TraceFiles.latencyHistogramFile,
            TraceFiles.geoJSONFile,
        ] {
            #expect(try text(merged, name) == text(whole, name), "\(name)")
        }
        // The campus every case draws is written once, as in the one-machine file.
        #expect(try text(merged, TraceFiles.geoJSONFile).components(separatedBy: "\"kind\":\"campus\"").count == 2)
    }

    @Test func metricsCarryTheMergedRunIDInSweepOrder() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (merged, whole, _) = try mergedAndWhole(dir)
        #expect(
            try text(merged, "metrics.csv")
                == text(whole, "metrics.csv").replacingOccurrences(of: ",whole,", with: ",m,"))
    }

    @Test func runJSONCountsTheMergedRowsAndListsShardsAndCases() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (merged, _, _) = try mergedAndWhole(dir)
        let r = try RunReport.readRecord(merged.appendingPathComponent("run.json"))
        #expect(r.runID == "m" && r.shard == nil && r.cases == 4 && r.passed == 8 && r.failed == 0)
        #expect(r.events == 40 && r.formatVersion == RunRecord.currentFormatVersion && r.toolCommit == "c0ffee")
        #expect(r.startedAt == "2026-01-01T00:00:00Z" && r.commandLine == ["fieldtest", "merge"])
        let m = try #require(r.merge)
        #expect(m.complete && m.missing.isEmpty)
        #expect(m.shards.map(\.runID) == ["run-0", "run-1"] && m.shards.map(\.shard) == ["0/2", "1/2"])
        #expect(m.cases.map(\.index) == [0, 1, 2, 3] && m.cases.map(\.runID) == ["run-0", "run-1", "run-0", "run-1"])
        #expect(m.cases[1].label == "mood[devices.phone.network=wifi,seed=2]")
    }

    @Test func aSecondMergeReplacesItsOwnFolderButNotAForeignOne() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try mergedAndWhole(dir)
        _ = try mergedAndWhole(dir)  // over the first merge's folder
        let out = dir.appendingPathComponent("merged")
        try "mine".write(to: out.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let metrics = dir.appendingPathComponent("shard-0/mood/metrics.csv").path
        #expect(throws: RunFolderMergeError.foreignContent(out: out.path, names: ["notes.txt"])) {
            try RunFolderMerge.checkOutput(out.path, metricsFiles: [metrics])
        }
        // An --out that is or holds an input folder is refused.
        for bad in ["shard-0/mood", "shard-0", ""].map({ dir.appendingPathComponent($0).path }) {
            #expect(throws: RunFolderMergeError.self) { try RunFolderMerge.checkOutput(bad, metricsFiles: [metrics]) }
        }
    }

    @Test func aFileOneShardLacksIsLeftOutWithANote() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try sweep()
        let all = ScenarioRunner.cases(of: s)
        var files: [String] = []
        for i in 0..<2 {
            let folder = dir.appendingPathComponent("shard-\(i)")
            try writeFolder(
                s, cases: ScenarioRunner.shard(all, index: i, count: 2), shard: "\(i)/2", runID: "r\(i)", to: folder)
            files.append(folder.appendingPathComponent("metrics.csv").path)
        }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("shard-1/\(TraceFiles.eventsFile)"))
        let inputs = try ShardMerge.read(files: files)
        let out = dir.appendingPathComponent("merged")
        let written = try RunFolderMerge.write(
            try ShardMerge.merge(inputs), inputs: inputs, to: out.path, commandLine: [])
        #expect(written.notes.count == 1 && written.notes[0].contains("mood/events.csv is not written"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("mood/events.csv").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("mood/latency.csv").path))
    }

    @Test func aBadRowNamesFileLineAndFieldAndNothingIsWritten() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try sweep()
        let all = ScenarioRunner.cases(of: s)
        var files: [String] = []
        for i in 0..<2 {
            let folder = dir.appendingPathComponent("shard-\(i)")
            try writeFolder(
                s, cases: ScenarioRunner.shard(all, index: i, count: 2), shard: "\(i)/2", runID: "r\(i)", to: folder)
            files.append(folder.appendingPathComponent("metrics.csv").path)
        }
        let histogram = dir.appendingPathComponent("shard-1/\(TraceFiles.latencyHistogramFile)")
        try (try String(contentsOf: histogram, encoding: .utf8)).replacingOccurrences(of: ",3\n", with: ",x\n")
            .write(to: histogram, atomically: true, encoding: .utf8)
        let inputs = try ShardMerge.read(files: files)
        let out = dir.appendingPathComponent("merged")
        do {
            _ = try RunFolderMerge.write(try ShardMerge.merge(inputs), inputs: inputs, to: out.path, commandLine: [])
            Issue.record("a bad count was merged")
        } catch let error as DataError {
            let message = error.description
            #expect(message.contains("shard-1/latency-histogram.csv:2") && message.contains("count"), "\(message)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["shard-0", "shard-1"])
    }

    @Test func aTraceFileNotWrittenByRunIsRefusedAtItsLine() throws {
        #expect(
            throws: RunFolderMergeError.badTrace(
                file: "t", line: 1, reason: "it does not start and end as a traces.geojson fieldtest writes")
        ) {
            _ = try TraceGeoJSONParts("{}", file: "t", wanted: [])
        }
        let good = TraceFiles.geoJSON([], level: .summary)
        let bad = good.replacingOccurrences(of: "\"features\":[\n", with: "\"features\":[\n{\"type\":\"Feature\"},\n")
        #expect(throws: RunFolderMergeError.self) { _ = try TraceGeoJSONParts(bad, file: "t", wanted: []) }
        #expect(TraceGeoJSONParts.topLevelObjects("{\"case\":\"a}\\\"\",\"k\":{}},{\"case\":\"b\"}").count == 2)
    }
}
