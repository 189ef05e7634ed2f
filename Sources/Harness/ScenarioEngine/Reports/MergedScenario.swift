import FieldtestData
import Foundation
import MetricReports

/// A per-case CSV file of a run folder (`items.csv`, `events.csv`, `latency.csv`,
/// `latency-histogram.csv`): its name, its columns and the checks each row must pass.
struct CaseTable: Sendable {
    var file: String
    var columns: [String]
    var check: @Sendable (CSVRow) throws(DataError) -> Void

    static let all = [
        CaseTable(file: ItemsCSV.fileName, columns: ItemsCSV.columns) { r throws(DataError) in
            if !["", "true", "false"].contains(try r.string("correct")) {
                throw r.invalid("correct", "is not true, false or empty")
            }
            if !(try r.string("error")).isEmpty { _ = try r.double("error") }
        },
        CaseTable(file: TraceFiles.eventsFile, columns: TraceFiles.eventColumns) { _ throws(DataError) in },
        CaseTable(file: TraceFiles.latencyFile, columns: TraceFiles.latencyColumns) { r throws(DataError) in
            _ = try r.double("seconds", in: 0...Double.greatestFiniteMagnitude)
        },
        CaseTable(file: TraceFiles.latencyHistogramFile, columns: TraceFiles.latencyHistogramColumns) {
            r throws(DataError) in
            _ = try r.double("seconds", in: 0...3600)
            let count = try r.double("count", in: 1...1e15)
            if count != count.rounded() { throw r.invalid("count", "is not a whole number of samples") }
        },
    ]
}

/// One scenario of a `merge --out`: its merged cases, the shards they come from, and how each
/// file of its run folder is assembled from theirs (see `RunFolderMerge`).
struct MergedScenario {
    var name: String
    var cases: [MergeReport.MergedCase]
    var inputs: [ShardMerge.Input]
    var records: [RunRecord]
    var report: MergeReport
    var runID: String

    /// The inputs holding at least one of the cases, in argument order.
    var owners: [Int] { Array(Set(cases.map(\.input))).sorted() }

    /// The folder of input `i`.
    func inputFolder(of i: Int) -> URL { URL(fileURLWithPath: inputs[i].name).deletingLastPathComponent() }

    /// The file `file` beside input `i`'s `metrics.csv`, as messages name it.
    func shown(_ i: Int, _ file: String) -> String {
        let name = inputs[i].name
        guard let slash = name.lastIndex(of: "/") else { return file }
        return String(name[...slash]) + file
    }

    /// The labels of the cases taken from input `i`.
    func labels(of i: Int) -> Set<String> { Set(cases.filter { $0.input == i }.map(\.label)) }

    /// Writes the scenario's run folder into `folder`; returns notes on files left out.
    func write(into folder: URL, commandLine: [String], now: Date) throws -> [String] {
        let keys = Set(cases.map { "\($0.label)\t\($0.seed)" })
        let rows = report.rows.filter { keys.contains("\($0.scenario)\t\($0.seed)") }.map { row in
            var row = row
            row.runID = runID
            return row
        }
        var notes: [String] = []
        try AtomicFile.write(MetricsCSV.render(rows), to: folder.appendingPathComponent("metrics.csv"))
        for table in CaseTable.all { notes += try merge(table, into: folder) }
        notes += try mergeTraces(into: folder)
        let record = try runRecord(rows: rows, commandLine: commandLine, now: now)
        try copySystemLogs(into: folder)
        if (record.sweep?.seedList.count ?? 0) > 1, record.merge?.complete == true {
            let summary = SeedSummary.summarise(rows)
            if !summary.isEmpty {
                try AtomicFile.write(
                    SeedSummary.render(summary), to: folder.appendingPathComponent(SeedSummary.fileName))
            }
        }
        try RunReport.writeRecord(record, to: folder)
        return notes
    }

    /// Input `i`'s rows of `table`, each case's lines as one text (nil when it has no such file).
    func lines(_ table: CaseTable, input i: Int) throws -> [String: String]? {
        let url = inputFolder(of: i).appendingPathComponent(table.file)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let t = try CSVTable(url: url, displayName: shown(i, table.file))
        try t.require(table.columns)
        let positions = table.columns.map { t.header.position(of: $0)! }
        let wanted = labels(of: i)
        var out: [String: String] = [:]
        _ = try t.load(policy: .strict) { r throws(DataError) -> Int? in
            try table.check(r)
            let label = try r.string("case")
            if label.isEmpty { throw r.invalid("case", "is empty; every row names its case") }
            guard wanted.contains(label) else { return nil }
            var w = CSVWriter()
            w.row(positions.map { r.fields[$0] })
            out[label, default: ""] += w.text
            return nil
        }
        return out
    }

    /// Writes `table` merged case by case, when every shard the cases come from has it.
    func merge(_ table: CaseTable, into folder: URL) throws -> [String] {
        var byInput: [Int: [String: String]] = [:]
        var lacking: [Int] = []
        for i in owners {
            if let l = try lines(table, input: i) { byInput[i] = l } else { lacking.append(i) }
        }
        if byInput.isEmpty { return [] }
        if !lacking.isEmpty { return [leftOut(table.file, lacking: lacking)] }
        var text = table.columns.joined(separator: ",") + "\n"
        for c in cases { text += byInput[c.input]?[c.label] ?? "" }
        try AtomicFile.write(text, to: folder.appendingPathComponent(table.file))
        return []
    }

    /// The note of a file some shards have and others not.
    func leftOut(_ file: String, lacking: [Int]) -> String {
        "merge: note: \(name)/\(file) is not written: \(lacking.map { shown($0, file) }.joined(separator: ", ")) "
            + "\(lacking.count == 1 ? "is" : "are") missing (a shard ran with --trace none, or another --trace "
            + "level, or before the file was written); run every shard alike to merge it"
    }

    /// Writes `traces.geojson` merged case by case (a campus drawn by several cases once), when every
    /// shard the cases come from has one at the same trace level.
    func mergeTraces(into folder: URL) throws -> [String] {
        var parts: [Int: TraceGeoJSONParts] = [:]
        var lacking: [Int] = []
        for i in owners {
            let url = inputFolder(of: i).appendingPathComponent(TraceFiles.geoJSONFile)
            guard FileManager.default.fileExists(atPath: url.path) else {
                lacking.append(i)
                continue
            }
            let data = try readFileBytes(url, displayName: shown(i, TraceFiles.geoJSONFile))
            parts[i] = try TraceGeoJSONParts(
                String(decoding: data, as: UTF8.self), file: shown(i, TraceFiles.geoJSONFile), wanted: labels(of: i))
        }
        if parts.isEmpty { return [] }
        if !lacking.isEmpty { return [leftOut(TraceFiles.geoJSONFile, lacking: lacking)] }
        let heads = Set(parts.values.map(\.head))
        if heads.count > 1 {
            return [
                "merge: note: \(name)/\(TraceFiles.geoJSONFile) is not written: the shards ran at different --trace "
                    + "levels; run every shard alike to merge it"
            ]
        }
        var out = heads.first!
        out += cases.compactMap { parts[$0.input]!.dropped[$0.label] }.joined(separator: ",")
        out += TraceFiles.geoJSONMiddle
        var campuses = Set<String>()
        var first = true
        for c in cases {
            for f in parts[c.input]!.features[c.label] ?? [] {
                if let campus = f.campus, !campuses.insert(campus).inserted { continue }
                out += (first ? "\n" : ",\n") + f.text
                first = false
            }
        }
        out += TraceFiles.geoJSONTail
        try AtomicFile.write(out, to: folder.appendingPathComponent(TraceFiles.geoJSONFile))
        return []
    }

    /// Copies the cases' system logs (`systems/<file>` in a shard's folder) into `folder/systems/`.
    func copySystemLogs(into folder: URL) throws {
        for c in cases {
            for s in records[c.input].systems ?? [] where s.caseLabel == c.label {
                // Only a plain file name under systems/: run.json is input, and a path must not lead out.
                guard let log = s.stderr, log.hasPrefix("systems/"), !log.dropFirst(8).contains("/"),
                    !log.contains(".."), log.count > 8
                else { continue }
                let from = inputFolder(of: c.input).appendingPathComponent(log)
                guard FileManager.default.fileExists(atPath: from.path) else { continue }
                let to = folder.appendingPathComponent(log)
                try FileManager.default.createDirectory(
                    at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
                if !FileManager.default.fileExists(atPath: to.path) {
                    try FileManager.default.copyItem(at: from, to: to)
                }
            }
        }
    }
}
