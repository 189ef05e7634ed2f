import FieldtestData
import Foundation
import MetricReports

/// What must be the same for a resumed run to continue an interrupted one: a case's result is
/// only reused when every field here is unchanged (the datasets are checked by hash apart, in
/// `RunState`).
public struct RunSettings: Codable, Sendable, Equatable {
    /// The scenario's name.
    public var scenario: String
    /// SHA-256 of the scenario file.
    public var scenarioSHA256: String
    /// The tool's version.
    public var toolVersion: String
    /// `I/N` with `--shard`.
    public var shard: String?
    /// The cases this run runs, and a digest of their labels and seeds (so a changed seed range shows).
    public var cases: Int, caseDigest: String
    /// The trace level (`--trace`).
    public var trace: String
    /// Whether rows a recording cannot use are errors (`--strict`).
    public var strict: Bool
    /// The `--system` choices, `capability=command`, sorted.
    public var systems: [String]

    /// A digest of every field, which each case file carries.
    var digest: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return DatasetManifest.sha256(of: (try? encoder.encode(self)) ?? Data())
    }

    /// What differs from `earlier`, one phrase per field (empty when nothing does).
    func differences(from earlier: RunSettings) -> [String] {
        var out: [String] = []
        func differ(_ what: String, _ old: String, _ new: String) {
            if old != new { out.append("\(what) was \(old), is now \(new)") }
        }
        differ("the scenario name", earlier.scenario, scenario)
        differ("the scenario file's sha256", earlier.scenarioSHA256, scenarioSHA256)
        differ("the tool version", earlier.toolVersion, toolVersion)
        differ("--shard", earlier.shard ?? "none", shard ?? "none")
        differ("the number of cases", String(earlier.cases), String(cases))
        if earlier.cases == cases { differ("the cases' labels or seeds (digest)", earlier.caseDigest, caseDigest) }
        differ("--trace", earlier.trace, trace)
        differ("--strict", String(earlier.strict), String(strict))
        differ("--system", earlier.systems.joined(separator: " "), systems.joined(separator: " "))
        return out
    }
}

extension RunSettings {
    /// The settings of running `cases` of `scenario` (SHA-256 `scenarioSHA256`) as `request` asks.
    init(_ scenario: Scenario, scenarioSHA256: String, cases: [ScenarioCase], request: RunRequest) {
        self.scenario = scenario.name
        self.scenarioSHA256 = scenarioSHA256
        toolVersion = request.toolVersion
        shard = request.shard?.text
        self.cases = cases.count
        caseDigest = DatasetManifest.sha256(
            of: Data(cases.map { "\($0.index)\t\($0.label)\t\($0.scenario.seed)\n" }.joined().utf8))
        trace = request.trace.rawValue
        strict = request.strict
        systems = request.systems.map { "\($0.key)=\($0.value?.command.joined(separator: " ") ?? "builtin")" }.sorted()
    }
}

/// `state.json` of a run in progress: its identity and settings, and the dataset files its cases
/// have read so far with their SHA-256 (recorded before any case that read them is written).
struct RunState: Codable, Sendable {
    /// A file a case read.
    struct DatasetFile: Codable, Sendable, Equatable {
        var path: String
        var sha256: String
    }

    /// The run's identifier, kept by a resumed run so every row carries one.
    var runID: String
    /// When the run first started (ISO 8601).
    var startedAt: String
    var settings: RunSettings
    /// Dataset name (or path) → file and hash.
    var datasets: [String: DatasetFile] = [:]
}

/// One case's results, written atomically to `cases/<index>.case` in the run's folder in progress
/// as soon as the case ends: its rows (as `metrics.csv` text), its trace fragments, counters and the
/// settings digest. The file's first line carries the SHA-256 of the rest, so a damaged file is
/// recognised and its case run again.
struct CaseRecord: Codable, Sendable {
    /// `RunSettings.digest` of the run that wrote it.
    var settings: String
    var index: Int
    var label: String
    var seed: UInt64
    /// `metrics.csv` text of the case's rows (with its header).
    var metrics: String
    /// `events.csv` and `latency.csv` rows (no header).
    var events: String, latency: String
    /// GeoJSON features, and for each the campus geometry (drawn once per file) or "".
    var features: [String], campuses: [String]
    /// The dropped-past-the-caps entry of `traces.geojson`, or "".
    var dropped: String
    /// Events dispatched, and wall-clock seconds.
    var dispatched: Int, seconds: Double
    /// The external systems it used (their logs already in `systems/`).
    var systems: [SystemRunRecord]
    /// `items.csv` rows of the case (no header).
    var items: String = ""
    /// Items not kept past the per-metric limit (0 when none were dropped).
    var itemsOmitted: Int = 0
    /// What the case said about how it measured.
    var notes: [String] = []
    /// `latency-histogram.csv` rows of the case (no header).
    var latencyHistogram: String = ""

    static let magic = "fieldtest-case 1 sha256="

    /// The file's bytes: the magic line with the body's hash, then the body.
    func encoded() throws -> Data {
        let body = try JSONEncoder().encode(self)
        return Data((Self.magic + DatasetManifest.sha256(of: body) + "\n").utf8) + body
    }

    /// The record in `data`, or why it cannot be trusted.
    static func decode(_ data: Data) -> Result<CaseRecord, CaseFileProblem> {
        guard let newline = data.firstIndex(of: UInt8(ascii: "\n")),
            let head = String(data: data[data.startIndex..<newline], encoding: .utf8), head.hasPrefix(magic)
        else { return .failure(.damaged("it does not start with the case-file header")) }
        let body = data[(newline + 1)...]
        guard DatasetManifest.sha256(of: Data(body)) == head.dropFirst(magic.count) else {
            return .failure(.damaged("its content does not match its checksum (truncated or altered)"))
        }
        do { return .success(try JSONDecoder().decode(CaseRecord.self, from: Data(body))) } catch {
            return .failure(.damaged("it cannot be decoded (\(error))"))
        }
    }
}

/// Why a case file is not reused.
enum CaseFileProblem: Error, Equatable {
    case damaged(String)
    case otherCase(String)
}

/// A run's report folder while it is written: a hidden folder beside it (`.<name>.inprogress`)
/// holding `state.json`, `cases/` (one file per finished case) and the reports assembled from them.
/// When every case is there, it replaces the report folder in one step (`publish`).
public struct RunStaging: Sendable {
    /// The report folder it becomes.
    public let target: URL
    /// The folder in progress.
    public let folder: URL

    /// The staging of `target`.
    public init(target: URL) {
        self.target = target
        folder = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).inprogress")
    }

    var cases: URL { folder.appendingPathComponent("cases") }
    var stateFile: URL { folder.appendingPathComponent("state.json") }

    func caseFile(_ index: Int) -> URL { cases.appendingPathComponent(String(format: "%07d.case", index)) }

    /// Whether a folder in progress exists.
    var exists: Bool { FileManager.default.fileExists(atPath: folder.path) }

    /// The state of an interrupted run, or nil when there is none (no folder, or no readable state).
    func readState() -> RunState? {
        guard let data = try? Data(contentsOf: stateFile) else { return nil }
        return try? JSONDecoder().decode(RunState.self, from: data)
    }

    /// Number of case files present.
    func caseFileCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: cases.path).filter { $0.hasSuffix(".case") }.count) ?? 0
    }

    /// Starts afresh: removes any folder in progress and creates an empty one holding `state`.
    func begin(_ state: RunState) throws {
        try? FileManager.default.removeItem(at: folder)
        try makeFolder(folder)
        try makeFolder(cases)
        try write(state)
    }

    func write(_ state: RunState) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(state), to: stateFile)
    }

    private func makeFolder(_ url: URL) throws {
        if mkdir(url.path, 0o755) != 0 && errno != EEXIST {
            throw DataError.unwritable(file: url.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes `record` as its case's file, atomically.
    func write(_ record: CaseRecord) throws {
        // A kill leaves at most a temporary file in `cases/`, which is never read and goes with the folder.
        try AtomicFile.write(try record.encoded(), to: caseFile(record.index), sweepingStale: false)
    }

    /// The record of case `c` when its file is present, intact and of this case under `digest`;
    /// `.failure` says why a present file is not used; nil when there is no file.
    func record(of c: ScenarioCase, digest: String) -> Result<CaseRecord, CaseFileProblem>? {
        guard let data = try? Data(contentsOf: caseFile(c.index)) else { return nil }
        return CaseRecord.decode(data).flatMap { r in
            if r.settings != digest { return .failure(.otherCase("it was written under other run settings")) }
            if r.index != c.index || r.label != c.label || r.seed != c.scenario.seed {
                return .failure(.otherCase("it holds case \(r.label) (seed \(r.seed)), not \(c.label)"))
            }
            return .success(r)
        }
    }

    /// Refuses (before anything runs) a report folder holding anything a run does not write there —
    /// another file, or a folder where a report file goes — since publishing replaces the whole folder.
    func checkTarget() throws(RunError) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: target.path) else { return }
        let foreign = names.sorted().compactMap { name -> String? in
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: target.appendingPathComponent(name).path, isDirectory: &isDir)
            if name == "systems" { return isDir.boolValue ? nil : name }
            guard RunReport.fileNames.contains(name) else { return name }
            return isDir.boolValue ? "\(name) (a folder)" : nil
        }
        if !foreign.isEmpty { throw .foreignFilesInReportFolder(folder: target.path, names: foreign) }
    }

    /// Replaces `target` with the folder in progress in one step, once its working files are
    /// removed: on Linux the two folders are exchanged atomically (`AtomicFile.exchange`) and
    /// the previous one removed, so a reader or a kill never sees a new `metrics.csv` beside an old
    /// `run.json`. Where the exchange is unavailable, the previous folder is moved aside first.
    public func publish() throws {
        try? FileManager.default.removeItem(at: cases)
        unlink(stateFile.path)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDir) else {
            try rename(folder, to: target)
            return
        }
        if !isDir.boolValue {
            throw DataError.unwritable(
                file: target.path, reason: "a file is in the way of the report folder; move or remove it")
        }
        if AtomicFile.exchange(folder.path, target.path) {
            try? FileManager.default.removeItem(at: folder)  // now the previous report folder
            return
        }
        let aside = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).replaced-\(UUID().uuidString.prefix(8))")
        try rename(target, to: aside)
        try rename(folder, to: target)
        try? FileManager.default.removeItem(at: aside)
    }

    private func rename(_ from: URL, to: URL) throws {
        if Foundation.rename(from.path, to.path) != 0 {
            throw DataError.unwritable(
                file: to.path,
                reason: "cannot put the report folder in place (\(String(cString: strerror(errno)))); "
                    + "the finished reports are in \(from.path)")
        }
    }
}
