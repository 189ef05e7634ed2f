import FieldtestData
import Foundation
import MetricReports

/// What `merge` reads of a shard's `run.json`: the scenario its rows belong to and
/// the whole sweep that scenario expands to (see `SweepRecord`).
public struct ShardRunInfo: Decodable, Sendable, Equatable {
    /// Scenario name.
    public var scenario: String
    /// SHA-256 of the scenario file the shard ran.
    public var scenarioSHA256: String?
    /// `I/N` when the run was one shard of its sweep.
    public var shard: String?
    /// The whole sweep; nil in a `run.json` written before it was recorded.
    public var sweep: SweepRecord?
    /// The run's identifier, which every row of the `metrics.csv` beside it carries.
    public var runID: String?
    /// The file's `format_version` (nil: format 1).
    public var formatVersion: Int?

    // `run.json` is written with snake-case keys; these name them exactly.
    enum CodingKeys: String, CodingKey {
        case scenario, scenarioSHA256 = "scenario_sha256", shard, sweep, runID = "run_id"
        case formatVersion = "format_version"
    }

    public init(
        scenario: String, scenarioSHA256: String? = nil, shard: String? = nil, sweep: SweepRecord?, runID: String? = nil
    ) {
        self.runID = runID
        self.scenario = scenario
        self.scenarioSHA256 = scenarioSHA256
        self.shard = shard
        self.sweep = sweep
    }

    /// The facts of `record` that `merge` uses.
    public init(_ record: RunRecord) {
        self.init(
            scenario: record.scenario, scenarioSHA256: record.scenarioSHA256, shard: record.shard, sweep: record.sweep,
            runID: record.runID)
        formatVersion = record.formatVersion
    }

    /// The `run.json` in the folder of the metrics file at `metrics` (`displayName` names
    /// that file in messages); nil when there is none.
    public static func read(besides metrics: URL, displayName: String) throws(MergeError) -> ShardRunInfo? {
        let url = metrics.deletingLastPathComponent().appendingPathComponent("run.json")
        let shown =
            displayName.contains("/")
            ? String(displayName[..<displayName.lastIndex(of: "/")!]) + "/run.json" : "run.json"
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = try? Data(contentsOf: url) else {
            throw .invalidRunRecord(file: shown, reason: "cannot be read; check its permissions")
        }
        let info: ShardRunInfo
        do {
            info = try JSONDecoder().decode(ShardRunInfo.self, from: data)
        } catch {
            throw .invalidRunRecord(file: shown, reason: "is not a run.json fieldtest wrote (\(error))")
        }
        if let version = info.formatVersion, version > RunRecord.currentFormatVersion {
            throw .invalidRunRecord(
                file: shown,
                reason:
                    "has format_version \(version), newer than this fieldtest reads (up to \(RunRecord.currentFormatVersion)); merge it with a newer fieldtest"
            )
        }
        return info
    }

    /// Refuses a `metrics.csv` (`file`, its `rows`) whose rows come from another run than this
    /// `run.json`: the two were not written together (e.g. a folder replaced file by file and
    /// interrupted in between), so the run.json's sweep and provenance do not describe the rows.
    public func checkPair(rows: [LocatedMetricRow], file: String) throws(MergeError) {
        guard let runID, let other = rows.first(where: { $0.row.runID != runID }) else { return }
        throw .mismatchedRunRecord(file: file, line: other.line, rowRunID: other.row.runID, recordRunID: runID)
    }

    /// N of `shard` (`I/N`), if it is one.
    var shardCount: Int? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/")
        return parts.count == 2 ? Int(parts[1]) : nil
    }

    /// I of `shard` (`I/N`), if it is one.
    var shardIndex: Int? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/")
        return parts.count == 2 ? Int(parts[0]) : nil
    }

    /// True when this run was a shard that the recorded sweep gives no case: shard I of N runs the
    /// cases whose index is I modulo N, so a shard index at or past the case count runs none (16
    /// array tasks over a 12-case sweep). Its header-only metrics file is then a complete result.
    var hasNoCases: Bool {
        guard let index = shardIndex, let n = shardCount, index >= 0, index < n, let count = sweep?.caseCount
        else { return false }
        return index >= count
    }
}

/// A `merge` input that cannot be merged.
public enum MergeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `run.json` beside an input cannot be read or decoded.
    case invalidRunRecord(file: String, reason: String)
    /// Two inputs' `run.json` record different sweeps of one scenario (the file changed between shards).
    case differentSweeps(scenario: String, file: String, other: String)
    /// A row appears twice in one file.
    case duplicateRow(DataError)
    /// A row's run_id is not the one of the `run.json` beside its file.
    case mismatchedRunRecord(file: String, line: Int, rowRunID: String, recordRunID: String)
    /// Two inputs' `run.json` record different scenario files (SHA-256) for one scenario: a shard ran
    /// another version of it (a threshold or a requirement changed between shards).
    case differentScenarioFiles(scenario: String, file: String, sha256: String, other: String, otherSHA256: String)

    public var description: String {
        switch self {
        case let .invalidRunRecord(file, reason):
            return "\(file): error: \(reason); remove that run.json to merge without the completeness check"
        case let .differentSweeps(scenario, file, other):
            return
                "\(file): error: records another sweep of scenario '\(scenario)' than \(other); the scenario file changed "
                + "between shards: run every shard from one version of it"
        case let .duplicateRow(error):
            return error.description
        case let .mismatchedRunRecord(file, line, rowRunID, recordRunID):
            return
                "\(file):\(line): error: run_id \(rowRunID) is not the run \(recordRunID) that the run.json beside it "
                + "records; the two files come from different runs (an interrupted write?): run the scenario again"
        case let .differentScenarioFiles(scenario, file, sha, other, otherSHA):
            return
                "\(file): error: ran scenario '\(scenario)' from a file with SHA-256 \(sha.prefix(12))…, but \(other) ran it "
                + "from one with SHA-256 \(otherSHA.prefix(12))…; the scenario file changed between shards, so their rows "
                + "do not belong together: run every shard from one version of it"
        }
    }
}

/// The merged rows of a sweep's shards, and what the shards lack or hold twice.
public struct MergeReport: Sendable {
    /// A case of a recorded sweep that no input holds.
    public struct MissingCase: Sendable, Equatable {
        /// Scenario name.
        public var scenario: String
        /// The case (index in the sweep, label, seed).
        public var sweepCase: SweepRecord.Case
        /// `I/N`: the shard that runs it, when the inputs agree on N.
        public var shard: String?
    }

    /// A case whose rows are in more than one input.
    public struct DuplicatedCase: Sendable, Equatable {
        /// Case label (the rows' `scenario` column).
        public var label: String
        /// Case seed.
        public var seed: UInt64
        /// The inputs holding it, in argument order; the first one's rows are kept.
        public var files: [String]
    }

    /// A merged case and the input its rows were taken from.
    public struct MergedCase: Sendable, Equatable {
        /// Case label (the rows' `scenario` column).
        public var label: String
        /// Case seed.
        public var seed: UInt64
        /// Index of the input (in argument order) that holds its kept rows.
        public var input: Int
        /// Its index in the recorded sweep, when the input recorded one.
        public var index: Int?
    }

    /// The rows, each case once, ordered as a single run writes them (see `ShardMerge.merge`).
    public var rows: [MetricRow]
    /// The merged cases in the order of `rows`, each with the input it was taken from.
    public var cases: [MergedCase] = []
    /// Cases of the recorded sweeps that no input holds, in sweep order.
    public var missing: [MissingCase]
    /// Cases held by more than one input.
    public var duplicated: [DuplicatedCase]
    /// Scenario name → number of cases its recorded sweep has.
    public var expectedCases: [String: Int]
    /// Inputs with no recorded sweep beside them (no `run.json`, or one written before
    /// sweeps were recorded): their rows are merged, but cannot tell which cases are missing.
    public var unchecked: [String]

    /// Inputs that hold no rows at all (a header only): a shard that ran nothing is not a result.
    public var empty: [String] = []

    /// True when no case is missing or duplicated and every input holds rows.
    public var isComplete: Bool { missing.isEmpty && duplicated.isEmpty && empty.isEmpty }

    /// What `merge` tells its user, one line each: a note per input whose missing cases cannot be
    /// named, each problem (an error, or a warning when `allowPartial`), and, when the merge is
    /// refused, what to do.
    public func diagnostics(allowPartial: Bool) -> [String] {
        unchecked.map {
            "\($0): note: no run.json recording the sweep beside it; its rows are merged, but missing cases cannot be named"
        }
            + (empty.map { "\($0): holds no metric rows (a header only); did its shard run?" } + problems()).map {
                "merge: \(allowPartial ? "warning" : "error"): \($0)"
            }
            + (isComplete || allowPartial
                ? []
                : [
                    "merge: nothing written; run the missing shards (or merge each shard once), "
                        + "or pass --allow-partial to write the rows that are there"
                ])
    }

    /// Why merged rows make `merge` exit 1: the rows that fail their requirement (at most
    /// `limit` named), or nil when none fails.
    public func failingRowsMessage(limit: Int = 10) -> String? {
        let failing = rows.filter { $0.status == .fail }
        guard !failing.isEmpty else { return nil }
        let named = failing.prefix(limit).map { "\($0.scenario) \($0.requirement) \($0.metric)" }
        let more = failing.count > limit ? " and \(failing.count - limit) more" : ""
        let count = failing.count == 1 ? "1 merged row fails its" : "\(failing.count) merged rows fail their"
        return "merge: \(count) requirement "
            + "(exit 1; the merged file is written): " + named.joined(separator: ", ") + more
    }

    /// One line per problem: per scenario, the missing cases (at most `limit` named, with the
    /// shard that runs each), then each duplicated case with its files.
    public func problems(limit: Int = 10) -> [String] {
        var lines: [String] = []
        var order: [String] = []
        var byScenario: [String: [MissingCase]] = [:]
        for m in missing {
            if byScenario[m.scenario] == nil { order.append(m.scenario) }
            byScenario[m.scenario, default: []].append(m)
        }
        for scenario in order {
            let cases = byScenario[scenario]!
            let named = cases.prefix(limit).map { $0.sweepCase.label + ($0.shard.map { " (shard \($0))" } ?? "") }
            let more = cases.count > limit ? " and \(cases.count - limit) more" : ""
            lines.append(
                "\(scenario): \(cases.count) of \(expectedCases[scenario] ?? 0) cases missing: "
                    + named.joined(separator: ", ") + more)
        }
        for d in duplicated {
            // A sweep of several seeds names the seed in the label already.
            let seed = d.label.hasSuffix("seed=\(d.seed)]") ? "" : " (seed \(d.seed))"
            lines.append("case \(d.label)\(seed) is in \(d.files.count) inputs: \(d.files.joined(separator: ", "))")
        }
        return lines
    }
}

/// Combines the metrics files of a sweep's shards into one, each case once, and says
/// which cases of the sweep are missing or duplicated.
///
/// The expected cases come from each shard's `run.json`, which records the whole sweep
/// (`SweepRecord`: the parameters' values as written and the seeds), so every shard knows
/// every case of the sweep, including those of shards that never ran. A case is identified
/// by its label and seed (the rows' `scenario` and `seed` columns). Rows of inputs without a
/// recorded sweep are merged without that check.
public enum ShardMerge {
    /// One input: a metrics file's rows and, when found, its `run.json`.
    public struct Input: Sendable {
        /// The file name shown in messages.
        public var name: String
        /// The rows, with their lines in the file.
        public var rows: [LocatedMetricRow]
        /// What the `run.json` beside the file records, if there is one.
        public var run: ShardRunInfo?

        public init(name: String, rows: [LocatedMetricRow], run: ShardRunInfo? = nil) {
            self.name = name
            self.rows = rows
            self.run = run
        }

        /// Rows held in memory; their lines are those `MetricsCSV.render` would give them (header on line 1).
        public init(name: String, rows: [MetricRow], run: ShardRunInfo? = nil) {
            self.init(
                name: name, rows: rows.enumerated().map { LocatedMetricRow(line: $0.offset + 2, row: $0.element) },
                run: run)
        }
    }

    /// Reads each of `files` (a metrics CSV and the `run.json` beside it, when there is one; `-`:
    /// standard input, once) and merges them (`merge(_:)`); `files` name the inputs in messages. An
    /// `output` that names one of them is refused before anything is read.
    /// - Throws: `OutputPathCheck.OverwritesInput`, `DataError` for a file that cannot be read,
    ///   `MergeError` for inputs that cannot merge.
    public static func merge(files: [String], output: String? = nil) throws -> MergeReport {
        try merge(try read(files: files, output: output))
    }

    /// Reads each of `files` as `merge(files:output:)` does, without merging them.
    public static func read(files: [String], output: String? = nil) throws -> [Input] {
        let files = try OutputText.inputPaths(files)
        // The run.json read beside each metrics file is an input too.
        try OutputPathCheck.refuseOverwritingInputs(
            files.flatMap { name -> [OutputPathCheck.Input] in
                let url = URL(fileURLWithPath: name)
                return [
                    .init(option: "", url: url),
                    .init(option: "", url: url.deletingLastPathComponent().appendingPathComponent("run.json")),
                ]
            }, output: output)
        return try files.map { name in
            let url = URL(fileURLWithPath: name)
            return Input(
                name: name, rows: try MetricsCSV.readLocated(url, displayName: name),
                run: try ShardRunInfo.read(besides: url, displayName: name))
        }
    }

    /// Merges `inputs`. A case whose rows are in several inputs is kept from the first
    /// and reported duplicated; a row repeated within one input is an error (the file was
    /// edited or concatenated). Cases of a recorded sweep come out in sweep order, so the
    /// shards of one scenario merge to the rows a single run of it writes; other rows
    /// follow by case label and seed, each input's row order kept within a case.
    public static func merge(_ inputs: [Input]) throws(MergeError) -> MergeReport {
        // Expected cases: the recorded sweep of each scenario, identical across its inputs.
        let recorded = try RecordedSweeps(inputs)
        let (sweeps, unchecked, scenarioOrder) = (recorded.sweeps, recorded.unchecked, recorded.scenarioOrder)
        var expected: [MergeCaseKey: (scenario: String, index: Int)] = [:]
        var expectedCases: [String: Int] = [:]
        var sweepCases: [String: [SweepRecord.Case]] = [:]
        for scenario in scenarioOrder {
            let cases = sweeps[scenario]!.sweep.cases(scenario: scenario)
            sweepCases[scenario] = cases
            expectedCases[scenario] = cases.count
            for c in cases { expected[MergeCaseKey(label: c.label, seed: c.seed)] = (scenario, c.index) }
        }

        // Each case is taken from the first input that holds it.
        var owner: [MergeCaseKey: Int] = [:]
        var duplicateFiles: [MergeCaseKey: [Int]] = [:]
        var duplicateOrder: [MergeCaseKey] = []
        var kept: [(order: (group: String, index: Int, label: String, seed: UInt64, position: Int), row: MetricRow)] =
            []
        for (fileIndex, input) in inputs.enumerated() {
            var lineOfRow: [String: Int] = [:]
            for located in input.rows {
                let r = located.row
                if let other = lineOfRow[r.key] {
                    throw .duplicateRow(
                        .badLayout(
                            file: input.name, line: located.line,
                            reason:
                                "row \(r.requirement) \(r.metric) of case \(r.scenario) seed \(r.seed) is also on line \(other); "
                                + "a metrics file holds each row once (was it concatenated?); merge the shards' own files"
                        ))
                }
                lineOfRow[r.key] = located.line
                let key = MergeCaseKey(label: r.scenario, seed: r.seed)
                if let first = owner[key] {
                    if first != fileIndex {
                        if duplicateFiles[key] == nil {
                            duplicateOrder.append(key)
                            duplicateFiles[key] = [first]
                        }
                        if duplicateFiles[key]!.last != fileIndex { duplicateFiles[key]!.append(fileIndex) }
                        continue
                    }
                } else {
                    owner[key] = fileIndex
                }
                let place = expected[key]
                kept.append(
                    ((place?.scenario ?? r.scenario, place?.index ?? Int.max, r.scenario, r.seed, kept.count), r))
            }
        }
        kept.sort { $0.order < $1.order }

        let missing = recorded.missing(from: sweepCases, owner: owner)
        let duplicated = duplicateOrder.map { key in
            MergeReport.DuplicatedCase(
                label: key.label, seed: key.seed, files: duplicateFiles[key]!.map { inputs[$0].name })
        }
        var report = MergeReport(
            rows: kept.map(\.row), missing: missing, duplicated: duplicated,
            expectedCases: expectedCases, unchecked: unchecked)
        var listed = Set<MergeCaseKey>()
        for k in kept {
            let key = MergeCaseKey(label: k.row.scenario, seed: k.row.seed)
            guard listed.insert(key).inserted else { continue }
            report.cases.append(
                .init(label: key.label, seed: key.seed, input: owner[key]!, index: expected[key]?.index))
        }
        // A shard the sweep gives no case is empty by design, not a shard that failed to run.
        report.empty = inputs.filter { $0.rows.isEmpty && $0.run?.hasNoCases != true }.map(\.name)
        return report
    }
}

/// The sweeps the inputs' `run.json` files record, checked to agree: one scenario file (by SHA-256) and
/// one sweep per scenario, each metrics file from the run its `run.json` describes.
struct RecordedSweeps {
    /// Each scenario's sweep and the first input that recorded it.
    var sweeps: [String: (sweep: SweepRecord, file: String)] = [:]
    /// The shard counts (`N` of `I/N`, nil: not a shard) each scenario's inputs ran with.
    var shardCounts: [String: Set<Int?>] = [:]
    /// Inputs with no recorded sweep, whose completeness cannot be checked.
    var unchecked: [String] = []
    /// Scenarios in the order their first input came.
    var scenarioOrder: [String] = []

    init(_ inputs: [ShardMerge.Input]) throws(MergeError) {
        var scenarioFiles: [String: (sha256: String, file: String)] = [:]
        for input in inputs {
            try input.run?.checkPair(rows: input.rows, file: input.name)
            if let run = input.run, let sha = run.scenarioSHA256 {
                if let known = scenarioFiles[run.scenario], known.sha256 != sha {
                    throw .differentScenarioFiles(
                        scenario: run.scenario, file: input.name, sha256: sha, other: known.file,
                        otherSHA256: known.sha256)
                }
                if scenarioFiles[run.scenario] == nil { scenarioFiles[run.scenario] = (sha, input.name) }
            }
            guard let run = input.run, let sweep = run.sweep else {
                unchecked.append(input.name)
                continue
            }
            // A record `run` wrote never exceeds the loader's bound; anything else is not listed.
            guard let count = sweep.caseCount, count <= ScenarioSchema.maximumCases else {
                throw .invalidRunRecord(
                    file: input.name,
                    reason:
                        "its run.json records a sweep of \(sweep.caseCount.map(String.init) ?? "a negative number of") cases, "
                        + "not 1 to \(ScenarioSchema.maximumCases) as fieldtest writes")
            }
            if let known = sweeps[run.scenario] {
                if known.sweep != sweep {
                    throw .differentSweeps(scenario: run.scenario, file: input.name, other: known.file)
                }
            } else {
                sweeps[run.scenario] = (sweep, input.name)
                scenarioOrder.append(run.scenario)
            }
            shardCounts[run.scenario, default: []].insert(run.shardCount)
        }
    }

    /// The cases of the recorded sweeps (`sweepCases`) no input holds (`owner`), with the shard that runs
    /// each when the scenario's inputs agree on the shard count.
    func missing(from sweepCases: [String: [SweepRecord.Case]], owner: [MergeCaseKey: Int]) -> [MergeReport.MissingCase]
    {
        var missing: [MergeReport.MissingCase] = []
        for scenario in scenarioOrder {
            let counts = shardCounts[scenario] ?? []
            let n = counts.count == 1 ? counts.first! : nil
            for c in sweepCases[scenario]! where owner[MergeCaseKey(label: c.label, seed: c.seed)] == nil {
                missing.append(.init(scenario: scenario, sweepCase: c, shard: n.map { "\(c.index % $0)/\($0)" }))
            }
        }
        return missing
    }
}

/// A case of a merge: its label and seed.
struct MergeCaseKey: Hashable {
    var label: String
    var seed: UInt64
}
