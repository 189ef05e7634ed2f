import FieldtestData
import Foundation
import MetricReports

/// What `run.json` records so two runs can be compared honestly (its contract:
/// `docs/schemas/run.json`, described in `docs/outputs.md`).
public struct RunRecord: Codable, Sendable {
    /// The `run.json` format this tool writes. 2: `format_version`, machine counts as integers,
    /// dictionary keys (dataset names) written as given. A file without it is format 1.
    public static let currentFormatVersion = 2

    /// The format of the file (nil in a file of format 1, written before it was recorded).
    public var formatVersion: Int?
    public var tool: String
    public var toolVersion: String
    public var scenario: String
    public var scenarioFile: String
    public var scenarioSHA256: String
    public var seed: UInt64
    public var runID: String
    public var startedAt: String
    /// Dataset name → lower-case hex SHA-256 of the file this run read.
    public var datasets: [String: String]
    /// Dataset name → the SHA-256 `MANIFEST.csv` gives, for each dataset whose file differs
    /// from it (absent when every file matches its manifest entry).
    public var datasetsManifest: [String: String]?
    /// Each dataset read or listed by name: path, format, rows, SHA-256 and rows skipped
    /// (absent in reports written before it was recorded).
    public var datasetFiles: [DatasetFileRecord]?
    /// The machine the run was measured on (see `MachineRecord`).
    public var machine: MachineRecord
    /// Cases this run ran (those of its shard with `--shard`).
    public var cases: Int
    public var shard: String?
    /// The whole sweep (every case, not only this shard's), so `merge` can name missing cases;
    /// absent in reports written before it was recorded.
    public var sweep: SweepRecord?
    public var events: Int
    public var passed: Int
    public var failed: Int
    public var informational: Int
    /// Checked rows of no sample (absent in run.json files written before they were counted).
    public var notMeasured: Int?
    /// Scored items left out of `items.csv` past the per-metric limit of a case (absent when none).
    public var itemsOmitted: Int?
    /// How the run measured, where a figure needs it said (e.g. which share of a tweet stream was
    /// scored and why); absent when nothing was said.
    public var notes: [String]?
    /// The external systems under test, one per case and capability (absent when every core was
    /// built in); each `stderr` names its standard error's file in the report folder.
    public var systems: [SystemRunRecord]?

    // MARK: Provenance of the run (absent in run.json files written before they were recorded)
    /// When the scenario's last case finished (ISO 8601, UTC).
    public var finishedAt: String?
    /// Wall-clock seconds from `startedAt` to `finishedAt`, to the millisecond.
    public var durationSeconds: Double?
    /// The command line that ran it (`fieldtest run …`), as the process received it.
    public var commandLine: [String]?
    /// The git commit of the checkout the tool was built from (see `GitRevision`), when known.
    public var toolCommit: String?
    // MARK: -

    /// The shards and cases a folder written by `merge --out` was merged from (absent in a run's own folder).
    public var merge: MergeRecord?

    /// The keys of `run.json` (snake case), read back by `RunReport.readRecord`.
    enum CodingKeys: String, CodingKey {
        case formatVersion = "format_version"
        case tool, toolVersion = "tool_version", scenario, scenarioFile = "scenario_file", scenarioSHA256 =
            "scenario_sha256", seed
        case runID = "run_id", startedAt = "started_at", datasets, datasetsManifest = "datasets_manifest",
            datasetFiles = "dataset_files", machine,
            cases, shard, sweep
        case events, passed, failed, informational, systems, notMeasured = "not_measured",
            itemsOmitted = "items_omitted", notes
        // Provenance of the run.
        case finishedAt = "finished_at", durationSeconds = "duration_s", commandLine = "command_line",
            toolCommit = "tool_commit"
        case merge
    }

    public init(
        tool: String, toolVersion: String, scenario: String, scenarioFile: String, scenarioSHA256: String,
        seed: UInt64, runID: String, startedAt: String, datasets: [String: String], machine: [String: String],
        cases: Int, shard: String?, events: Int, passed: Int, failed: Int, informational: Int,
        notMeasured: Int? = nil, datasetsManifest: [String: String]? = nil, sweep: SweepRecord? = nil,
        datasetFiles: [DatasetFileRecord]? = nil, itemsOmitted: Int? = nil, notes: [String]? = nil
    ) {
        self.formatVersion = Self.currentFormatVersion
        self.notes = notes
        self.itemsOmitted = itemsOmitted
        self.datasetFiles = datasetFiles
        self.tool = tool
        self.toolVersion = toolVersion
        self.scenario = scenario
        self.scenarioFile = scenarioFile
        self.scenarioSHA256 = scenarioSHA256
        self.seed = seed
        self.runID = runID
        self.startedAt = startedAt
        self.datasets = datasets
        self.datasetsManifest = datasetsManifest
        self.machine = MachineRecord(machine)
        self.cases = cases
        self.shard = shard
        self.sweep = sweep
        self.events = events
        self.passed = passed
        self.failed = failed
        self.informational = informational
        self.notMeasured = notMeasured
    }
}

/// A `run.json` of a later format than this tool reads.
public struct RunRecordFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The `format_version` it gives.
    public var version: Int

    public var description: String {
        "\(file): error: field 'format_version': \(version) is newer than this fieldtest reads (up to "
            + "\(RunRecord.currentFormatVersion)); read it with a newer fieldtest"
    }

    /// Throws when `version` (nil: format 1) is past what this tool reads.
    public static func check(_ version: Int?, file: String) throws(RunRecordFormatError) {
        if let version, version > RunRecord.currentFormatVersion { throw .init(file: file, version: version) }
    }
}

/// Writes a run's report folder atomically: `metrics.csv`, `run.json` and,
/// when asked, JUnit XML.
public enum RunReport {
    /// The files written into every report folder (each is checked against the run's inputs).
    public static let fileNames = [
        "metrics.csv", "run.json", ItemsCSV.fileName, TraceFiles.eventsFile, TraceFiles.latencyFile,
        TraceFiles.latencyHistogramFile, TraceFiles.geoJSONFile, BaselineCheckCSV.fileName, SeedSummary.fileName,
    ]

    /// A run identifier: UTC time to the second plus 8 random hex digits.
    public static func makeRunID(now: Date = Date()) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return f.string(from: now) + "-" + String(repeating: "0", count: 8 - suffix.count) + suffix
    }

    /// Machine facts for `run.json`.
    public static func machine() -> [String: String] {
        let p = ProcessInfo.processInfo
        let id = MachineIdentity.current()
        return [
            "host": id.host, "machine_id": id.machineID, "cpu": id.cpu, "os": p.operatingSystemVersionString,
            "cores": String(id.cores),
            "memory_bytes": String(p.physicalMemory), "build": id.build ?? "",
            "virtual_machine_boot": id.virtualMachineBoot ?? "",
        ]
    }

    /// Reads a `run.json` that `write` wrote, of any format up to `RunRecord.currentFormatVersion`;
    /// a later format is refused (`RunRecordFormatError`) rather than misread.
    public static func readRecord(_ url: URL) throws -> RunRecord {
        let record = try JSONDecoder().decode(RunRecord.self, from: Data(contentsOf: url))
        try RunRecordFormatError.check(record.formatVersion, file: url.path)
        return record
    }

    /// The encoder of `run.json`: sorted keys, slashes not escaped. Keys are the coding keys as
    /// written (snake case); dictionary keys such as dataset names are kept as given.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The machine recorded in the `run.json` beside a run's `metrics.csv`, if it can be read.
    public static func machine(besides metrics: URL) -> MachineIdentity? {
        guard
            let m = (try? readRecord(metrics.deletingLastPathComponent().appendingPathComponent("run.json")))?.machine,
            let host = m["host"], let cpu = m["cpu"], let cores = m["cores"].flatMap(Int.init)
        else { return nil }
        return MachineIdentity(
            host: host, machineID: m["machine_id"] ?? "unknown", cpu: cpu, cores: cores,
            memoryBytes: m["memory_bytes"].flatMap { UInt64($0) }, build: m["build"],
            virtualMachineBoot: m["virtual_machine_boot"])
    }

    /// Writes the reports into `folder` as a set: `metrics.csv` and `run.json` are first
    /// written under temporary names beside their targets (and the JUnit file, itself written
    /// atomically), and only then renamed over the previous ones, so a failure (a full disk,
    /// a folder that refuses writes) leaves the previous `metrics.csv` and `run.json` as they were.
    public static func write(rows: [MetricRow], record: RunRecord, to folder: URL, junit: URL?) throws {
        let json = Self.encoder()
        let files: [(name: String, data: Data)] = [
            ("metrics.csv", Data(MetricsCSV.render(rows).utf8)),
            ("run.json", try json.encode(record)),
        ]
        for f in files {
            let target = folder.appendingPathComponent(f.name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw DataError.unwritable(
                    file: target.path, reason: "a folder is in the way of the report; move or remove it")
            }
        }
        var staged: [(temporary: URL, target: URL)] = []
        do {
            for f in files {
                let target = folder.appendingPathComponent(f.name)
                let temporary = folder.appendingPathComponent(".\(f.name).\(UUID().uuidString).partial")
                staged.append((temporary, target))
                try AtomicFile.write(f.data, to: temporary)
            }
            if let junit { try AtomicFile.write(JUnitReport.render(rows), to: junit) }
            for s in staged where rename(s.temporary.path, s.target.path) != 0 {
                throw DataError.unwritable(
                    file: s.target.path,
                    reason:
                        "cannot replace the report (\(String(cString: strerror(errno)))); check the folder's permissions"
                )
            }
        } catch {
            for s in staged { unlink(s.temporary.path) }
            throw error
        }
    }

    /// Writes `run.json` into `folder` (atomically).
    public static func writeRecord(_ record: RunRecord, to folder: URL) throws {
        try AtomicFile.write(try Self.encoder().encode(record), to: folder.appendingPathComponent("run.json"))
    }

    /// A human summary table of `rows` (one line per row).
    public static func summary(_ rows: [MetricRow]) -> String {
        let header = ["scenario", "requirement", "metric", "value", "threshold", "status"]
        let body = rows.map { r in
            [
                r.scenario, r.requirement, r.metric, "\(FieldtestNumber.format(r.value)) \(r.unit)",
                r.threshold.map { "\(r.comparator.rawValue) \(FieldtestNumber.format($0))" } ?? "",
                r.status.rawValue.uppercased(),
            ]
        }
        return TextTableRenderer.render(header: header, rows: body)
    }
}

/// Aligned plain-text tables.
public enum TextTableRenderer {
    /// Renders `rows` under `header`, columns separated by two spaces.
    public static func render(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                i == cells.count - 1 ? c : c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line))
            .joined(separator: "\n") + "\n"
    }
}
