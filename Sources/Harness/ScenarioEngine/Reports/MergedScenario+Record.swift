import FieldtestData
import Foundation
import MetricReports

extension MergedScenario {
    /// `run.json` of the merged folder: the first shard's record of the scenario, with the merged
    /// run's ID, the totals counted from `rows`, the cases, the union of the shards' datasets (one
    /// name read with two contents is an error), their systems and notes, the span from the first
    /// start to the last finish, and the `merge` record.
    func runRecord(rows: [MetricRow], commandLine: [String], now: Date) throws -> RunRecord {
        let owners = self.owners
        var r = records[owners[0]]
        r.formatVersion = RunRecord.currentFormatVersion
        r.runID = runID
        r.shard = nil
        r.cases = cases.count
        r.passed = rows.filter { $0.status == .pass }.count
        r.failed = rows.filter { $0.status == .fail }.count
        r.informational = rows.filter { $0.status == .info }.count
        r.notMeasured = rows.filter { $0.status == .notMeasured }.count
        r.events = owners.reduce(0) { $0 + records[$1].events }
        try mergeDatasets(into: &r)
        let omitted = owners.reduce(0) { $0 + (records[$1].itemsOmitted ?? 0) }
        r.itemsOmitted = omitted > 0 ? omitted : nil
        var notes: [String] = []
        for i in owners { for n in records[i].notes ?? [] where !notes.contains(n) { notes.append(n) } }
        r.notes = notes.isEmpty ? nil : notes
        let systems = cases.flatMap { c in (records[c.input].systems ?? []).filter { $0.caseLabel == c.label } }
        r.systems = systems.isEmpty ? nil : systems
        r.startedAt = owners.map { records[$0].startedAt }.min() ?? r.startedAt
        let finishes = owners.compactMap { records[$0].finishedAt }
        r.finishedAt = finishes.count == owners.count ? finishes.max() : nil
        let iso = ISO8601DateFormatter()
        if let f = r.finishedAt.flatMap(iso.date(from:)), let s = iso.date(from: r.startedAt) {
            r.durationSeconds = (f.timeIntervalSince(s) * 1000).rounded() / 1000
        } else {
            r.durationSeconds = nil
        }
        r.commandLine = commandLine
        let commits = Set(owners.map { records[$0].toolCommit ?? "" })
        r.toolCommit = commits.count == 1 && commits.first != "" ? commits.first : nil
        r.merge = mergeRecord(now: now)
        return r
    }

    /// The union of the owners' datasets into `r`; throws when two shards read one name with other contents.
    func mergeDatasets(into r: inout RunRecord) throws {
        var hashes: [String: (sha: String, input: Int)] = [:]
        var files: [DatasetFileRecord] = []
        var manifest: [String: String] = [:]
        for i in owners {
            for (dataset, sha) in records[i].datasets.sorted(by: { $0.key < $1.key }) {
                if let known = hashes[dataset], known.sha != sha {
                    throw RunFolderMergeError.differentDatasets(
                        scenario: name, dataset: dataset, file: shown(i, "run.json"),
                        other: shown(known.input, "run.json"))
                }
                hashes[dataset] = hashes[dataset] ?? (sha, i)
            }
            for f in records[i].datasetFiles ?? [] where !files.contains(f) { files.append(f) }
            manifest.merge(records[i].datasetsManifest ?? [:]) { first, _ in first }
        }
        r.datasets = hashes.mapValues(\.sha)
        r.datasetFiles = r.datasetFiles == nil && files.isEmpty ? nil : files
        r.datasetsManifest = manifest.isEmpty ? nil : manifest
    }

    /// The `merge` record: every input of this scenario (a shard given no case included) and every case.
    func mergeRecord(now: Date) -> MergeRecord {
        let taken = Dictionary(grouping: cases, by: \.input).mapValues(\.count)
        let shards = records.indices.filter { records[$0].scenario == name }.map { i in
            let s = records[i]
            return MergeRecord.Shard(
                runID: s.runID, shard: s.shard, path: shown(i, "run.json"), cases: taken[i] ?? 0, machine: s.machine,
                toolVersion: s.toolVersion, toolCommit: s.toolCommit, startedAt: s.startedAt, finishedAt: s.finishedAt,
                durationSeconds: s.durationSeconds, commandLine: s.commandLine)
        }
        let missing = report.missing.filter { $0.scenario == name }.map(\.sweepCase.label)
        let labels = Set(cases.map(\.label))
        let complete =
            missing.isEmpty && report.empty.isEmpty
            && !report.duplicated.contains { labels.contains($0.label) }
        return MergeRecord(
            mergedAt: ISO8601DateFormatter().string(from: now), complete: complete, missing: missing,
            shards: shards,
            cases: cases.map { .init(index: $0.index, label: $0.label, seed: $0.seed, runID: records[$0.input].runID) })
    }
}

/// A `traces.geojson` that `fieldtest run` wrote, cut into the pieces a merge reassembles: the head
/// (level and caps), each case's entry of dropped features, and each case's features with, for a
/// campus, its geometry's text (drawn once per file).
struct TraceGeoJSONParts {
    /// Everything up to and including `"dropped":[`.
    var head: String
    /// Case label → its dropped entry.
    var dropped: [String: String] = [:]
    /// Case label → its features, in file order.
    var features: [String: [(text: String, campus: String?)]] = [:]

    static let start = "{\"type\":\"FeatureCollection\",\"fieldtest\":{"
    static let droppedKey = ",\"dropped\":["
    static let featurePrefix = "{\"type\":\"Feature\",\"geometry\":"

    /// Cuts `text` (from `file`) keeping the cases of `wanted`.
    init(_ text: String, file: String, wanted: Set<String>) throws(RunFolderMergeError) {
        let tail = TraceFiles.geoJSONTail
        guard text.hasPrefix(Self.start), text.hasSuffix(tail), let d = text.range(of: Self.droppedKey),
            let m = text.range(of: TraceFiles.geoJSONMiddle, range: d.upperBound..<text.endIndex),
            m.upperBound <= text.index(text.endIndex, offsetBy: -tail.count)
        else {
            throw .badTrace(
                file: file, line: 1, reason: "it does not start and end as a traces.geojson fieldtest writes")
        }
        head = String(text[..<d.upperBound])
        for entry in Self.topLevelObjects(text[d.upperBound..<m.lowerBound]) {
            guard let object = Self.object(entry), let label = object["case"] as? String else {
                throw .badTrace(file: file, line: 1, reason: "a dropped entry is not an object with a case")
            }
            if wanted.contains(label) { dropped[label] = String(entry) }
        }
        let body = text[m.upperBound..<text.index(text.endIndex, offsetBy: -tail.count)]
        for (n, raw) in body.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where n > 0 {
            let line = raw.hasSuffix(",") ? raw.dropLast() : raw
            guard line.hasPrefix(Self.featurePrefix), let p = line.range(of: ",\"properties\":{"),
                let properties = Self.object(line)?["properties"] as? [String: Any],
                let label = properties["case"] as? String
            else {
                throw .badTrace(file: file, line: n + 1, reason: "not one GeoJSON feature with a case property")
            }
            guard wanted.contains(label) else { continue }
            let geometry = String(line[line.index(line.startIndex, offsetBy: Self.featurePrefix.count)..<p.lowerBound])
            features[label, default: []].append(
                (String(line), properties["kind"] as? String == "campus" ? geometry : nil))
        }
    }

    /// `text` as a JSON object, or nil.
    static func object(_ text: Substring) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// The top-level `{…}` objects of a comma-separated list (strings and nesting respected).
    static func topLevelObjects(_ text: Substring) -> [Substring] {
        var out: [Substring] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start = text.startIndex
        for i in text.indices {
            let ch = text[i]
            if inString {
                if escaped {
                    escaped = false
                } else if ch == "\\" {
                    escaped = true
                } else if ch == "\"" {
                    inString = false
                }
                continue
            }
            switch ch {
            case "\"": inString = true
            case "{":
                if depth == 0 { start = i }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0 { out.append(text[start...i]) }
            default: break
            }
        }
        return out
    }
}
