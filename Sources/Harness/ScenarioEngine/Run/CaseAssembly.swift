import FieldtestData
import Foundation
import MetricReports

extension CaseRecord {
    /// The record of `result`, run under settings `digest`; `systems` are its external systems with
    /// their logs' names in the report folder.
    init(_ result: CaseResult, digest: String, systems: [SystemRunRecord]) {
        let c = result.scenarioCase
        let traced = TraceFiles.Case(label: c.label, start: c.scenario.start, trace: result.trace)
        func body(_ text: String) -> String {  // the rows without the header line
            text.firstIndex(of: "\n").map { String(text[text.index(after: $0)...]) } ?? ""
        }
        self.init(
            settings: digest, index: c.index, label: c.label, seed: c.scenario.seed,
            metrics: MetricsCSV.render(result.rows), events: body(TraceFiles.events([traced])),
            latency: body(TraceFiles.latency([traced])),
            features: result.trace.features.map { TraceFiles.feature($0, label: c.label) },
            campuses: result.trace.features.map { $0.kind == "campus" ? TraceFiles.geometry($0.geometry) : "" },
            dropped: TraceFiles.droppedEntry(traced) ?? "", dispatched: result.events, seconds: result.seconds,
            systems: systems, items: ItemsCSV.rows(result.items, case: c.label),
            itemsOmitted: result.itemsOmitted.values.reduce(0, +), notes: result.notes,
            latencyHistogram: TraceFiles.latencyHistogramRows(result.latencyHistograms, case: c.label))
    }
}

/// Writes each finished case's file (and, first, the hashes of dataset files read for the first
/// time, so a resumed run can tell a changed dataset). Called one case at a time.
final class CaseSink: @unchecked Sendable {
    let staging: RunStaging
    let digest: String
    let session: DatasetStore
    private(set) var state: RunState

    init(staging: RunStaging, digest: String, session: DatasetStore, state: RunState) {
        self.staging = staging
        self.digest = digest
        self.session = session
        self.state = state
    }

    /// Records `result` on disk; nothing of it is kept in memory.
    func write(_ result: CaseResult) throws {
        var added = false
        for (name, url) in session.filesRead where state.datasets[name] == nil {
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            state.datasets[name] = .init(
                path: url.standardizedFileURL.path, sha256: try DatasetManifest.sha256(of: url))
            added = true
        }
        if added { try staging.write(state) }
        let logs = SystemLogs.place(result.systems)
        try logs.copy(into: staging.folder)
        try staging.write(CaseRecord(result, digest: digest, systems: logs.records))
    }
}

/// What assembling a run's case files yields besides the files: counts, the failing rows, the
/// external systems and, when asked, each case's seconds.
struct AssembledRun {
    var passed = 0, failed = 0, informational = 0, notMeasured = 0, rows = 0, events = 0, itemsOmitted = 0
    /// Checked rows whose 95 % interval holds their threshold.
    var withinInterval = 0
    /// What the cases said about how they measured, each once (at most 50).
    var notes: [String] = []
    /// The rows that failed their threshold or were not measured (the console shows them).
    var failingRows: [MetricRow] = []
    var systems: [SystemRunRecord] = []
    /// Case label → seconds, when asked for (JUnit).
    var caseSeconds: [String: Double] = [:]
}

extension RunStaging {
    /// Writes `metrics.csv` and the trace files (at `level`) into the folder in progress from the
    /// case files of `cases`, one case at a time, in case order: memory stays flat in the number
    /// of cases. Throws when a case file is missing or damaged (the run is not complete).
    func assemble(_ cases: [ScenarioCase], digest: String, level: TraceLevel, keepSeconds: Bool) throws
        -> AssembledRun
    {
        var out = AssembledRun()
        let metrics = try Output(folder.appendingPathComponent("metrics.csv"))
        defer { metrics.close() }
        try metrics.write(MetricsCSV.columns.joined(separator: ",") + "\n")
        let items = try Output(folder.appendingPathComponent(ItemsCSV.fileName))
        defer { items.close() }
        try items.write(ItemsCSV.header)
        let traced = level != .none
        let events = try traced ? Output(folder.appendingPathComponent(TraceFiles.eventsFile)) : nil
        let latency = try traced ? Output(folder.appendingPathComponent(TraceFiles.latencyFile)) : nil
        let histogram = try traced ? Output(folder.appendingPathComponent(TraceFiles.latencyHistogramFile)) : nil
        let dropped = try traced ? Output(folder.appendingPathComponent(".dropped.part")) : nil
        let features = try traced ? Output(folder.appendingPathComponent(".features.part")) : nil
        defer { [events, latency, histogram, dropped, features].forEach { $0?.close() } }
        try events?.write(TraceFiles.eventColumns.joined(separator: ",") + "\n")
        try latency?.write(TraceFiles.latencyColumns.joined(separator: ",") + "\n")
        try histogram?.write(TraceFiles.latencyHistogramColumns.joined(separator: ",") + "\n")
        var campuses = Set<String>()
        var firstDropped = true
        var firstFeature = true
        for c in cases {
            let r = try finishedRecord(of: c, digest: digest)
            out.count(try MetricsCSV.parse(bytes: Array(r.metrics.utf8), file: caseFile(c.index).path))
            try items.write(r.items)
            out.itemsOmitted += r.itemsOmitted
            for note in r.notes where out.notes.count < 50 && !out.notes.contains(note) { out.notes.append(note) }
            out.events += r.dispatched
            out.systems += r.systems
            if keepSeconds { out.caseSeconds[r.label, default: 0] += r.seconds }
            if let newline = r.metrics.firstIndex(of: "\n") {
                try metrics.write(String(r.metrics[r.metrics.index(after: newline)...]))
            }
            guard traced else { continue }
            try events?.write(r.events)
            try latency?.write(r.latency)
            try histogram?.write(r.latencyHistogram)
            if !r.dropped.isEmpty {
                try dropped?.write((firstDropped ? "" : ",") + r.dropped)
                firstDropped = false
            }
            for (feature, campus) in zip(r.features, r.campuses) {
                if !campus.isEmpty && !campuses.insert(campus).inserted { continue }
                try features?.write((firstFeature ? "\n" : ",\n") + feature)
                firstFeature = false
            }
        }
        for file in [metrics, items, events, latency, histogram, dropped, features] { try file?.finish() }
        if let dropped, let features {
            let geo = try Output(folder.appendingPathComponent(TraceFiles.geoJSONFile))
            defer { geo.close() }
            try geo.write(TraceFiles.geoJSONHead(level: level))
            try geo.append(contentsOf: dropped.url)
            try geo.write(TraceFiles.geoJSONMiddle)
            try geo.append(contentsOf: features.url)
            try geo.write(TraceFiles.geoJSONTail)
            try geo.finish()
            unlink(dropped.url.path)
            unlink(features.url.path)
        }
        return out
    }
}

extension RunStaging {
    /// The record of case `c`, which must be there and whole: the run is not complete otherwise.
    func finishedRecord(of c: ScenarioCase, digest: String) throws -> CaseRecord {
        switch record(of: c, digest: digest) {
        case .success(let record): return record
        case .failure(let problem):
            throw DataError.unreadable(file: caseFile(c.index).path, reason: "cannot be used: \(problem)")
        case nil:
            throw DataError.unreadable(
                file: caseFile(c.index).path, reason: "the result of case \(c.label) is missing")
        }
    }
}

extension AssembledRun {
    /// Counts one case's `rows` by status; failing and not-measured rows are kept.
    mutating func count(_ rows: [MetricRow]) {
        for row in rows {
            if row.margin == .withinInterval { withinInterval += 1 }
            switch row.status {
            case .pass: passed += 1
            case .fail:
                failed += 1
                failingRows.append(row)
            case .info: informational += 1
            case .notMeasured:
                notMeasured += 1
                failingRows.append(row)
            }
        }
        self.rows += rows.count
    }
}

/// A file written from the start in pieces, through a buffer.
final class Output {
    let url: URL
    private let handle: FileHandle
    private var buffer = Data()
    private var closed = false

    init(_ url: URL) throws {
        self.url = url
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: url.path)
        else { throw DataError.unwritable(file: url.path, reason: "cannot create the file") }
        self.handle = handle
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends the bytes of the file at `other`, a chunk at a time.
    func append(contentsOf other: URL) throws {
        try flush()
        guard let input = FileHandle(forReadingAtPath: other.path) else {
            throw DataError.unreadable(file: other.path, reason: "cannot be opened")
        }
        defer { try? input.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try handle.write(contentsOf: chunk) }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch {
            throw DataError.unwritable(file: url.path, reason: error.localizedDescription)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes, reporting a failure (a full disk).
    func finish() throws {
        guard !closed else { return }
        try flush()
        closed = true
        do { try handle.close() } catch {
            throw DataError.unwritable(file: url.path, reason: error.localizedDescription)
        }
    }

    /// Closes without reporting (a run that already failed).
    func close() {
        guard !closed else { return }
        closed = true
        try? handle.close()
    }
}
