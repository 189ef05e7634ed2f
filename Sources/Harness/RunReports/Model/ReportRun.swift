import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine

/// What went wrong reading a report's inputs; each message says what to give instead.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path that does not exist.
    case missing(String)
    /// A folder with no `metrics.csv` in it or below it.
    case noMetrics(String)
    /// A trace file that is not what `fieldtest run` writes.
    case badTrace(file: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let p):
            return
                "\(p): no such file or folder; give a run folder (e.g. Results/runs/<scenario>/<run_id>) or a metrics.csv"
        case .noMetrics(let p):
            return
                "\(p): holds no metrics.csv; give a run folder written by 'fieldtest run', a folder of them, or a metrics.csv"
        case let .badTrace(file, reason):
            return "\(file): \(reason); re-run the scenario to write it anew, or remove it"
        }
    }
}

/// Where a run came from, as its `run.json` records it (docs/schemas/run.json); nil or empty where
/// the file does not say.
public struct RunProvenance: Sendable, Equatable {
    /// One system under test: capability, name, version and the SHA-256 of its file, when recorded.
    public struct System: Sendable, Equatable, Hashable {
        public var capability: String, name: String, version: String, sha256: String, command: [String]
    }
    /// One dataset read: name, path (when recorded) and the SHA-256 of the file.
    public struct Dataset: Sendable, Equatable {
        public var name: String, path: String, sha256: String
    }
    /// Whether the run has a readable `run.json` at all.
    public var recorded: Bool
    /// `tool_version` and `tool_commit`.
    public var toolVersion: String?, toolCommit: String?
    /// `command_line`, the arguments as the process received them.
    public var commandLine: [String]?
    /// `run_id`, `scenario_file` and `scenario_sha256`.
    public var runID: String?, scenarioFile: String?, scenarioSHA256: String?
    /// `machine`, each value as text.
    public var machine: [String: String]
    /// The distinct systems under test (one per capability, name, version and hash).
    public var systems: [System]
    /// The datasets, by name (`dataset_files`, else `datasets`).
    public var datasets: [Dataset]

    /// The provenance `json` (a parsed `run.json`) records.
    init(json: [String: Any], recorded: Bool) {
        self.recorded = recorded
        toolVersion = json["tool_version"] as? String
        toolCommit = json["tool_commit"] as? String
        commandLine = (json["command_line"] as? [Any])?.map { "\($0)" }
        runID = json["run_id"] as? String
        scenarioFile = json["scenario_file"] as? String
        scenarioSHA256 = json["scenario_sha256"] as? String
        machine = (json["machine"] as? [String: Any] ?? [:]).compactMapValues { "\($0)" }
        var systems: [System] = []
        for case let s as [String: Any] in json["systems"] as? [Any] ?? [] {
            let system = System(
                capability: s["capability"] as? String ?? "", name: s["name"] as? String ?? "",
                version: s["version"] as? String ?? "", sha256: s["sha256"] as? String ?? "",
                command: (s["command"] as? [Any])?.map { "\($0)" } ?? [])
            if !systems.contains(system) { systems.append(system) }
        }
        self.systems = systems
        var datasets: [Dataset] = []
        for case let d as [String: Any] in json["dataset_files"] as? [Any] ?? [] {
            guard let name = d["name"] as? String else { continue }
            datasets.append(
                Dataset(name: name, path: d["path"] as? String ?? "", sha256: d["sha256"] as? String ?? ""))
        }
        for (name, hash) in (json["datasets"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key })
        where !datasets.contains(where: { $0.name == name }) {
            datasets.append(Dataset(name: name, path: "", sha256: "\(hash)"))
        }
        self.datasets = datasets
    }
}

/// One latency sample of `latency.csv`.
public struct LatencySample: Sendable, Equatable {
    /// The case label.
    public var caseLabel: String
    /// Requirement ID and latency series name.
    public var requirement: String, metric: String
    /// The sample, seconds.
    public var seconds: Double
}

/// One bucket of `latency-histogram.csv`: the full HDR histogram of a latency series.
public struct LatencyBucket: Sendable, Equatable {
    /// The case label.
    public var caseLabel: String
    /// Requirement ID and latency series name.
    public var requirement: String, metric: String
    /// The bucket's value (the highest it holds), seconds.
    public var seconds: Double
    /// Samples in the bucket.
    public var count: Int
}

/// What `events.csv` holds, in short: counts by status and the first failing events.
public struct EventDigest: Sendable, Equatable {
    /// Rows by status (`pass`, `fail`, `info`).
    public var counts: [String: Int] = [:]
    /// The first failing events (at most `EventDigest.keptFailures`): time, device, requirement, metric, value, expected.
    public var failures: [[String]] = []
    /// How many failing events are kept.
    public static let keptFailures = 25
    /// Whether the run wrote `events.csv` at all.
    public var present = false
}

/// One run folder (or a lone `metrics.csv`) read for a report: its rows, what `run.json` says, and the
/// traces beside it when there are any.
public struct ReportRun: Sendable {
    /// The `metrics.csv` read.
    public var metricsFile: URL
    /// The scenario name.
    public var scenario: String
    /// The rows of `metrics.csv`.
    public var rows: [MetricRow]
    /// The column heading when several runs of one scenario are shown side by side: the systems
    /// under test named in `run.json`, else the run ID, else the folder name.
    public var label: String
    /// The systems under test `run.json` names (empty when it names none).
    public var systems: [String]
    /// When it started (ISO 8601, as `run.json` gives it).
    public var startedAt: String?
    /// When it ended (ISO 8601, `run.json`'s `finished_at`).
    public var finishedAt: String?
    /// How long it took, seconds, when `run.json` says.
    public var durationSeconds: Double?
    /// The machine `run.json` describes (`cpu`, `cores`, `os`, `host`, …).
    public var machine: [String: String]
    /// The tool version that wrote it.
    public var toolVersion: String?
    /// The sweep, when the scenario is one.
    public var sweep: SweepRecord?
    /// `latency.csv` (capped per case by the trace level).
    public var latency: [LatencySample]
    /// `latency-histogram.csv`: every sample, as histogram buckets (empty for folders written before it).
    public var latencyHistogram: [LatencyBucket]
    /// `events.csv`, in short.
    public var events: EventDigest
    /// `traces.geojson`'s features.
    public var features: [MapFeature]
    /// Features `traces.geojson` says each case left out past the cap, by case label.
    public var droppedFeatures: [String: TraceGeoJSON.Dropped] = [:]
    /// `baseline-check.csv`, when the run was compared with a baseline.
    public var check: [BaselineCheckCSV.Row]
    /// Where the run came from, as `run.json` records it.
    public var provenance: RunProvenance
    /// What the accuracy figures need of `items.csv` (empty when absent).
    public var items: ItemDigest

    /// Reads the run whose `metrics.csv` is `metricsFile`, and whatever lies beside it.
    public init(metricsFile: URL) throws {
        self.metricsFile = metricsFile
        let folder = metricsFile.deletingLastPathComponent()
        rows = try MetricsCSV.read(metricsFile)
        let json =
            (try? Data(contentsOf: folder.appendingPathComponent("run.json")))
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        let fromRows = rows.first.map { String($0.scenario.prefix { $0 != "[" }) }
        scenario = json["scenario"] as? String ?? fromRows ?? metricsFile.deletingPathExtension().lastPathComponent
        systems = Self.systemNames(json["systems"])
        startedAt = json["started_at"] as? String
        finishedAt = json["finished_at"] as? String
        durationSeconds = Self.duration(json)
        machine = (json["machine"] as? [String: Any] ?? [:]).compactMapValues { "\($0)" }
        toolVersion = json["tool_version"] as? String
        provenance = RunProvenance(json: json, recorded: !json.isEmpty)
        sweep = (json["sweep"]).flatMap { try? JSONSerialization.data(withJSONObject: $0) }
            .flatMap { try? JSONDecoder().decode(SweepRecord.self, from: $0) }
        label =
            systems.isEmpty ? (json["run_id"] as? String ?? folder.lastPathComponent) : systems.joined(separator: " + ")
        latency = try Self.readLatency(folder.appendingPathComponent(TraceFiles.latencyFile))
        latencyHistogram = try Self.readLatencyHistogram(folder.appendingPathComponent(TraceFiles.latencyHistogramFile))
        events = try Self.readEvents(folder.appendingPathComponent(TraceFiles.eventsFile))
        let geo = folder.appendingPathComponent(TraceFiles.geoJSONFile)
        if FileManager.default.fileExists(atPath: geo.path) {
            features = try TraceGeoJSON.read(geo)
            droppedFeatures = (try? Data(contentsOf: geo)).map(TraceGeoJSON.dropped) ?? [:]
        } else {
            features = []
        }
        let checkFile = folder.appendingPathComponent(BaselineCheckCSV.fileName)
        check = FileManager.default.fileExists(atPath: checkFile.path) ? try BaselineCheckCSV.read(checkFile) : []
        items = try ItemDigest.read(folder.appendingPathComponent(ItemsCSV.fileName))
    }

    /// The `metrics.csv` files `paths` name: a file as it is; a folder's own `metrics.csv`, or else every
    /// `metrics.csv` below it, in path order.
    public static func locate(_ paths: [String]) throws(ReportError) -> [URL] {
        var out: [URL] = []
        for p in paths {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { throw .missing(p) }
            let url = URL(fileURLWithPath: p)
            guard isDir.boolValue else {
                out.append(url)
                continue
            }
            let own = url.appendingPathComponent("metrics.csv")
            if FileManager.default.fileExists(atPath: own.path) {
                out.append(own)
                continue
            }
            let found =
                (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
                .filter { $0.lastPathComponent == "metrics.csv" }.sorted { $0.path < $1.path }
            if found.isEmpty { throw .noMetrics(p) }
            out += found
        }
        return out
    }

    /// The names in a `systems` record: a list of names, of objects with a `name`, or an object keyed by name.
    static func systemNames(_ value: Any?) -> [String] {
        if let list = value as? [Any] {
            return list.compactMap { ($0 as? String) ?? (($0 as? [String: Any])?["name"] as? String) }
        }
        if let object = value as? [String: Any] { return object.keys.sorted() }
        return []
    }

    /// The run's duration from `duration_s` (or `duration_seconds`), else from its start and end times.
    static func duration(_ json: [String: Any]) -> Double? {
        for key in ["duration_s", "duration_seconds"] {
            if let d = json[key] as? Double { return d }
            if let d = json[key] as? Int { return Double(d) }
        }
        let f = ISO8601DateFormatter()
        if let s = (json["started_at"] as? String).flatMap(f.date(from:)),
            let e = ((json["ended_at"] ?? json["finished_at"]) as? String).flatMap(f.date(from:))
        {
            return e.timeIntervalSince(s)
        }
        return nil
    }

    /// Reads `latency.csv` (none when absent).
    static func readLatency(_ url: URL) throws -> [LatencySample] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let table = try CSVTable(bytes: [UInt8](data), file: url.path)
        try table.require(TraceFiles.latencyColumns)
        return try table.load(policy: .strict) { r throws(DataError) -> LatencySample? in
            LatencySample(
                caseLabel: try r.string("case"), requirement: try r.string("requirement"),
                metric: try r.string("metric"), seconds: try r.double("seconds"))
        }.records
    }

    /// Reads `latency-histogram.csv` (none when absent).
    static func readLatencyHistogram(_ url: URL) throws -> [LatencyBucket] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let table = try CSVTable(bytes: [UInt8](data), file: url.path)
        try table.require(TraceFiles.latencyHistogramColumns)
        return try table.load(policy: .strict) { r throws(DataError) -> LatencyBucket? in
            LatencyBucket(
                caseLabel: try r.string("case"), requirement: try r.string("requirement"),
                metric: try r.string("metric"), seconds: try r.double("seconds"),
                count: Int(try r.double("count", in: 0...1e15)))
        }.records
    }

    /// Reads `events.csv` into its digest (an empty one when absent).
    static func readEvents(_ url: URL) throws -> EventDigest {
        var digest = EventDigest()
        guard let data = try? Data(contentsOf: url) else { return digest }
        digest.present = true
        let table = try CSVTable(bytes: [UInt8](data), file: url.path)
        try table.require(TraceFiles.eventColumns)
        _ = try table.load(policy: .strict) { r throws(DataError) -> Int? in
            let status = try r.string("status")
            digest.counts[status, default: 0] += 1
            if status == "fail" && digest.failures.count < EventDigest.keptFailures {
                digest.failures.append(
                    try ["case", "time", "device", "requirement", "metric", "value", "expected", "unit"].map {
                        (c: String) throws(DataError) -> String in try r.string(c)
                    })
            }
            return nil
        }
        return digest
    }
}
