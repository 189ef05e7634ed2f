import FieldtestData
import Foundation
import MetricReports

/// What a run reports as it goes, in order: notes for standard error, `prepared` once every input
/// is read and every output location checked (nothing has run yet), then for each scenario
/// `starting` and `finished`.
public enum RunEvent {
    /// A note or warning for the user (standard error).
    case note(String)
    /// Inputs read, baselines found, output folders checked: the scenarios are about to run.
    case prepared
    /// `scenario` is about to run `caseCount` cases.
    case starting(Scenario, caseCount: Int)
    /// A scenario ran and its reports are written.
    case finished(ScenarioOutcome)
}

/// One scenario's results, as written to its report folder.
public struct ScenarioOutcome {
    /// The scenario (with any seed override).
    public var scenario: Scenario
    /// Every case's rows, in case order.
    public var rows: [MetricRow]
    /// What `run.json` holds.
    public var record: RunRecord
    /// The folder its reports were written to.
    public var folder: URL
    /// The comparison with the baseline, when one was given.
    public var check: CheckReport?

    /// Rows whose requirement failed.
    public var failedCount: Int { record.failed }
    /// Rows that passed a threshold.
    public var passedCount: Int { rows.count - record.failed - record.informational }
}

/// The result of a whole run.
public struct RunOutcome: Sendable {
    /// Whether a requirement failed in any scenario.
    public var anyFailed = false
    /// Whether any metric regressed against the baseline.
    public var anyRegression = false
}

/// Runs scenario files end to end: parses them, expands their cases (and shard), finds their
/// baselines, checks the output locations, runs each scenario, hashes the datasets it read,
/// writes `metrics.csv`, `run.json` (and JUnit XML, and a recorded baseline) and compares the rows
/// with the baseline. Everything is read and checked before anything runs.
public struct RunPipeline {
    /// What to run.
    public var request: RunRequest
    /// The datasets the scenarios name.
    public var manifest: DatasetManifest
    /// The apps scenarios may name: their vocabulary, requirements and drivers.
    public var apps: AppRegistry

    /// A pipeline for `request` over `manifest`, running the apps of `apps`.
    public init(request: RunRequest, manifest: DatasetManifest, apps: AppRegistry) {
        self.request = request
        self.manifest = manifest
        self.apps = apps
    }

    /// Runs the request, reporting progress and each scenario's outcome to `observe`. Throws
    /// (before anything runs, or when a scenario cannot run or its reports cannot be written)
    /// a `RunError`, a located scenario diagnostic or a data error, each saying what to fix.
    public func run(observe: (RunEvent) -> Void) throws -> RunOutcome {
        try request.validate()
        var tolerances = Tolerances()
        for t in request.tolerances { try tolerances.apply(t) }
        let scenarios = try loadScenarios()
        let caseLists = scenarios.map { s in
            // `--system` replaces the scenario's and the sweep's choice in every case.
            let cases = ScenarioRunner.cases(of: s).map { c in
                var c = c
                for (capability, setting) in request.systems { c.scenario.systems[capability] = setting }
                return c
            }
            return request.shard.map { ScenarioRunner.shard(cases, index: $0.index, count: $0.count) } ?? cases
        }
        let baselines = try zip(scenarios, caseLists).map { s, cases in
            try request.baseline.map {
                try BaselineSelection.rows(for: s, running: cases, baseline: $0, shard: request.shard)
            }
        }
        try tolerances.checkOverrideNames(
            metrics: Set(baselines.flatMap { $0 ?? [] }.map(\.metric)), requirements: apps.requirementIDs)
        let runIDs = scenarios.map { _ in RunReport.makeRunID() }
        let reportFolders = zip(scenarios, runIDs).map { s, runID in
            request.out.map { URL(fileURLWithPath: $0).appendingPathComponent(s.name) }
                ?? URL(fileURLWithPath: request.resultsFolder).appendingPathComponent(s.name).appendingPathComponent(
                    runID)
        }
        let createdFolders = try OutputLocations.prepare(try outputLocations(reportFolders: reportFolders))
        // Folders made for outputs that were never written (a scenario failed to run) do not stay behind.
        defer { OutputLocations.removeEmptyFolders(createdFolders) }
        if let baseline = request.baseline {
            let here = MachineIdentity.current()
            let recorded = MachineIdentity.recorded(in: BaselineSelection.folder(of: baseline))
            tolerances.comparesLatency = request.compareLatency.compares(baseline: recorded, current: here)
            if !tolerances.comparesLatency && request.compareLatency == .sameMachine {
                observe(
                    .note(
                        "note: the baseline was recorded on \(recorded.map(\.description) ?? "an unrecorded machine"), not on \(here); "
                            + "latency rows are checked against their thresholds only (--compare-latency always compares them anyway)"
                    ))
            }
        }
        observe(.prepared)
        let store = DatasetStore(manifest: manifest)
        var datasetHashing = DatasetHashing(manifest: manifest)
        var outcome = RunOutcome()
        for (index, s) in scenarios.enumerated() {
            let cases = caseLists[index]
            let runID = runIDs[index]
            let folder = reportFolders[index]
            observe(.starting(s, caseCount: cases.count))
            let startedAt = ISO8601DateFormatter().string(from: Date())
            // Each scenario records the dataset files it reads (the cache of parsed datasets is shared).
            let session = store.session()
            let results = try ScenarioRunner.run(cases, jobs: request.jobs, runID: runID, datasets: session, apps: apps)
            let rows = results.flatMap(\.rows)
            let used = try datasetHashing.hashes(read: session.filesRead, listed: s.datasets) { observe(.note($0)) }
            var record = try runRecord(
                s, used: used, runID: runID, startedAt: startedAt, cases: cases.count, results: results, rows: rows)
            let systems = results.flatMap(\.systems)
            let logs = SystemLogs.place(systems)
            record.systems = logs.records.isEmpty ? nil : logs.records
            try RunReport.write(
                rows: rows, record: record, to: folder, junit: request.junit.map { URL(fileURLWithPath: $0) })
            try logs.copy(into: folder)
            if let recordBaseline = request.recordBaseline {
                let folder = URL(fileURLWithPath: recordBaseline)
                try AtomicFile.write(MetricsCSV.render(rows), to: folder.appendingPathComponent("\(s.name).csv"))
                try MachineIdentity.current().write(into: folder)
            }
            let check = baselines[index].map {
                BaselineCheck.compare(current: rows, baseline: $0, tolerances: tolerances)
            }
            outcome.anyFailed = outcome.anyFailed || record.failed > 0
            outcome.anyRegression = outcome.anyRegression || check?.hasRegression == true
            observe(.finished(ScenarioOutcome(scenario: s, rows: rows, record: record, folder: folder, check: check)))
        }
        return outcome
    }

    /// The scenarios of the request's files, with the seed override applied; two files of one
    /// scenario name are an error (reports and baselines are kept by name).
    func loadScenarios() throws -> [Scenario] {
        let loader = ScenarioLoader(manifest: manifest, registry: apps)
        var scenarios: [Scenario] = []
        var fileOfName: [String: String] = [:]
        for file in request.files {
            var s = try loader.load(URL(fileURLWithPath: file), displayName: file)
            if let seed = request.seed { s.seed = seed }
            if let other = fileOfName[s.name] {
                throw RunError.duplicateScenarioName(file: file, name: s.name, otherFile: other)
            }
            fileOfName[s.name] = file
            scenarios.append(s)
        }
        return scenarios
    }

    /// The locations the run writes to: the `--junit` file's folder, the `--record-baseline`
    /// folder, the `--out` folder and every scenario's report folder.
    func outputLocations(reportFolders: [URL]) throws(RunError) -> [OutputLocations.Location] {
        var locations: [OutputLocations.Location] = []
        if let junit = request.junit {
            let url = URL(fileURLWithPath: junit)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue {
                throw .junitIsFolder(junit)
            }
            locations.append(.init(option: "--junit", path: junit, folder: url.deletingLastPathComponent()))
        }
        if let recordBaseline = request.recordBaseline {
            locations.append(
                .init(option: "--record-baseline", path: recordBaseline, folder: URL(fileURLWithPath: recordBaseline)))
        }
        if let out = request.out {
            locations.append(.init(option: "--out", path: out, folder: URL(fileURLWithPath: out)))
        }
        for folder in reportFolders {
            locations.append(
                .init(
                    option: request.out == nil ? "the report folder (--out DIR chooses another)" : "--out",
                    path: folder.path, folder: folder))
        }
        return locations
    }

    /// What `run.json` records of one scenario's run.
    func runRecord(
        _ s: Scenario, used: DatasetHashing.Used, runID: String, startedAt: String,
        cases: Int, results: [CaseResult], rows: [MetricRow]
    ) throws -> RunRecord {
        let hash = try DatasetManifest.sha256(of: URL(fileURLWithPath: s.file))
        return RunRecord(
            tool: "fieldtest", toolVersion: request.toolVersion, scenario: s.name, scenarioFile: s.file,
            scenarioSHA256: hash, seed: s.seed, runID: runID, startedAt: startedAt, datasets: used.hashes,
            machine: RunReport.machine(), cases: cases, shard: request.shard?.text,
            events: results.reduce(0) { $0 + $1.events },
            passed: rows.filter { $0.status == .pass }.count, failed: rows.filter { $0.status == .fail }.count,
            informational: rows.filter { $0.status == .info }.count,
            datasetsManifest: used.manifestHashes.isEmpty ? nil : used.manifestHashes, sweep: SweepRecord(s))
    }
}
