import FieldtestData
import Foundation

/// Checks a loaded scenario against its data before anything runs, so that what the data can tell
/// (a file that does not load, a venue the campus lacks, a time window outside the recording) is
/// found by `validate` and reported before a run starts, located in the scenario file.
///
/// Generic checks: each file named by path loads with its format's typed loader, and each dataset
/// named from a manifest exists on disk. Then each distinct parameter set of the sweep's cases is
/// checked by the app's `inputChecks`, which read the data through the same `DatasetStore` a run
/// uses (a run after the check reuses what it parsed).
public enum ScenarioPreflight {
    /// A warning for each requested requirement the scenario cannot exercise: nothing it holds
    /// (actions, feeds, device settings, parameters) yields samples for it, so its checked rows
    /// would be `not_measured`. Located at the requirement's entry; says what would exercise it.
    public static func exerciseWarnings(_ scenario: Scenario, registry: AppRegistry) -> [ScenarioDiagnostic] {
        guard let app = registry.app(scenario.app) else { return [] }
        var warned = Set<String>()
        var out: [ScenarioDiagnostic] = []
        for spec in scenario.requirements where warned.insert(spec.id).inserted {
            guard let r = app.requirement(spec.id), !r.exercisedBy.holds(in: scenario) else { continue }
            out.append(
                ScenarioDiagnostic(
                    file: scenario.file, line: spec.line, column: spec.column,
                    message:
                        "requirement \(spec.id) cannot be measured by this scenario: nothing in it yields samples, "
                        + "so its rows would be not_measured; add \(r.exercisedBy) ('fieldtest requirements \(app.name)' "
                        + "says what exercises each requirement)",
                    severity: .warning))
        }
        return out
    }

    /// Formats the apps load leniently at run time (bad rows skipped and counted): the weather
    /// recordings, campus maps and labelled tweet streams.
    static let skipsBadRows: Set<DatasetFormat> = [
        .noaaLCD, .tmy3, .tmy2, .beijingPM25, .osmXML, .osmPBF, .airlineTweets, .tweetsCSV, .sentiment140CSV,
        .semEvalTweets, .vaderGroundTruth,
    ]

    /// The diagnostics (errors and warnings) of checking `scenario`, whose app is in `registry`,
    /// against the datasets of `datasets`, in file order.
    public static func check(_ scenario: Scenario, registry: AppRegistry, datasets: DatasetStore)
        -> [ScenarioDiagnostic]
    {
        let file = scenario.file
        var out = exerciseWarnings(scenario, registry: registry)
        let store = datasets.session(adding: scenario.datasetEntries)
        for dataset in scenario.datasetFiles {
            do {
                _ = try DatasetLoaders.countRecords(
                    format: dataset.format, url: dataset.url, displayName: DatasetManifest.display(dataset.url))
            } catch {
                // A bad data row of a recording the apps read leniently is skipped by the run and
                // counted in run.json (`rows_skipped`): a warning here, not a refusal.
                let skippedByRun =
                    !datasets.strict && Self.skipsBadRows.contains(dataset.format) && (error.line ?? 0) > 2
                out.append(
                    ScenarioDiagnostic(
                        file: file, line: dataset.line, column: 0,
                        message: skippedByRun
                            ? "dataset '\(dataset.name)': \(error); the run skips such rows and counts them in "
                                + "run.json's rows_skipped"
                            : "dataset '\(dataset.name)' does not load as \(dataset.format.rawValue) data: \(error); fix the file or its 'format:'",
                        severity: skippedByRun ? .warning : .error))
            }
        }
        let declared = Set(scenario.datasetFiles.map(\.name))
        for name in scenario.datasets where !declared.contains(name) {
            guard let entry = store.manifest.entry(named: name) else { continue }
            let url = store.manifest.url(of: entry)
            if !FileManager.default.fileExists(atPath: url.path) {
                out.append(
                    ScenarioDiagnostic(
                        file: file, line: 0, column: 0,
                        message:
                            "dataset '\(name)': its file \(DatasetManifest.display(url)) is missing; restore it ('fieldtest datasets verify' checks every dataset)"
                    ))
            }
        }
        guard !out.contains(where: { $0.severity == .error }), let app = registry.app(scenario.app),
            !app.inputChecks.isEmpty
        else { return out }
        var checked = Set<String>()
        for c in ScenarioRunner.cases(of: scenario) {
            // The data a case reads depends on its parameters, not on its seed or devices.
            let key = c.scenario.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.scalarText ?? "")" }
                .joined(separator: "\n")
            guard checked.insert(key).inserted else { continue }
            let run = RunContext(scenario: c.scenario, datasets: store, requirements: app.requirements)
            for inputCheck in app.inputChecks {
                do {
                    for problem in try inputCheck(run) {
                        out.append(
                            ScenarioDiagnostic(
                                file: file, line: problem.at?.line ?? 0, column: problem.at?.column ?? 0,
                                message: problem.message, severity: problem.severity))
                    }
                } catch {
                    // A driver's message may already name the scenario file; it is named once.
                    var message = "\(error)"
                    if message.hasPrefix("\(file): error: ") { message.removeFirst("\(file): error: ".count) }
                    out.append(
                        ScenarioDiagnostic(
                            file: file, line: 0, column: 0, message: "the run would stop on its data: \(message)"))
                }
            }
        }
        var unique: [ScenarioDiagnostic] = []
        for d in out where !unique.contains(d) { unique.append(d) }
        return unique.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// The diagnostic for a time window `[start, end]` (Unix seconds) against a recording spanning
    /// `[first, last]`: an error when no instant of the window is recorded, a warning when part of
    /// it is not; nil when the recording covers it. `what` names the recording, `at` locates it.
    public static func window(
        start: Double, end: Double, recording first: Double, _ last: Double, what: String, at: LocatedValue?
    ) -> ScenarioProblem? {
        let span = "\(iso(first)) to \(iso(last))"
        if end < first || start > last {
            return ScenarioProblem(
                at: at,
                "the scenario's time window (\(iso(start)) to \(iso(end))) is wholly outside \(what), recorded from \(span); move 'time.start' into the recording or replay another one"
            )
        }
        if start < first || end > last {
            return ScenarioProblem(
                at: at,
                "part of the scenario's time window (\(iso(start)) to \(iso(end))) is outside \(what), recorded from \(span); the app has no recorded data then",
                severity: .warning)
        }
        return nil
    }

    /// `seconds` (Unix) as ISO 8601 UTC, to the second.
    static func iso(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }
}

/// `fieldtest validate` for one file: the scenario loaded (schema, names, datasets) and, when that
/// succeeds, checked against its data (`ScenarioPreflight`).
public struct ScenarioValidation {
    /// The loader (manifest names and formats, apps).
    public let loader: ScenarioLoader
    /// The datasets the checks read (shared by the files validated together).
    public let datasets: DatasetStore

    /// Validation of scenarios of `registry`'s apps over `manifest`.
    public init(manifest: DatasetManifest, registry: AppRegistry) {
        loader = ScenarioLoader(manifest: manifest, registry: registry)
        datasets = DatasetStore(manifest: manifest)
    }

    /// The scenario of `file` (nil when it has errors) and every diagnostic found, errors and warnings.
    public func validate(file: String) -> (scenario: Scenario?, diagnostics: [ScenarioDiagnostic]) {
        let scenario: Scenario
        do { scenario = try loader.load(URL(fileURLWithPath: file), displayName: file) } catch {
            return (nil, error.diagnostics)
        }
        let found = ScenarioPreflight.check(scenario, registry: loader.registry, datasets: datasets)
        return (found.contains { $0.severity == .error } ? nil : scenario, found)
    }

    /// What `fieldtest validate` prints for `file`: its diagnostics (for standard error; nil when there
    /// are none) and, when it is valid, an `ok` line naming its app, requirements and cases.
    /// With `strict`, warnings are errors: the file is then invalid when it has any.
    public func verdict(file: String, strict: Bool = false) -> (problems: String?, ok: String?) {
        var (scenario, diagnostics) = validate(file: file)
        if strict {
            diagnostics = diagnostics.map { d in
                var d = d
                d.severity = .error
                return d
            }
            if !diagnostics.isEmpty { scenario = nil }
        }
        let problems = diagnostics.isEmpty ? nil : diagnostics.map(\.description).joined(separator: "\n")
        guard let s = scenario else { return (problems, nil) }
        let cases = ScenarioRunner.caseCount(of: s)
        return (
            problems,
            "ok    \(file) (\(s.app), \(s.requirements.count) requirements, \(cases) case\(cases == 1 ? "" : "s"))"
        )
    }
}
