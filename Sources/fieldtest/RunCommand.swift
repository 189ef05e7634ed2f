import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine

/// `fieldtest run`: replay scenarios and write their metric reports.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files on the virtual clock and write metrics.csv, run.json (and JUnit XML) per scenario.",
        discussion: """
        Reports go to Results/runs/<scenario>/<run_id>/, or DIR/<scenario>/ with --out DIR.
        Exit codes: 0 every requirement passes (and no regression against --baseline),
        1 a requirement failed or a metric regressed, 2 invalid input, usage or a missing baseline.
        """)

    @Argument(help: "Scenario files (YAML).")
    var files: [String]

    @Option(name: .long, help: "Write reports to DIR/<scenario>/ instead of Results/runs/<scenario>/<run_id>/.")
    var out: String?

    @Option(name: .long, help: "Also write JUnit XML (one test case per requirement row) to this file.")
    var junit: String?

    @Option(name: .long, help: "Compare with a baseline: a metrics CSV, or a folder holding <scenario>.csv files.")
    var baseline: String?

    @Option(name: .long, help: "Record this run's metrics as <scenario>.csv baselines in this folder.")
    var recordBaseline: String?

    @Option(name: .long, help: "Override the scenario seed (ignored for sweeps with seeds).")
    var seed: UInt64?

    @Option(name: .long, help: "Sweep cases run in parallel on this many threads (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Run only slice I of N of each sweep (0-based, I/N), e.g. for a batch array job.")
    var shard: String?

    @Option(name: .long, parsing: .singleValue, help: "Baseline tolerance NAME=VALUE (accuracy, latency, latency-floor, count, rate, a requirement ID or metric).")
    var tolerance: [String] = []

    @Option(name: .long, help: "Compare latency rows with the baseline: same-machine (only when the baseline's machine.json names this machine), always or never.")
    var compareLatency: LatencyComparison = .sameMachine

    @Option(name: .long, help: "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in).")
    var datasets: String?

    @Flag(name: .long, help: "Print only the failing rows.")
    var quiet = false

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let shard, Self.parseShard(shard) == nil { throw ValidationError("--shard must be I/N with 0 ≤ I < N, e.g. 0/4") }
        if junit != nil && files.count > 1 { throw ValidationError("--junit takes one scenario file; run scenarios one at a time or use separate files") }
    }

    static func parseShard(_ s: String) -> (index: Int, count: Int)? {
        let p = s.split(separator: "/").compactMap { Int($0) }
        guard p.count == 2, p[1] > 0, p[0] >= 0, p[0] < p[1] else { return nil }
        return (p[0], p[1])
    }

    func run() throws {
        let manifest = try CommandSupport.datasetManifest(datasets)
        let loader = ScenarioLoader(manifest: manifest)
        var tolerances = Tolerances()
        for t in tolerance { try CommandSupport.guarded { try tolerances.apply(t) } }
        // Everything is parsed (and baselines found) before anything runs.
        var scenarios: [Scenario] = []
        for file in files {
            var s = try CommandSupport.guarded { try loader.load(URL(fileURLWithPath: file), displayName: file) }
            if let seed { s.seed = seed }
            scenarios.append(s)
        }
        let baselines = try scenarios.map { try baselineRows(for: $0) }
        if let baseline {
            let here = MachineIdentity.current()
            let recorded = MachineIdentity.recorded(in: Self.baselineFolder(baseline))
            tolerances.comparesLatency = compareLatency.compares(baseline: recorded, current: here)
            if !tolerances.comparesLatency && compareLatency == .sameMachine {
                CommandSupport.printError("note: the baseline was recorded on \(recorded.map(\.description) ?? "an unrecorded machine"), not on \(here); latency rows are checked against their thresholds only (--compare-latency always compares them anyway)")
            }
        }
        let store = DatasetStore(manifest: manifest)
        let interactive = isatty(STDERR_FILENO) == 1
        var anyFailed = false
        var anyRegression = false
        for (s, base) in zip(scenarios, baselines) {
            var cases = ScenarioRunner.cases(of: s)
            if let shard, let (i, n) = Self.parseShard(shard) { cases = ScenarioRunner.shard(cases, index: i, count: n) }
            if interactive { CommandSupport.printError("running \(s.name): \(cases.count) case\(cases.count == 1 ? "" : "s")…") }
            let runID = RunReport.makeRunID()
            let startedAt = ISO8601DateFormatter().string(from: Date())
            let results = try CommandSupport.guarded {
                try ScenarioRunner.run(cases, jobs: jobs, runID: runID, datasets: store, driver: AppDrivers.factory)
            }
            let rows = results.flatMap(\.rows)
            let folder = out.map { URL(fileURLWithPath: $0).appendingPathComponent(s.name) }
                ?? URL(fileURLWithPath: "Results/runs").appendingPathComponent(s.name).appendingPathComponent(runID)
            let record = try runRecord(s, manifest: manifest, runID: runID, startedAt: startedAt, cases: cases.count,
                                       results: results, rows: rows)
            try CommandSupport.guarded {
                try RunReport.write(rows: rows, record: record, to: folder, junit: junit.map { URL(fileURLWithPath: $0) })
                if let recordBaseline {
                    let folder = URL(fileURLWithPath: recordBaseline)
                    try AtomicFile.write(MetricsCSV.render(rows), to: folder.appendingPathComponent("\(s.name).csv"))
                    try MachineIdentity.current().write(into: folder)
                }
            }
            let shown = quiet ? rows.filter { $0.status == .fail } : rows
            if !shown.isEmpty { print(RunReport.summary(shown), terminator: "") }
            let failed = rows.filter { $0.status == .fail }.count
            anyFailed = anyFailed || failed > 0
            print("\(s.name): \(rows.count - failed - record.informational) passed, \(failed) failed, \(record.informational) informational; reports in \(folder.path)")
            if let base {
                let report = BaselineCheck.compare(current: rows, baseline: base, tolerances: tolerances)
                print(CheckCommand.render(report, quiet: quiet), terminator: "")
                anyRegression = anyRegression || report.hasRegression
            }
        }
        if anyFailed || anyRegression { throw CommandSupport.failed }
    }

    /// The folder holding `baseline` (itself when it is a folder), where `machine.json` lives.
    static func baselineFolder(_ baseline: String) -> URL {
        let url = URL(fileURLWithPath: baseline)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue { return url }
        return url.deletingLastPathComponent()
    }

    func baselineRows(for s: Scenario) throws -> [MetricRow]? {
        guard let baseline else { return nil }
        var url = URL(fileURLWithPath: baseline)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue {
            url = url.appendingPathComponent("\(s.name).csv")
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            CommandSupport.printError("\(url.path): error: missing baseline for scenario '\(s.name)'; record one with 'fieldtest run \(s.file) --record-baseline \(baseline)'")
            throw CommandSupport.invalidInput
        }
        return try CommandSupport.guarded { try MetricsCSV.read(url, displayName: url.path) }
    }

    func runRecord(_ s: Scenario, manifest: DatasetManifest, runID: String, startedAt: String, cases: Int,
                   results: [CaseResult], rows: [MetricRow]) throws -> RunRecord {
        let hash = try CommandSupport.guarded { try DatasetManifest.sha256(of: URL(fileURLWithPath: s.file)) }
        var datasetHashes: [String: String] = [:]
        for d in s.datasets { datasetHashes[d] = manifest.entry(named: d)?.sha256 }
        return RunRecord(tool: "fieldtest", toolVersion: FieldtestVersion.current, scenario: s.name, scenarioFile: s.file,
                         scenarioSHA256: hash, seed: s.seed, runID: runID, startedAt: startedAt, datasets: datasetHashes,
                         machine: RunReport.machine(), cases: cases, shard: shard,
                         events: results.reduce(0) { $0 + $1.events },
                         passed: rows.filter { $0.status == .pass }.count, failed: rows.filter { $0.status == .fail }.count,
                         informational: rows.filter { $0.status == .info }.count)
    }
}
