import FieldtestData
import Foundation
import MetricReports

/// Why `merge --out` cannot write the run folders asked for; each message says what to do instead.
public enum RunFolderMergeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An input has no `run.json` beside its `metrics.csv`.
    case noRunRecord(file: String)
    /// Standard input cannot be a run folder.
    case standardInput
    /// `--out` is an input run folder or holds one.
    case outputOverInput(out: String, input: String)
    /// `--out` names a file, not a folder.
    case outputIsFile(String)
    /// `--out` holds something `merge` does not write there.
    case foreignContent(out: String, names: [String])
    /// Two shards of one scenario read a dataset of one name with different contents.
    case differentDatasets(scenario: String, dataset: String, file: String, other: String)
    /// A trace file that is not what `fieldtest run` writes.
    case badTrace(file: String, line: Int, reason: String)
    /// A path names no metrics.csv and no folder holding one.
    case noMetrics(String)

    public var description: String {
        switch self {
        case .noRunRecord(let file):
            return "\(file): error: no run.json beside it; --out writes run folders and needs each shard's run.json: "
                + "give the run folders 'fieldtest run --out' wrote, or merge metrics.csv files with --output"
        case .standardInput:
            return "error: --out merges run folders; standard input (-) is none: give the shards' run folders"
        case let .outputOverInput(out, input):
            return "error: --out \(out) is or holds the input run folder \(input); merge replaces that folder "
                + "as a whole, so the input would be lost: choose another folder"
        case .outputIsFile(let out):
            return "error: --out \(out) is a file; give a folder (it is created, or replaced when merge wrote it)"
        case let .foreignContent(out, names):
            return "error: --out \(out) holds \(names.prefix(5).joined(separator: ", "))"
                + (names.count > 5 ? " and \(names.count - 5) more" : "")
                + ", which merge does not write; it replaces the folder as a whole: choose an empty or new folder"
        case let .differentDatasets(scenario, dataset, file, other):
            return "\(file): error: scenario '\(scenario)' read dataset '\(dataset)' with other contents (SHA-256) "
                + "than \(other); the data changed between shards, so their rows do not belong together: "
                + "run every shard on the same datasets"
        case let .badTrace(file, line, reason):
            return "\(file):\(line): error: \(reason); it is not a traces.geojson fieldtest wrote: run that shard again"
        case .noMetrics(let path):
            return
                "\(path): error: holds no metrics.csv; give run folders written by 'fieldtest run', folders of them, "
                + "or metrics.csv files"
        }
    }
}

/// `merge --out DIR`: writes the merged shards of each scenario as a complete run folder
/// `DIR/<scenario>/`, the layout `run --out DIR` gives, so `report DIR` and `check
/// DIR/<scenario>/metrics.csv` read it as they read a one-machine run.
///
/// Each file is merged case by case in the sweep's order (`MergeReport.cases`), every case's
/// lines taken from the shard whose metric rows were kept: `metrics.csv` (every row carrying the
/// merged run's `run_id`), `items.csv`, `events.csv`, `latency.csv`, `latency-histogram.csv` (each
/// case's full HDR histogram, as its shard measured it, so the report's histograms and percentiles
/// over cases merge the same buckets a one-machine run's do), `traces.geojson` (a campus drawn
/// once), the external systems' logs, `seeds.csv` for a complete sweep of several seeds, and
/// `run.json` with totals counted from the merged rows and a `merge` record of the shards and cases.
/// The folder is built beside `DIR` and put in place in one step.
public enum RunFolderMerge {
    /// The `metrics.csv` files `paths` name: a file as it is (`-` too); a folder's own `metrics.csv`,
    /// or else every `metrics.csv` below it in path order (folders whose name starts with `.`,
    /// such as a run in progress, skipped).
    public static func locate(_ paths: [String]) throws(RunFolderMergeError) -> [String] {
        var out: [String] = []
        for p in paths {
            var isDir: ObjCBool = false
            guard p != OutputText.standardStreamName, FileManager.default.fileExists(atPath: p, isDirectory: &isDir),
                isDir.boolValue
            else {
                out.append(p)
                continue
            }
            let folder = p.hasSuffix("/") ? String(p.dropLast()) : p
            if FileManager.default.fileExists(atPath: folder + "/metrics.csv") {
                out.append(folder + "/metrics.csv")
                continue
            }
            var found: [String] = []
            let walk = FileManager.default.enumerator(atPath: folder)
            while let relative = walk?.nextObject() as? String {
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                if (relative as NSString).lastPathComponent == "metrics.csv" { found.append(folder + "/" + relative) }
            }
            if found.isEmpty { throw .noMetrics(p) }
            out += found.sorted()
        }
        return out
    }

    /// Refuses, before anything is read, an `out` that is a file, holds something `merge` does not
    /// write, or is or holds the folder of one of `metricsFiles`.
    public static func checkOutput(_ out: String, metricsFiles: [String]) throws(RunFolderMergeError) {
        let target = OutputPathCheck.canonicalPath(out)
        for file in metricsFiles {
            if file == OutputText.standardStreamName { throw .standardInput }
            let parent = (file as NSString).deletingLastPathComponent
            let folder = OutputPathCheck.canonicalPath(parent.isEmpty ? "." : parent)
            if target == folder || folder.hasPrefix(target + "/") || target == "/" {
                throw .outputOverInput(out: out, input: parent.isEmpty ? "." : parent)
            }
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: out, isDirectory: &isDir) else { return }
        guard isDir.boolValue else { throw .outputIsFile(out) }
        let foreign = foreignEntries(in: URL(fileURLWithPath: out))
        if !foreign.isEmpty { throw .foreignContent(out: out, names: foreign) }
    }

    /// What in `folder` a merge does not write: anything but folders holding report files and `systems/`.
    static func foreignEntries(in folder: URL) -> [String] {
        let fm = FileManager.default
        var foreign: [String] = []
        for name in ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
            var isDir: ObjCBool = false
            let scenario = folder.appendingPathComponent(name)
            guard fm.fileExists(atPath: scenario.path, isDirectory: &isDir), isDir.boolValue else {
                foreign.append(name)
                continue
            }
            for inner in ((try? fm.contentsOfDirectory(atPath: scenario.path)) ?? []).sorted()
            where !(RunReport.fileNames + ["systems"]).contains(inner) {
                foreign.append(name + "/" + inner)
            }
        }
        return foreign
    }

    /// What `write` did: the folders written (one per scenario) and notes for the user.
    public struct Written: Sendable {
        /// `DIR/<scenario>` of each scenario, in order.
        public var folders: [String] = []
        /// Files left out, and why (one line each).
        public var notes: [String] = []
    }

    /// Writes the run folders of `report` (merged from `inputs`, the files `ShardMerge.read` read)
    /// into `out`, replacing a folder an earlier merge wrote there; `commandLine` is the merge's.
    public static func write(
        _ report: MergeReport, inputs: [ShardMerge.Input], to out: String, commandLine: [String],
        runID: String = RunReport.makeRunID(), now: Date = Date()
    ) throws -> Written {
        var records: [RunRecord] = []
        for input in inputs {
            let folder = URL(fileURLWithPath: input.name).deletingLastPathComponent()
            let file = folder.appendingPathComponent("run.json")
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw RunFolderMergeError.noRunRecord(file: input.name)
            }
            records.append(try RunReport.readRecord(file))
        }
        var order: [String] = []
        var byScenario: [String: [MergeReport.MergedCase]] = [:]
        for c in report.cases {
            let scenario = records[c.input].scenario
            if byScenario[scenario] == nil { order.append(scenario) }
            byScenario[scenario, default: []].append(c)
        }
        let target = URL(fileURLWithPath: out)
        let staging = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).merging-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        var written = Written()
        do {
            for scenario in order {
                let shard = MergedScenario(
                    name: scenario, cases: byScenario[scenario]!, inputs: inputs, records: records, report: report,
                    runID: runID)
                let folder = staging.appendingPathComponent(scenario)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                written.notes += try shard.write(into: folder, commandLine: commandLine, now: now)
                written.folders.append(target.appendingPathComponent(scenario).relativePath)
            }
            try publish(staging, to: target)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
        return written
    }

    /// Puts `staging` in place of `target` in one step (Linux `renameat2` exchange), removing what
    /// was there before; where the exchange is unavailable the previous folder is moved aside first.
    static func publish(_ staging: URL, to target: URL) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDir) {
            // Checked before anything was read; checked again so a folder filled meanwhile is not lost.
            let foreign = isDir.boolValue ? foreignEntries(in: target) : ["(a file)"]
            if !foreign.isEmpty { throw RunFolderMergeError.foreignContent(out: target.relativePath, names: foreign) }
            if AtomicFile.exchange(staging.path, target.path) {
                try? FileManager.default.removeItem(at: staging)
                return
            }
            let aside = target.deletingLastPathComponent().appendingPathComponent(
                ".\(target.lastPathComponent).replaced-\(UUID().uuidString.prefix(8))")
            try move(target, to: aside)
            try move(staging, to: target)
            try? FileManager.default.removeItem(at: aside)
            return
        }
        try move(staging, to: target)
    }

    private static func move(_ from: URL, to: URL) throws {
        if rename(from.path, to.path) != 0 {
            throw DataError.unwritable(
                file: to.path, reason: "cannot put the merged folder in place (\(String(cString: strerror(errno))))")
        }
    }
}
