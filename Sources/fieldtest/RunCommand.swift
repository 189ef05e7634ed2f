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

    @Option(name: .long, help: "Record this run's metrics as <scenario>.csv baselines in this folder (not with --shard: a baseline holds every case).")
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
        if recordBaseline != nil && shard != nil {
            throw ValidationError("--record-baseline records whole scenarios, and --shard runs only a slice of each sweep; record the baseline without --shard, or merge the shards' metrics.csv files with 'fieldtest merge' and use the merged file as --baseline")
        }
        if !tolerance.isEmpty && baseline == nil { throw ValidationError("--tolerance applies only to the comparison with --baseline; add --baseline or drop --tolerance") }
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
        var fileOfName: [String: String] = [:]
        for file in files {
            var s = try CommandSupport.guarded { try loader.load(URL(fileURLWithPath: file), displayName: file) }
            if let seed { s.seed = seed }
            // Reports and baselines are kept by scenario name: two scenarios of one name would overwrite each other's.
            if let other = fileOfName[s.name] {
                CommandSupport.printError("\(file): error: scenario name '\(s.name)' is also the name of \(other); reports and baselines are "
                                          + "kept by scenario name, so give each scenario file its own 'name:'")
                throw CommandSupport.invalidInput
            }
            fileOfName[s.name] = file
            scenarios.append(s)
        }
        var caseLists: [[ScenarioCase]] = []
        for s in scenarios {
            var cases = ScenarioRunner.cases(of: s)
            if let shard, let (i, n) = Self.parseShard(shard) { cases = ScenarioRunner.shard(cases, index: i, count: n) }
            caseLists.append(cases)
        }
        let baselines = try zip(scenarios, caseLists).map { try baselineRows(for: $0.0, running: $0.1) }
        try CommandSupport.guarded {
            try tolerances.checkOverrideNames(metrics: Set(baselines.flatMap { $0 ?? [] }.map(\.metric)))
        }
        let runIDs = scenarios.map { _ in RunReport.makeRunID() }
        let reportFolders = zip(scenarios, runIDs).map { s, runID in
            out.map { URL(fileURLWithPath: $0).appendingPathComponent(s.name) }
                ?? URL(fileURLWithPath: "Results/runs").appendingPathComponent(s.name).appendingPathComponent(runID)
        }
        let createdFolders = try checkOutputLocations(reportFolders: reportFolders)
        // Folders made for outputs that were never written (a scenario failed to run) do not stay behind.
        defer { Self.removeEmptyFolders(createdFolders) }
        if let baseline {
            let here = MachineIdentity.current()
            let recorded = MachineIdentity.recorded(in: Self.baselineFolder(baseline))
            tolerances.comparesLatency = compareLatency.compares(baseline: recorded, current: here)
            if !tolerances.comparesLatency && compareLatency == .sameMachine {
                CommandSupport.printError("note: the baseline was recorded on \(recorded.map(\.description) ?? "an unrecorded machine"), not on \(here); latency rows are checked against their thresholds only (--compare-latency always compares them anyway)")
            }
        }
        let signalSources = Self.removeTemporaryFoldersOnInterrupt()
        defer { signalSources.forEach { $0.cancel() } }
        let store = DatasetStore(manifest: manifest)
        var datasetHashing = DatasetHashing(manifest: manifest)
        let interactive = isatty(STDERR_FILENO) == 1
        var anyFailed = false
        var anyRegression = false
        for (index, s) in scenarios.enumerated() {
            let cases = caseLists[index], base = baselines[index], runID = runIDs[index], folder = reportFolders[index]
            if interactive { CommandSupport.printError("running \(s.name): \(cases.count) case\(cases.count == 1 ? "" : "s")…") }
            let startedAt = ISO8601DateFormatter().string(from: Date())
            // Each scenario records the dataset files it reads (the cache of parsed datasets is shared).
            let session = store.session()
            let results = try CommandSupport.guarded {
                try ScenarioRunner.run(cases, jobs: jobs, runID: runID, datasets: session, driver: AppDrivers.factory)
            }
            let rows = results.flatMap(\.rows)
            let used = try datasetHashing.hashes(read: session.filesRead, listed: s.datasets)
            let record = try runRecord(s, used: used, runID: runID, startedAt: startedAt,
                                       cases: cases.count, results: results, rows: rows)
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

    /// Installs SIGINT and SIGTERM handling for the run: the temporary folders (device caches,
    /// app databases) of the scenarios in progress are removed, then the process exits with
    /// 128 + the signal number (130, 143). The work runs on a dispatch queue, not in a signal
    /// handler, so it may allocate and remove files. Keep the returned sources for the run.
    static func removeTemporaryFoldersOnInterrupt() -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "fieldtest.run.interrupt")
        return [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                ManagedAppDriver.removeAllTemporaryFolders()
                CommandSupport.printError("fieldtest run: interrupted; temporary folders removed, no reports written for the scenario in progress")
                Foundation.exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// The folder holding `baseline` (itself when it is a folder), where `machine.json` lives.
    static func baselineFolder(_ baseline: String) -> URL {
        let url = URL(fileURLWithPath: baseline)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue { return url }
        return url.deletingLastPathComponent()
    }

    /// The baseline rows `s` is compared with: those of the cases that run. Rows of other
    /// scenarios (a merged baseline) and of the sweep cases another shard runs are left out;
    /// rows of this scenario's cases under another seed stay, and are reported missing.
    func baselineRows(for s: Scenario, running cases: [ScenarioCase]) throws -> [MetricRow]? {
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
        let rows = try CommandSupport.guarded { try MetricsCSV.read(url, displayName: url.path) }
        let allCases = ScenarioRunner.cases(of: s)
        let labels = Set(allCases.map(\.label))
        let notRun = Set(allCases.map { "\($0.label)|\($0.scenario.seed)" })
            .subtracting(cases.map { "\($0.label)|\($0.scenario.seed)" })
        let kept = rows.filter { labels.contains($0.scenario) && !notRun.contains("\($0.scenario)|\($0.seed)") }
        if kept.isEmpty && !cases.isEmpty {
            CommandSupport.printError("\(url.path): error: the baseline has no rows for scenario '\(s.name)'"
                                      + (shard.map { " (shard \($0))" } ?? "") + "; record one with 'fieldtest run \(s.file) --record-baseline DIR'")
            throw CommandSupport.invalidInput
        }
        return kept
    }

    /// Checks, before any scenario runs, that the requested outputs can be written: the
    /// `--junit` file's folder, the `--record-baseline` folder, the `--out` folder and every
    /// scenario's report folder are created when missing and must accept a new file
    /// (exit 2 otherwise, with no scenario run, and no folder made by the check left behind).
    /// Returns the folders the check created, parents first.
    func checkOutputLocations(reportFolders: [URL]) throws -> [String] {
        var locations: [(option: String, path: String, folder: URL)] = []
        if let junit {
            let url = URL(fileURLWithPath: junit)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue {
                CommandSupport.printError("\(junit): error: --junit names a folder; give the path of the XML file to write")
                throw CommandSupport.invalidInput
            }
            locations.append(("--junit", junit, url.deletingLastPathComponent()))
        }
        if let recordBaseline { locations.append(("--record-baseline", recordBaseline, URL(fileURLWithPath: recordBaseline))) }
        if let out { locations.append(("--out", out, URL(fileURLWithPath: out))) }
        for folder in reportFolders {
            locations.append((out == nil ? "the report folder (--out DIR chooses another)" : "--out", folder.path, folder))
        }
        var created: [String] = []
        for l in locations {
            if let problem = Self.writeProblem(in: l.folder, created: &created) {
                Self.removeEmptyFolders(created)
                CommandSupport.printError("\(l.path): error: \(l.option): \(problem); choose a location you can write to (nothing was run)")
                throw CommandSupport.invalidInput
            }
        }
        return created
    }

    /// Removes those of `folders` (parents first) that are empty, children first.
    static func removeEmptyFolders(_ folders: [String]) {
        for path in folders.reversed() { rmdir(path) }  // fails, harmlessly, on a folder that holds anything
    }

    /// Why a new file cannot be written in `folder` (created when missing; the folders made are
    /// appended to `created`), or nil when it can: a uniquely named probe file is created there
    /// and removed at once.
    static func writeProblem(in folder: URL, created: inout [String]) -> String? {
        var path = ""
        for component in folder.standardizedFileURL.pathComponents {
            path = component == "/" ? "/" : (path.hasSuffix("/") ? path : path + "/") + component
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                if !isDir.boolValue { return "\(path) is a file, not a folder" }
                continue
            }
            if mkdir(path, 0o755) == 0 {
                created.append(path)
            } else if errno != EEXIST {
                return "cannot create the folder \(path) (\(String(cString: strerror(errno))))"
            }
        }
        let probe = folder.appendingPathComponent(".fieldtest-write-check-\(UUID().uuidString)")
        let fd = open(probe.path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else { return "cannot write in the folder \(folder.path) (\(String(cString: strerror(errno))))" }
        close(fd)
        unlink(probe.path)
        return nil
    }

    func runRecord(_ s: Scenario, used: DatasetHashing.Used, runID: String, startedAt: String,
                   cases: Int, results: [CaseResult], rows: [MetricRow]) throws -> RunRecord {
        let hash = try CommandSupport.guarded { try DatasetManifest.sha256(of: URL(fileURLWithPath: s.file)) }
        return RunRecord(tool: "fieldtest", toolVersion: FieldtestVersion.current, scenario: s.name, scenarioFile: s.file,
                         scenarioSHA256: hash, seed: s.seed, runID: runID, startedAt: startedAt, datasets: used.hashes,
                         machine: RunReport.machine(), cases: cases, shard: shard,
                         events: results.reduce(0) { $0 + $1.events },
                         passed: rows.filter { $0.status == .pass }.count, failed: rows.filter { $0.status == .fail }.count,
                         informational: rows.filter { $0.status == .info }.count,
                         datasetsManifest: used.manifestHashes.isEmpty ? nil : used.manifestHashes, sweep: SweepRecord(s))
    }
}

/// Hashes the dataset files a scenario read, for `run.json`: each file once per command,
/// with a warning (once) for a file that differs from its `MANIFEST.csv` entry.
struct DatasetHashing {
    /// What `run.json` records of the datasets one scenario read.
    struct Used {
        /// Dataset name (or path inside the datasets folder, for a file the manifest does not list) → SHA-256 of the file read.
        var hashes: [String: String] = [:]
        /// Dataset name → the SHA-256 the manifest gives, for each file that differs from it.
        var manifestHashes: [String: String] = [:]
    }

    let manifest: DatasetManifest
    private var hashOfPath: [String: String] = [:]

    init(manifest: DatasetManifest) { self.manifest = manifest }

    /// The hashes of the files in `read` (name or path → file, from `DatasetStore.filesRead`)
    /// and of the datasets the scenario lists (`listed`), whether or not its driver read them.
    mutating func hashes(read: [String: URL], listed: [String]) throws -> Used {
        var files = read
        for name in listed where files[name] == nil {
            if let entry = manifest.entry(named: name) { files[name] = manifest.url(of: entry) }
        }
        var used = Used()
        for (name, url) in files.sorted(by: { $0.key < $1.key }) {
            let path = url.standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let entry = manifest.entry(named: name)
                ?? manifest.entries.first { manifest.url(of: $0).standardizedFileURL.path == path }
            let key = entry?.name ?? name
            let actual: String
            if let known = hashOfPath[path] {
                actual = known
            } else {
                actual = try CommandSupport.guarded { try DatasetManifest.sha256(of: url) }
                hashOfPath[path] = actual
                if let entry, actual != entry.sha256 {
                    CommandSupport.printError("\(DatasetManifest.display(url)): warning: dataset '\(key)' has sha256 \(actual), not \(entry.sha256) as MANIFEST.csv "
                                              + "says; results come from the file as it is ('fieldtest datasets verify' checks every dataset)")
                }
            }
            used.hashes[key] = actual
            if let entry, actual != entry.sha256 { used.manifestHashes[key] = entry.sha256 }
        }
        return used
    }
}
