import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports

/// `fieldtest compare`: one scenario, the same seeds, once per system, each run as `run` runs it; one
/// long table with a row per metric and system, beside the first (reference) system's row.
public struct SystemComparison: Sendable {
    /// One compared system: its column name and the capability it replaces (nil setting: built-in).
    public struct Entry: Sendable {
        /// Column name.
        public var name: String
        /// The capability (`sun`, `route`, `locate`, `sentiment`).
        public var capability: String
        /// The system, or nil for the built-in core.
        public var setting: SystemSetting?

        /// An entry.
        public init(name: String, capability: String, setting: SystemSetting?) {
            self.name = name
            self.capability = capability
            self.setting = setting
        }
    }

    /// The system names, in order; the first is the reference.
    public var systems: [String]
    /// Every system's rows beside the reference's: per metric (case, requirement, metric, in order of
    /// first appearance) one row per system that reported it, the reference first.
    public var rows: [ComparedRow]
    /// What became of the standard error of the systems that faulted (kept where, or removed), and
    /// the warnings of the runs.
    public var notes: [String] = []

    /// Why a comparison cannot run.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var message: String
        public var description: String { "error: compare: " + message }
    }

    /// One system's run folder, as `run` writes it (`metrics.csv`, `items.csv`, `run.json`, …).
    public struct RunFolder: Sendable {
        /// The system's name.
        public var system: String
        /// The folder.
        public var folder: URL
    }

    /// Runs every case of `file` once per entry, as `run` runs it (`base`: the tool version, command
    /// line, jobs and trace level; its files, out and systems are replaced), each into a run folder of
    /// its own, and compares the rows (`PairedComparison`). With `out`, the run folders are kept as
    /// `out/<name>/` (each replacing any earlier one in one rename), else they are removed at the
    /// end; `withFolders` sees them before that. The scenario's datasets resolve as `run` resolves
    /// them. The log of a system that faulted stays in its run folder (`systems/`), and without
    /// `out` is kept beside `output` when that names a file (`<output>.<name>.<case>.<capability>.stderr`).
    /// - Throws: `UsageError` when the scenario's app does not use the entries' capability, or a
    ///   NAME cannot be a folder name under `out`; what `RunPipeline.run` throws.
    public static func run(
        file: String, entries: [Entry], manifest: DatasetManifest, apps: AppRegistry, base: RunRequest,
        output: String? = nil, out: String? = nil, withFolders: (([RunFolder]) throws -> Void)? = nil
    ) throws -> SystemComparison {
        let scenario = try ScenarioLoader(manifest: manifest, registry: apps)
            .load(URL(fileURLWithPath: file), displayName: file)
        let app = apps.app(scenario.app)
        if let app {
            for capability in Set(entries.map(\.capability)) where !app.systemCapabilities.contains(capability) {
                let uses = app.systemCapabilities.isEmpty ? "none" : app.systemCapabilities.joined(separator: ", ")
                throw UsageError(
                    message: "app '\(app.name)' of \(file) does not use capability '\(capability)', so every "
                        + "system would give the same rows; the capabilities it uses: \(uses)")
            }
        }
        if let out {
            try checkFolderNames(entries)
            // DIR/<NAME>/ is replaced as a whole: it may hold only what a run writes.
            for e in entries {
                try RunStaging(target: URL(fileURLWithPath: out).appendingPathComponent(e.name)).checkTarget()
            }
        }
        let work = try workFolder(out: out)
        let cleanup = InterruptCleanup.install { try? FileManager.default.removeItem(at: work) }
        defer {
            try? FileManager.default.removeItem(at: work)
            cleanup.cancel()
        }
        var runs: [PairedComparison.Run] = []
        var folders: [RunFolder] = []
        var notes: [String] = []
        for (i, entry) in entries.enumerated() {
            var request = base
            (request.files, request.out, request.resume) = ([file], work.appendingPathComponent("\(i)").path, false)
            request.systems = [entry.capability: entry.setting]
            let pipeline = RunPipeline(request: request, manifest: manifest, apps: apps)
            var outcome: ScenarioOutcome?
            _ = try pipeline.run(observe: { event in
                switch event {
                case .note(let text) where !notes.contains(text): notes.append(text)
                case .finished(let o): outcome = o
                default: break
                }
            })
            guard let outcome else { continue }
            let rows = try MetricsCSV.read(outcome.folder.appendingPathComponent("metrics.csv"))
            let itemsFile = outcome.folder.appendingPathComponent(ItemsCSV.fileName)
            let items = FileManager.default.fileExists(atPath: itemsFile.path) ? try ItemsCSV.read(itemsFile) : []
            runs.append(PairedComparison.Run(system: entry.name, rows: rows, items: ItemIndex(items)))
            folders.append(RunFolder(system: entry.name, folder: outcome.folder))
            for record in outcome.record.systems ?? [] {
                notes += keepLog(of: record, system: entry.name, folder: outcome.folder, output: output, out: out)
            }
        }
        let compared = PairedComparison.compare(runs) { requirement, metric in
            app?.requirement(requirement)?.metrics.first { $0.name == metric }?.aggregate
        }
        if let out { folders = try publish(folders, into: URL(fileURLWithPath: out)) }
        try withFolders?(folders)
        var comparison = SystemComparison(systems: entries.map(\.name), rows: compared)
        comparison.notes = notes
        return comparison
    }

    /// The folder the runs are written to: a hidden folder in `out` (so the run folders move into
    /// place by renaming), else a temporary one.
    static func workFolder(out: String?) throws -> URL {
        let name = ".compare-\(UUID().uuidString)"
        guard let out else {
            return FileManager.default.temporaryDirectory.appendingPathComponent(String(name.dropFirst()))
        }
        let folder = URL(fileURLWithPath: out)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw UsageError(message: "--out \(out) cannot be created: \(error.localizedDescription)")
        }
        return folder.appendingPathComponent(name)
    }

    /// Refuses NAMEs that cannot be one folder under `--out`.
    public static func checkFolderNames(_ entries: [Entry]) throws(UsageError) {
        for e in entries where e.name.contains("/") || e.name == "." || e.name == ".." || e.name.hasPrefix(".") {
            throw UsageError(
                message: "--candidate NAME '\(e.name)' cannot name a folder under --out (no '/', no leading '.'); "
                    + "choose another NAME")
        }
    }

    /// Moves each run folder to `out/<system>/`, replacing an earlier one.
    static func publish(_ folders: [RunFolder], into out: URL) throws -> [RunFolder] {
        try folders.map { f in
            let target = out.appendingPathComponent(f.system)
            let old = out.appendingPathComponent(".\(f.system).old-\(UUID().uuidString)")
            let fm = FileManager.default
            if fm.fileExists(atPath: target.path) { try fm.moveItem(at: target, to: old) }
            try fm.moveItem(at: f.folder, to: target)
            try? fm.removeItem(at: old)
            return RunFolder(system: f.system, folder: target)
        }
    }

    /// Keeps the log of a system that faulted: in its run folder under `out`, else copied beside
    /// `output` (a file); the note saying where, or that it was removed.
    private static func keepLog(
        of record: SystemRunRecord, system: String, folder: URL, output: String?, out: String?
    ) -> [String] {
        let faults = record.faults.values.reduce(0, +)
        guard faults > 0, let log = record.stderr else { return [] }
        let what = "system '\(system)' faulted \(faults) times in case \(record.caseLabel)"
        if let out {
            return [
                "\(what); its standard error is kept in \(URL(fileURLWithPath: out).appendingPathComponent(system).appendingPathComponent(log).path)"
            ]
        }
        guard let output, output != OutputText.standardStreamName else {
            return ["\(what); give --output FILE or --out DIR to keep its standard error"]
        }
        let name = [system, SystemLogs.fileStem(caseLabel: record.caseLabel), record.capability, "stderr"]
        let kept = output + "." + name.map { SystemLogs.fileStem(caseLabel: $0) }.joined(separator: ".")
        try? FileManager.default.removeItem(atPath: kept)
        guard
            (try? FileManager.default.copyItem(at: folder.appendingPathComponent(log), to: URL(fileURLWithPath: kept)))
                != nil
        else {
            return ["\(what); its standard error could not be kept at \(kept)"]
        }
        return ["\(what); its standard error is kept in \(kept)"]
    }

    /// The columns of the CSV: one row per case, requirement, metric and system.
    public static let columns = [
        "scenario", "requirement", "metric", "system", "unit", "value", "samples", "status", "ci_low", "ci_high",
        "delta", "delta_ci_low", "delta_ci_high", "p_value", "method", "verdict",
    ]

    /// The table's cells, numbers in full precision (empty where undefined).
    public var cells: [[String]] {
        func number(_ v: Double?) -> String { v.map { CSVWriter.exactNumber($0) } ?? "" }
        return rows.map { r in
            [
                r.scenario, r.requirement, r.metric, r.system, r.unit, number(r.value), String(r.samples),
                r.status.rawValue, number(r.ci?.low), number(r.ci?.high), number(r.delta), number(r.deltaCI?.low),
                number(r.deltaCI?.high), number(r.pValue), r.method.rawValue, r.verdict.rawValue,
            ]
        }
    }

    /// RFC 4180 CSV.
    public var csv: String {
        var w = CSVWriter()
        w.row(Self.columns)
        cells.forEach { w.row($0) }
        return w.text
    }

    /// Aligned columns for a terminal: value [interval], Δ [interval], p and verdict, values at a
    /// readable precision with their unit (the case column only when there are several cases).
    public var terminalTable: String { terminalTable(style: TerminalStyle(colour: false)) }

    /// `terminalTable` with its verdicts coloured under `style`: better green, worse red, no difference
    /// dimmed. The verdict is the last column, so colour codes never shift the alignment.
    public func terminalTable(style: TerminalStyle) -> String {
        let severalCases = Set(rows.map(\.scenario)).count > 1
        func interval(_ ci: ConfidenceInterval?, _ unit: String) -> String {
            ci.map { " [\(ValueText.format($0.low, unit: unit)), \(ValueText.format($0.high, unit: unit))]" } ?? ""
        }
        let body = rows.map { r -> [String] in
            let delta = r.delta.map { d in
                r.verdict == .reference
                    ? "" : (d > 0 ? "+" : "") + ValueText.format(d, unit: r.unit) + interval(r.deltaCI, r.unit)
            }
            return (severalCases ? [r.scenario] : []) + [
                r.requirement, r.metric, r.system, ValueText.format(r.value, unit: r.unit) + interval(r.ci, r.unit),
                delta ?? "", r.pValue.map { ValueText.significant($0, digits: 2) } ?? "", r.verdict.rawValue,
            ]
        }
        let header =
            (severalCases ? ["case"] : []) + [
                "requirement", "metric", "system", "value [95 % CI]", "Δ [95 % CI]", "p", "verdict",
            ]
        let table = TextTableRenderer.render(header: header, rows: body)
        guard style.colour else { return table }
        var lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The header and its rule come first, the rows follow in order, and the table ends with a line break.
        let offset = lines.count - 1 - rows.count
        for (i, verdict) in rows.map(\.verdict).enumerated() where offset + i < lines.count {
            let line = lines[offset + i]
            guard line.hasSuffix(verdict.rawValue) else { continue }
            let head = String(line.dropLast(verdict.rawValue.count))
            switch verdict {
            case .better: lines[offset + i] = head + style.good(verdict.rawValue)
            case .worse: lines[offset + i] = head + style.bad(verdict.rawValue)
            case .noSignificantDifference, .untested: lines[offset + i] = head + style.dim(verdict.rawValue)
            case .reference, .different: break
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Whether any system failed a checked row.
    public var anyFailed: Bool { rows.contains { $0.status == .fail } }
}
