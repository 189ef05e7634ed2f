import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// `run.json` format 2 (`format_version`, integer counts, dictionary keys as given), and the files of
/// format 1 that `merge`, `report`, `check` and `--resume` still read.
@Suite("run.json format")
struct RunRecordFormatTests {
    let root: URL

    init() throws {
        root = TemporaryFiles.url("fieldtest-runrecord")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A run.json as fieldtest wrote it before format 2: every machine value a string, no format_version.
    static let formatOne = """
        {
          "cases" : 1, "datasets" : {"noaa-lcd-lincoln-2023" : "9d2c08db31b71f3f46effa4cfbc9f20c929ad461205ac4537153f89216c3926f"},
          "events" : 12, "failed" : 0, "informational" : 4,
          "machine" : {"build" : "debug", "cores" : "2", "cpu" : "Intel(R) Xeon(R) Processor", "host" : "vm",
            "machine_id" : "3d12", "memory_bytes" : "25276510208", "os" : "Linux", "virtual_machine_boot" : ""},
          "passed" : 22, "run_id" : "20261125T152517Z-b0f1a99e", "scenario" : "skyscape-lincoln",
          "scenario_file" : "Scenarios/skyscape-lincoln.yaml", "scenario_sha256" : "ab", "seed" : 12,
          "started_at" : "2026-11-25T15:25:17Z", "sweep" : {"parameters" : [], "seeds" : [{"count" : 1, "from" : 12}]},
          "tool" : "fieldtest", "tool_version" : "0.9.0"
        }
        """

    func folder(_ runJSON: String) throws -> URL {
        let folder = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try runJSON.write(to: folder.appendingPathComponent("run.json"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func formatOneStillReads() throws {
        let folder = try folder(Self.formatOne)
        let record = try RunReport.readRecord(folder.appendingPathComponent("run.json"))
        #expect(record.formatVersion == nil)
        #expect(record.machine["cores"] == "2")
        #expect(record.machine["memory_bytes"] == "25276510208")
        let machine = try #require(RunReport.machine(besides: folder.appendingPathComponent("metrics.csv")))
        #expect(machine.cores == 2)
        #expect(machine.memoryBytes == 25_276_510_208)
        let info = try #require(
            try ShardRunInfo.read(besides: folder.appendingPathComponent("metrics.csv"), displayName: "x/metrics.csv"))
        #expect(info.runID == "20261125T152517Z-b0f1a99e")
    }

    @Test func formatTwoWritesNumbersAsNumbersAndKeysAsGiven() throws {
        var record = RunRecord(
            tool: "fieldtest", toolVersion: "1", scenario: "demo", scenarioFile: "demo.yaml", scenarioSHA256: "ab",
            seed: 7, runID: "r", startedAt: "now", datasets: ["myData": "cd"],
            machine: ["host": "h", "machine_id": "m", "cpu": "c", "cores": "4", "memory_bytes": "1024", "build": ""],
            cases: 1, shard: nil, events: 0, passed: 0, failed: 0, informational: 0)
        record.durationSeconds = 1.5
        try RunReport.writeRecord(record, to: root)
        let data = try Data(contentsOf: root.appendingPathComponent("run.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format_version"] as? Int == RunRecord.currentFormatVersion)
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(machine["cores"] as? Int == 4)
        #expect(machine["memory_bytes"] as? Int == 1024)
        #expect(machine["build"] as? String == "")
        // A dataset's name is data, not a key to convert: `myData` stays `myData`.
        #expect((object["datasets"] as? [String: String])?["myData"] == "cd")
        #expect(String(decoding: data, as: UTF8.self).contains(#""cores" : 4"#))
        let back = try RunReport.readRecord(root.appendingPathComponent("run.json"))
        #expect(back.machine == record.machine)
        #expect(back.formatVersion == 2)
    }

    @Test func aLaterFormatIsRefusedNotMisread() throws {
        let later = Self.formatOne.replacingOccurrences(
            of: #""cases" : 1,"#, with: #""format_version" : 3, "cases" : 1,"#)
        let folder = try folder(later)
        let file = folder.appendingPathComponent("run.json")
        #expect(throws: RunRecordFormatError(file: file.path, version: 3)) { try RunReport.readRecord(file) }
        #expect(RunRecordFormatError(file: "r/run.json", version: 3).description.contains("field 'format_version': 3"))
        do {
            _ = try ShardRunInfo.read(
                besides: folder.appendingPathComponent("metrics.csv"), displayName: "s/metrics.csv")
            Issue.record("a run.json of format 3 was read")
        } catch {
            #expect("\(error)".contains("s/run.json: error: has format_version 3"))
        }
    }
}
