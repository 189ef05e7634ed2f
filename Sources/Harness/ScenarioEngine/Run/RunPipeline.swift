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
    /// The rows that failed their threshold or were not measured, in case order (the others are only on disk).
    public var failingRows: [MetricRow]
    /// What `run.json` holds.
    public var record: RunRecord
    /// The folder its reports were written to.
    public var folder: URL
    /// The comparison with the baseline, when one was given.
    public var check: CheckReport?
    /// How many checked rows have the threshold inside their 95 % interval (`margin` `within_interval`).
    public var withinIntervalCount = 0

    /// Every row, read back from the report folder's `metrics.csv` (the run does not hold them,
    /// so its memory stays flat in the number of cases); empty when it cannot be read.
    public var rows: [MetricRow] {
        (try? MetricsCSV.read(folder.appendingPathComponent("metrics.csv"), displayName: "metrics.csv")) ?? []
    }
    /// Rows whose requirement failed.
    public var failedCount: Int { record.failed }
    /// Checked rows of no sample.
    public var notMeasuredCount: Int { record.notMeasured ?? 0 }
    /// Rows that passed a threshold.
    public var passedCount: Int { record.passed }
}

/// The result of a whole run.
public struct RunOutcome: Sendable {
    /// Whether a requirement failed in any scenario.
    public var anyFailed = false
    /// Whether a metric regressed against the baseline in a way that fails the run (`RunRequest.failOn`:
    /// any regression, or only a significant one).
    public var anyRegression = false
    /// Scenarios, rows by status, regressions and the wall-clock time of the whole run.
    public var totals = RunTotals()
    /// Wall-clock seconds the cases took on their threads, summed (`CaseResult.seconds`).
    public var caseSeconds = 0.0
    /// Wall-clock seconds spent writing results: the case files, and assembling and putting
    /// each report folder in place.
    public var writeSeconds = 0.0
}

extension RunOutcome {
    /// Counts one scenario's `record` and baseline `check` in the verdicts and totals.
    mutating func add(_ record: RunRecord, check: CheckReport?, failOn: FailOn) {
        // A requested requirement that was not measured fails the run as a failed one does.
        anyFailed = anyFailed || record.failed > 0 || (record.notMeasured ?? 0) > 0
        anyRegression = anyRegression || check?.fails(on: failOn) == true
        totals.add(
            passed: record.passed, failed: record.failed, informational: record.informational,
            notMeasured: record.notMeasured ?? 0, regressions: check?.regressions.count ?? 0)
    }
}

/// How far a scenario's cases have got, reported as each case completes.
public struct CaseProgress: Sendable {
    /// The scenario's name.
    public var scenario: String
    /// Cases completed, of `total`.
    public var done: Int, total: Int
    /// Rows that failed their threshold in the completed cases.
    public var failedRows: Int
    /// Wall-clock seconds since the scenario's first case started.
    public var elapsed: Double

    /// Seconds left at the pace so far (nil before the first case completes).
    public var secondsLeft: Double? {
        done > 0 ? elapsed / Double(done) * Double(total - done) : nil
    }
}

/// Counts completed cases for `CaseProgress`; only touched from the runner's progress calls,
/// which come one at a time.
private final class ProgressCounter: @unchecked Sendable {
    var done = 0
    var failedRows = 0
    /// Seconds the cases took, and seconds writing their files.
    var caseSeconds = 0.0, writeSeconds = 0.0
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
    /// `progress`, when given, is told of each case as it completes (from the threads running the cases).
    public func run(observe: (RunEvent) -> Void, progress: (@Sendable (CaseProgress) -> Void)? = nil) throws
        -> RunOutcome
    {
        let runStarted = ContinuousClock.now
        try request.validate()
        var tolerances = Tolerances()
        for t in request.tolerances { try tolerances.apply(t) }
        tolerances.virtualClockLatency = apps.virtualClockLatencies
        let scenarios = try loadScenarios()
        let store = DatasetStore(manifest: manifest)
        store.strict = request.strict
        try preflight(scenarios, datasets: store, observe: observe)
        let caseLists = scenarios.map(casesToRun)
        let baselines = try zip(scenarios, caseLists).map { s, cases in
            try request.baseline.map {
                try BaselineSelection.rows(for: s, running: cases, baseline: $0, shard: request.shard)
            }
        }
        try tolerances.checkOverrideNames(
            metrics: Set(baselines.flatMap { $0 ?? [] }.map(\.metric)), requirements: apps.requirementIDs)
        let runIDs = scenarios.map { _ in RunReport.makeRunID() }
        let reportFolders = reportFolders(scenarios, runIDs: runIDs)
        try files(scenarios: scenarios, reportFolders: reportFolders).check()
        try refuseBaselineInReportFolder(reportFolders)
        let createdFolders = try OutputLocations.prepare(try outputLocations(reportFolders: reportFolders))
        // Folders made for outputs that were never written (a scenario failed to run) do not stay behind.
        defer { OutputLocations.removeEmptyFolders(createdFolders) }
        // One run at a time writes into a folder: a second one is refused before it touches anything.
        let lock = try RunLocks(request: request, scenarios: scenarios, runIDs: runIDs, createdFolders: createdFolders)
        defer { lock.release() }
        if let baseline = request.baseline {
            tolerances.comparesLatency = comparesLatency(with: baseline, observe: observe)
        }
        // Interrupted runs are checked (and what a resumed run reuses found) before anything runs.
        let plans = try scenarios.indices.map {
            try plan(
                scenarios[$0], cases: caseLists[$0], runID: runIDs[$0], folder: reportFolders[$0], observe: observe)
        }
        observe(.prepared)
        var datasetHashing = DatasetHashing(manifest: manifest)
        var outcome = RunOutcome()
        var junitSuites: [JUnitReport.Suite] = []
        for (index, s) in scenarios.enumerated() {
            let (cases, plan, folder) = (caseLists[index], plans[index], reportFolders[index])
            observe(.starting(s, caseCount: cases.count))
            let started = Date()
            let (sink, counter) = try runCases(s, cases: cases, plan: plan, store: store, progress: progress)
            let assembling = ContinuousClock.now
            let assembled = try plan.staging.assemble(
                cases, digest: plan.digest, level: request.trace, keepSeconds: request.junit != nil)
            let record = try writeRecord(
                s, cases: cases, plan: plan, sink: sink, assembled: assembled, started: started,
                hashing: &datasetHashing, observe: observe)
            let (rows, check) = try writeComparisons(
                s, plan: plan, folder: folder, baseline: baselines[index], tolerances: tolerances)
            try plan.staging.publish()
            outcome.writeSeconds += counter.writeSeconds + Self.seconds(since: assembling)
            outcome.caseSeconds += counter.caseSeconds
            outcome.add(record, check: check, failOn: request.failOn)
            if request.junit != nil {
                junitSuites += JUnitReport.suites(
                    rows: rows, check: check, seconds: assembled.caseSeconds, timestamp: plan.state.startedAt,
                    properties: [
                        ("scenario", s.name), ("scenario_file", s.file), ("run_id", plan.state.runID),
                        ("app", s.app),
                    ])
            }
            observe(
                .finished(
                    ScenarioOutcome(
                        scenario: s, failingRows: assembled.failingRows, record: record, folder: folder, check: check,
                        withinIntervalCount: assembled.withinInterval)))
        }
        // One JUnit file for every scenario of the run, written once they have all run.
        if let junit = request.junit { try OutputText.write(JUnitReport.render(junitSuites), to: junit) }
        let elapsed = (ContinuousClock.now - runStarted).components
        outcome.totals.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        return outcome
    }

    /// Runs `s`'s pending cases into its staging folder; each case's results go to disk as it ends, none
    /// is held until the end. Returns the sink (what the cases recorded) and the time counters.
    private func runCases(
        _ s: Scenario, cases: [ScenarioCase], plan: ScenarioPlan, store: DatasetStore,
        progress: (@Sendable (CaseProgress) -> Void)?
    ) throws -> (CaseSink, ProgressCounter) {
        if plan.pending.count == cases.count || !request.resume { try plan.staging.begin(plan.state) }
        // Each scenario records the dataset files it reads (the cache of parsed datasets is shared).
        let session = store.session(adding: s.datasetEntries)
        let sink = CaseSink(staging: plan.staging, digest: plan.digest, session: session, state: plan.state)
        let counter = ProgressCounter()
        counter.done = cases.count - plan.pending.count
        let clock = ContinuousClock.now
        let (total, name) = (cases.count, s.name)
        // External systems write their standard error straight into the report folder in progress.
        let logs = plan.staging.folder.appendingPathComponent("systems")
        let pending = plan.pending.map { c in
            var c = c
            c.scenario.systemLogPrefix = logs.appendingPathComponent(SystemLogs.fileStem(caseLabel: c.label)).path
            return c
        }
        try ScenarioRunner.run(
            pending, jobs: request.jobs, runID: plan.state.runID, datasets: session, apps: apps, trace: request.trace,
            each: { result in
                let writing = ContinuousClock.now
                try sink.write(result)
                counter.writeSeconds += Self.seconds(since: writing)
                counter.caseSeconds += result.seconds
                guard let progress else { return }
                counter.done += 1
                counter.failedRows += result.rows.filter { $0.status == .fail }.count
                let elapsed = (ContinuousClock.now - clock).components
                progress(
                    CaseProgress(
                        scenario: name, done: counter.done, total: total, failedRows: counter.failedRows,
                        elapsed: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18))
            })
        return (sink, counter)
    }

    /// Writes `run.json` of `s` into its staging folder: the datasets read (by this run and by the
    /// interrupted run it resumes), their hashes, the totals and the provenance.
    private func writeRecord(
        _ s: Scenario, cases: [ScenarioCase], plan: ScenarioPlan, sink: CaseSink, assembled: AssembledRun,
        started: Date, hashing: inout DatasetHashing, observe: (RunEvent) -> Void
    ) throws -> RunRecord {
        // Files read by the cases an earlier, interrupted run ran count as read.
        var read = sink.session.filesRead
        for (name, file) in sink.state.datasets where read[name] == nil {
            read[name] = URL(fileURLWithPath: file.path)
        }
        let used = try hashing.hashes(
            read: read, listed: s.datasets, scenarioManifest: sink.session.manifest,
            loadReport: sink.session.loadReport(for:)
        ) { observe(.note($0)) }
        var record = try runRecord(
            s, used: used, runID: plan.state.runID, startedAt: plan.state.startedAt, cases: cases.count,
            assembled: assembled)
        let finished = Date()
        record.finishedAt = ISO8601DateFormatter().string(from: finished)
        record.durationSeconds = (finished.timeIntervalSince(started) * 1000).rounded() / 1000
        record.commandLine = request.commandLine
        record.toolCommit = request.toolCommit
        record.systems = assembled.systems.isEmpty ? nil : assembled.systems
        try RunReport.writeRecord(record, to: plan.staging.folder)
        return record
    }

    /// Writes the seed summary, the recorded baseline and the comparison with `baseline` into `s`'s
    /// staging folder; returns the rows (read back only when a comparison or JUnit needs them) and
    /// the comparison.
    private func writeComparisons(
        _ s: Scenario, plan: ScenarioPlan, folder: URL, baseline: [MetricRow]?, tolerances: Tolerances
    ) throws -> ([MetricRow], CheckReport?) {
        let metricsFile = plan.staging.folder.appendingPathComponent("metrics.csv")
        let rows =
            request.baseline != nil || request.junit != nil
            ? try MetricsCSV.read(metricsFile, displayName: folder.appendingPathComponent("metrics.csv").path) : []
        try writeSeedSummary(s, rows: rows, metricsFile: metricsFile, into: plan.staging.folder)
        if let recordBaseline = request.recordBaseline {
            try writeBaseline(into: recordBaseline, scenario: s.name, from: plan.staging.folder)
        }
        let check = try baseline.map {
            try BaselineCheck.compare(current: rows, baseline: $0, tolerances: tolerances).judgingPairedItems(
                baselineItems: request.baseline.map {
                    BaselineSelection.itemsFile(ofBaselineFile: BaselineSelection.file(for: s.name, baseline: $0))
                },
                currentItems: plan.staging.folder.appendingPathComponent(ItemsCSV.fileName))
        }
        if let check {
            try AtomicFile.write(
                BaselineCheckCSV.render(check),
                to: plan.staging.folder.appendingPathComponent(BaselineCheckCSV.fileName))
        }
        return (rows, check)
    }

    /// Checks what the data can tell (venues, files that do not load, recordings' spans) before anything
    /// runs: throws the errors, reports the warnings.
    func preflight(_ scenarios: [Scenario], datasets store: DatasetStore, observe: (RunEvent) -> Void) throws {
        for s in scenarios {
            let found = ScenarioPreflight.check(s, registry: apps, datasets: store)
            let errors = found.filter { $0.severity == .error }
            if !errors.isEmpty { throw ScenarioErrors(errors) }
            for warning in found { observe(.note(warning.description)) }
        }
    }

    /// The cases of `s` this run runs: `--system` replaces the scenario's and the sweep's choice in every
    /// case, and `--shard` keeps its slice.
    func casesToRun(_ s: Scenario) -> [ScenarioCase] {
        let cases = ScenarioRunner.cases(of: s).map { c in
            var c = c
            for (capability, setting) in request.systems { c.scenario.systems[capability] = setting }
            return c
        }
        return request.shard.map { ScenarioRunner.shard(cases, index: $0.index, count: $0.count) } ?? cases
    }

    /// Whether latency rows are compared with `baseline`'s (`--compare-latency`), with a note when the
    /// baseline comes from another machine or build.
    func comparesLatency(with baseline: String, observe: (RunEvent) -> Void) -> Bool {
        let here = MachineIdentity.current()
        let recorded = MachineIdentity.recorded(in: BaselineSelection.folder(of: baseline))
        let compares = request.compareLatency.compares(baseline: recorded, current: here)
        if !compares && request.compareLatency == .sameMachine {
            let origin =
                recorded.map { "another machine or build (\(here.differences(from: $0).joined(separator: ", ")))" }
                ?? "an unrecorded machine"
            observe(
                .note(
                    "note: the baseline was recorded on \(origin), not on \(here); "
                        + "latency rows are checked against their thresholds only (--compare-latency always compares them anyway)"
                ))
        }
        return compares
    }

    /// `--record-baseline DIR`: the scenario's metrics.csv as `DIR/<scenario>.csv`, its items (so a later
    /// check can judge a regression on paired items) and this machine's identity.
    func writeBaseline(into baseline: String, scenario name: String, from folder: URL) throws {
        let target = URL(fileURLWithPath: baseline)
        try AtomicFile.write(
            try Data(contentsOf: folder.appendingPathComponent("metrics.csv")),
            to: target.appendingPathComponent("\(name).csv"))
        try AtomicFile.write(
            try Data(contentsOf: folder.appendingPathComponent(ItemsCSV.fileName)),
            to: target.appendingPathComponent("\(name).items.csv"))
        try MachineIdentity.current().write(into: target)
    }

    /// Writes `seeds.csv` (`SeedSummary`) into `folder` when the scenario sweeps several seeds and the
    /// run holds every case (a shard holds a slice: its summary would mislead).
    func writeSeedSummary(_ s: Scenario, rows: [MetricRow], metricsFile: URL, into folder: URL) throws {
        guard (s.sweep?.seeds.count ?? 0) > 1, request.shard == nil else { return }
        let all = rows.isEmpty ? try MetricsCSV.read(metricsFile) : rows
        let summary = SeedSummary.summarise(all)
        guard !summary.isEmpty else { return }
        try AtomicFile.write(SeedSummary.render(summary), to: folder.appendingPathComponent(SeedSummary.fileName))
    }

    /// Seconds since `start`.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
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

    /// Writes the `--junit` file of a run that stopped with `error` (exit 2: an invalid scenario, a
    /// system that failed its handshake, an unwritable output) before it gave every report: one
    /// `<error>` test case with the message, so CI always has a report to show. Nothing is written
    /// when the JUnit path is itself the problem (it names an input or collides with an output).
    public func writeErrorJUnit(_ error: any Error) {
        guard let junit = request.junit, !(error is OutputPathCheck.OverwritesInput),
            !(error is OutputPathCheck.OutputsCollide)
        else { return }
        let target = OutputPathCheck.Output(option: "--junit", url: URL(fileURLWithPath: junit))
        guard (try? OutputPathCheck.refuse(outputs: [target], inputs: inputFiles(scenarios: []))) != nil else { return }
        let name = request.files.count == 1 ? request.files[0] : "fieldtest run"
        var message = String(describing: error)
        if message.hasPrefix("error: ") { message.removeFirst("error: ".count) }
        let text = JUnitReport.render([JUnitReport.errorSuite(name: name, message: message)])
        try? OutputText.write(text, to: junit)
    }

    /// Every file the run reads before or while it runs: the scenario files, every file of every
    /// datasets folder (each `MANIFEST.csv`, the recordings, lexicons and models), the files the
    /// scenarios name by path, the system commands' files (`--system` and `systems:` blocks) and
    /// the baseline files.
    func inputFiles(scenarios: [Scenario]) -> [OutputPathCheck.Input] {
        var files = CommandFiles()
        files.inputs(request.files)
        files.datasets(manifest)
        for s in scenarios { files.scenarioInputs(s, manifest: manifest) }
        for setting in request.systems.values.compactMap({ $0 }) {
            files.systemCommand(setting.command, option: "--system")
        }
        var inputs = files.inputs
        if let baseline = request.baseline {
            let folder = BaselineSelection.folder(of: baseline)
            inputs.append(.init(option: "--baseline", url: folder.appendingPathComponent(MachineIdentity.fileName)))
            if folder.path == URL(fileURLWithPath: baseline).path {
                inputs += scenarios.flatMap {
                    [
                        .init(option: "--baseline", url: folder.appendingPathComponent("\($0.name).csv")),
                        .init(option: "--baseline", url: folder.appendingPathComponent("\($0.name).items.csv")),
                    ]
                }
            } else {
                let file = URL(fileURLWithPath: baseline)
                inputs += [
                    .init(option: "--baseline", url: file),
                    .init(option: "--baseline", url: BaselineSelection.itemsFile(ofBaselineFile: file)),
                ]
            }
        }
        return inputs
    }

    /// Every file the run writes: the `--junit` file, the recorded baselines and each scenario's reports.
    func outputFiles(scenarios: [Scenario], reportFolders: [URL]) -> [OutputPathCheck.Output] {
        var outputs: [OutputPathCheck.Output] = []
        if let junit = request.junit { outputs.append(.init(option: "--junit", url: URL(fileURLWithPath: junit))) }
        if let report = request.report { outputs.append(.init(option: "--report", url: URL(fileURLWithPath: report))) }
        if let recordBaseline = request.recordBaseline {
            let folder = URL(fileURLWithPath: recordBaseline)
            outputs += scenarios.flatMap {
                [
                    .init(option: "--record-baseline", url: folder.appendingPathComponent("\($0.name).csv")),
                    .init(option: "--record-baseline", url: folder.appendingPathComponent("\($0.name).items.csv")),
                ]
            }
            outputs.append(
                .init(option: "--record-baseline", url: folder.appendingPathComponent(MachineIdentity.fileName)))
        }
        for folder in reportFolders {
            outputs += RunReport.fileNames.map {
                .init(option: request.out == nil ? "the report file" : "--out", url: folder.appendingPathComponent($0))
            }
        }
        return outputs
    }

    /// The locations the run writes to: the `--junit` file's folder, the `--record-baseline`
    /// folder, the `--out` folder and every scenario's report folder.
    func outputLocations(reportFolders: [URL]) throws(RunError) -> [OutputLocations.Location] {
        var locations: [OutputLocations.Location] = []
        if let junit = request.junit, StreamPath.descriptor(junit) == nil {
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

    /// What a scenario's run starts from: a new run, or (`--resume`) the interrupted run in its
    /// folder in progress, whose settings and dataset files must be unchanged (else
    /// `RunError.resumeMismatch` says what differs) and whose intact case files are reused.
    func plan(_ s: Scenario, cases: [ScenarioCase], runID: String, folder: URL, observe: (RunEvent) -> Void) throws
        -> ScenarioPlan
    {
        let settings = RunSettings(
            s, scenarioSHA256: try DatasetManifest.sha256(of: URL(fileURLWithPath: s.file)), cases: cases,
            request: request)
        let staging = RunStaging(target: folder)
        try staging.checkTarget()
        let fresh = RunState(
            runID: runID, startedAt: ISO8601DateFormatter().string(from: Date()), settings: settings)
        guard request.resume, let earlier = staging.readState() else {
            if request.resume {
                observe(.note("note: \(s.name): no interrupted run in \(staging.folder.path); running every case"))
            } else if staging.caseFileCount() > 0 {
                observe(
                    .note(
                        "note: \(s.name): starting afresh; the \(staging.caseFileCount()) finished cases of the interrupted "
                            + "run in \(staging.folder.path) are discarded (run --resume continues such a run)"))
            }
            return ScenarioPlan(staging: staging, state: fresh, digest: settings.digest, pending: cases)
        }
        var differences = settings.differences(from: earlier.settings)
        for (name, file) in earlier.datasets.sorted(by: { $0.key < $1.key }) {
            let now = (try? DatasetManifest.sha256(of: URL(fileURLWithPath: file.path))) ?? "(cannot be read)"
            if now != file.sha256 {
                differences.append("dataset '\(name)' (\(file.path)) had sha256 \(file.sha256), now \(now)")
            }
        }
        if !differences.isEmpty {
            throw RunError.resumeMismatch(folder: staging.folder.path, scenario: s.name, differences: differences)
        }
        var pending: [ScenarioCase] = []
        for c in cases {
            switch staging.record(of: c, digest: settings.digest) {
            case .success: continue
            case .failure(let problem):
                observe(.note("\(staging.caseFile(c.index).path): note: case \(c.label) runs again: \(problem)"))
                pending.append(c)
            case nil: pending.append(c)
            }
        }
        observe(
            .note(
                "note: \(s.name): resuming \(staging.folder.path): \(cases.count - pending.count) of \(cases.count) "
                    + "cases done, \(pending.count) to run"))
        return ScenarioPlan(staging: staging, state: earlier, digest: settings.digest, pending: pending)
    }

    /// What `run.json` records of one scenario's run.
    func runRecord(
        _ s: Scenario, used: DatasetHashing.Used, runID: String, startedAt: String,
        cases: Int, assembled: AssembledRun
    ) throws -> RunRecord {
        let hash = try DatasetManifest.sha256(of: URL(fileURLWithPath: s.file))
        return RunRecord(
            tool: "fieldtest", toolVersion: request.toolVersion, scenario: s.name, scenarioFile: s.file,
            scenarioSHA256: hash, seed: s.seed, runID: runID, startedAt: startedAt, datasets: used.hashes,
            machine: RunReport.machine(), cases: cases, shard: request.shard?.text,
            events: assembled.events, passed: assembled.passed, failed: assembled.failed,
            informational: assembled.informational, notMeasured: assembled.notMeasured,
            datasetsManifest: used.manifestHashes.isEmpty ? nil : used.manifestHashes, sweep: SweepRecord(s),
            datasetFiles: used.files, itemsOmitted: assembled.itemsOmitted > 0 ? assembled.itemsOmitted : nil,
            notes: assembled.notes.isEmpty ? nil : assembled.notes)
    }
}

/// A scenario's run as planned before anything runs: where it is written, its state, the digest
/// of its settings, and the cases still to run.
struct ScenarioPlan {
    var staging: RunStaging
    var state: RunState
    var digest: String
    var pending: [ScenarioCase]
}
