import FieldtestData
import FieldtestGSL
import Foundation

/// `fieldtest evaluate <capability> --system …`: a labelled file's rows fed to any system under
/// test (the built-in core by default, or an external one over JSON Lines) and its answers scored
/// against a reference the system never sees, by the capability's evaluator
/// (`CapabilityDefinition.evaluation`); for the bundled capabilities:
/// - `sun`: labelled event columns where the file has them, else the NREL SPA reference
///   (`SunReference`) for sunrise and sunset (`SunTimesEvaluation`);
/// - `route`: an exact shortest path on the same map by the evaluator's own Dijkstra
///   (`ShortestPathOracle`, `RouteEvaluation`);
/// - `locate`: the UJIIndoorLoc ground-truth columns (`LocateEvaluation`);
/// - `sentiment`: the labels, and the human ratings where the file has them (`SentimentSystemEvaluation`).
///
/// The result is one CSV (`Figure.header`), documented in docs/outputs.md.
public enum SystemEvaluation {
    /// What to evaluate.
    public struct Request: Sendable {
        /// The capability evaluated (its definition: evaluator and options).
        public var capability: CapabilityDefinition
        /// The labelled files (one for sun, route and locate; any number for sentiment).
        public var inputs: [String]
        /// `builtin`, or the command line of an external system (`SystemChoice.parse(command:)`).
        public var system: String = "builtin"
        /// `route`: the map (OSM XML or GeoJSON).
        public var graph: String?
        /// `locate`: the training files (UJIIndoorLoc layout).
        public var training: [String] = []
        /// `sun`: seconds within which an event time counts as right.
        public var toleranceSeconds: Double = 60
        /// Seconds an external system may take per answer (more than 0, at most a day).
        public var timeoutSeconds: Double = ExternalSystemSpec.defaultTimeout
        /// Where an external system's standard error is kept (bounded, `StderrLog`); nil: a
        /// temporary file, removed at the end, or moved to `<output>.stderr` when the system faulted.
        public var stderr: String?
        /// The system started for this request, once started.
        var session = Session()
        /// Seed sent in the handshake.
        public var seed: UInt64 = 0
        /// The datasets folder (the built-in sentiment model).
        public var datasets: URL
        /// The output file (nil or `-`: standard output); refused when it names an input.
        public var output: String?
        /// `--items FILE`: one row per input item (`EvaluationItems`); refused when it names an input.
        public var items: String?
        /// The open items file while evaluating.
        var itemLog: EvaluationItems? { session.items }

        /// A request.
        public init(capability: CapabilityDefinition, inputs: [String], datasets: URL, output: String?) {
            self.capability = capability
            self.inputs = inputs
            self.datasets = datasets
            self.output = output
        }
    }

    /// `fieldtest evaluate <capability> --help`'s text on the system options, the output and the exit codes.
    public static let systemHelp =
        "--system: builtin, or an external system's command (docs/system-protocol.md). "
        + "Output: CSV capability,system,metric,scope,value,unit,rows (docs/outputs.md). "
        + "An external system's faults (crash, timeout, malformed, wrong_type, …) are system_errors_<kind> rows; "
        + "its standard error is kept with --stderr FILE, else beside --output FILE when it faulted. "
        + "Exit codes: 0 evaluated, 1 the external system faulted, "
        + "2 invalid input, usage, or a system that cannot start or fails the handshake."

    /// The external system one evaluation started, and where its standard error goes.
    final class Session: @unchecked Sendable {
        var system: ExternalSystem?
        var items: EvaluationItems?
        var stderrPath: String?
        var cleanup: InterruptCleanup.Registration?
        /// Whether `stderrPath` is a temporary file, removed however the evaluation ends.
        var temporary = false
        deinit {
            system?.close()
            if temporary, let stderrPath { try? FileManager.default.removeItem(atPath: stderrPath) }
            cleanup?.cancel()
        }
    }

    /// A usage error: an option that does not apply, or one that is missing.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var message: String
        public var description: String { "error: evaluate: " + message }
    }

    /// Checks the request's options against its capability.
    public static func validate(_ r: Request) throws(UsageError) {
        let name = r.capability.name
        let evaluation = r.capability.evaluation
        if r.inputs.isEmpty { throw UsageError(message: "give the labelled file with --input FILE") }
        if !evaluation.readsManyInputs && r.inputs.count > 1 {
            throw UsageError(message: "evaluate \(name) reads one --input file; give one")
        }
        if evaluation.needsGraph != (r.graph != nil) {
            throw UsageError(
                message: evaluation.needsGraph
                    ? "evaluate route needs the map: --graph FILE.osm|.geojson"
                    : "--graph is the map of evaluate route; drop it for evaluate \(name)")
        }
        if evaluation.needsTraining != !r.training.isEmpty {
            throw UsageError(
                message: evaluation.needsTraining
                    ? "evaluate locate needs the training data: --train FILE.csv (UJIIndoorLoc layout)"
                    : "--train is the training data of evaluate locate; drop it for evaluate \(name)")
        }
        if !(r.toleranceSeconds >= 0 && r.toleranceSeconds.isFinite) {
            throw UsageError(message: "--tolerance must be a number of seconds ≥ 0")
        }
        if let problem = ExternalSystemSpec.timeoutProblem(r.timeoutSeconds) {
            throw UsageError(message: "--timeout \(problem)")
        }
    }

    /// Runs the evaluation and writes its CSV to `request.output`; the report tells whether the
    /// system faulted (`Report.faults`) and where its standard error is (`Report.stderr`).
    /// - Throws: `UsageError`, `OutputPathCheck.OverwritesInput`, the located `DataError` of a bad
    ///   input row, `SystemError` when the external system cannot be started or fails the handshake.
    @discardableResult
    public static func run(_ request: Request) throws -> Report {
        let report = try evaluate(request)
        try OutputText.write(report.csv, to: request.output)
        return report
    }

    /// Runs the evaluation; its figures, with `system_errors` rows when an external system faulted.
    public static func evaluate(_ request: Request) throws -> Report {
        try validate(request)
        let inputs = try OutputText.inputPaths(request.inputs + request.training + (request.graph.map { [$0] } ?? []))
        let checked = inputs.map { OutputPathCheck.Input(option: "--input", url: URL(fileURLWithPath: $0)) }
        try OutputPathCheck.refuseOverwritingInputs(checked, output: request.output)
        if let items = request.items {
            let outputs = [request.output, request.stderr].compactMap { $0 }.filter { $0 != "-" }.map {
                OutputPathCheck.Input(option: "--output", url: URL(fileURLWithPath: $0))
            }
            try OutputPathCheck.refuseOverwritingInputs(checked + outputs, output: items, outputOption: "--items")
            if items == "-" && (request.output ?? "-") == "-" {
                throw UsageError(
                    message: "--items - and the figures cannot both go to standard output; give --output FILE")
            }
        }
        if let stderr = request.stderr {
            try OutputPathCheck.refuseOverwritingInputs(
                checked + (request.output.map { [.init(option: "--output", url: URL(fileURLWithPath: $0))] } ?? []),
                output: stderr, outputOption: "--stderr")
        }
        var r = request
        r.inputs = Array(inputs.prefix(request.inputs.count))
        r.training = Array(inputs.dropFirst(request.inputs.count).prefix(request.training.count))
        r.graph = request.graph == nil ? nil : inputs.last
        let choice = try SystemChoice.parse(command: r.system, timeoutSeconds: r.timeoutSeconds)
        if let items = r.items { r.session.items = try EvaluationItems(path: items) }
        let figures: [Figure]
        let name: String
        (name, figures) = try r.capability.evaluation.run(r, choice)
        try r.session.items?.finish()
        var report = Report(capability: r.capability.capability, system: name, figures: figures)
        if let system = r.session.system {
            system.close()
            report.faults = system.faults
            report.figures += faultFigures(system.faults, rows: figures.first?.rows ?? 0)
            report.stderr = keepStderr(of: r, faulted: system.faults.total > 0)
        }
        return report
    }

    /// `system_errors` (all faults) and one `system_errors_<kind>` row per kind seen, as `run`
    /// reports them (docs/outputs.md); each counts the rows the faults cost.
    static func faultFigures(_ faults: SystemFaults, rows: Int) -> [Figure] {
        [Figure("system_errors", Double(faults.total), unit: "count", rows: rows)]
            + SystemFaultKind.allCases.map(\.rawValue).sorted().compactMap { name in
                let n = faults[SystemFaultKind(rawValue: name)!]
                return n > 0 ? Figure("system_errors_" + name, Double(n), unit: "count", rows: rows) : nil
            }
    }

    /// Where the system's standard error is left: `--stderr FILE` as given; else the temporary
    /// file is moved beside a file output (`<output>.stderr`) when the system faulted, and removed
    /// otherwise. Nil when it was removed.
    static func keepStderr(of r: Request, faulted: Bool) -> String? {
        guard let path = r.session.stderrPath else { return nil }
        if r.stderr != nil { return path }
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard faulted, let output = r.output, output != OutputText.standardStreamName else { return nil }
        let kept = output + ".stderr"
        try? FileManager.default.removeItem(atPath: kept)
        guard (try? FileManager.default.copyItem(atPath: path, toPath: kept)) != nil else { return nil }
        return kept
    }

    /// Starts the external system `spec` for `capability` with its setup files; its standard error
    /// goes to `--stderr` or a temporary file (removed on SIGINT and SIGTERM too), reported when the
    /// handshake fails.
    static func start(
        _ capability: SystemCapability, spec: ExternalSystemSpec, request r: Request, setup: [SetupDataset] = []
    ) throws(SystemError) -> ExternalSystem {
        let stderr =
            r.stderr
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("fieldtest-evaluate-\(capability)-\(UUID().uuidString).stderr").path
        r.session.stderrPath = stderr
        if r.stderr == nil {
            let registration = InterruptCleanup.install { try? FileManager.default.removeItem(atPath: stderr) }
            r.session.cleanup = registration
            r.session.temporary = true
        }
        do {
            let system = try ExternalSystem(
                capability: capability, spec: spec, seed: r.seed, stderrPath: stderr, setup: setup)
            r.session.system = system
            return system
        } catch {
            if r.stderr == nil { try? FileManager.default.removeItem(atPath: stderr) }
            throw error
        }
    }

    /// The name a report gives a started external system: its handshake name and version.
    static func name(_ system: ExternalSystem) -> String {
        let id = system.identity
        return id.version.isEmpty ? id.name : "\(id.name) \(id.version)"
    }

    /// Rows are sent in batches of this many (one request each).
    static let batchSize = 500

    /// `answer` applied to `items` a batch at a time (an external system gets one request per batch).
    static func batched<Item, Answer>(_ items: [Item], _ answer: ([Item]) -> [Answer?]) -> [Answer?] {
        var out: [Answer?] = []
        out.reserveCapacity(items.count)
        var start = 0
        while start < items.count {
            let end = min(items.count, start + batchSize)
            let part = answer(Array(items[start..<end]))
            // A system that answers fewer rows than asked leaves the rest unanswered.
            out.append(contentsOf: part.prefix(end - start))
            if part.count < end - start { out.append(contentsOf: repeatElement(nil, count: end - start - part.count)) }
            start = end
        }
        return out
    }
}

extension SystemEvaluation {
    /// One figure of an evaluation: a row of the output CSV.
    public struct Figure: Sendable, Equatable {
        /// The metric, e.g. `error_mean_s`, `accuracy` (docs/outputs.md lists them).
        public var metric: String
        /// What it is over: `all`, an event (`sunrise`), a class (`negative`).
        public var scope: String
        /// The value; nil (an empty field) when undefined (no rows, a constant side for r).
        public var value: Double?
        /// `s`, `m`, `ratio`, `rate`, `count` or `r`.
        public var unit: String
        /// Number of rows the figure is over.
        public var rows: Int

        /// A figure.
        public init(_ metric: String, scope: String = "all", _ value: Double?, unit: String, rows: Int) {
            self.metric = metric
            self.scope = scope
            self.value = value
            self.unit = unit
            self.rows = rows
        }

        /// The output header.
        public static let header = ["capability", "system", "metric", "scope", "value", "unit", "rows"]
    }

    /// The figures of one evaluation.
    public struct Report: Sendable, Equatable {
        /// The capability evaluated.
        public var capability: SystemCapability
        /// `builtin`, or the external system's handshake name and version.
        public var system: String
        /// The figures, in output order.
        public var figures: [Figure]
        /// An external system's faults (nil for the built-in core).
        public var faults: SystemFaults?
        /// Where an external system's standard error was kept (nil: removed, or none).
        public var stderr: String?

        /// Whether an external system committed any fault (the command exits 1).
        public var systemFaulted: Bool { (faults?.total ?? 0) > 0 }

        /// The message for a faulted system: its faults by kind and where its standard error is.
        public var faultMessage: String? {
            guard let faults, faults.total > 0 else { return nil }
            let kinds = faults.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                "\($0.value) \($0.key.rawValue)"
            }
            let log =
                stderr.map { "its standard error is kept in \($0)" }
                ?? "give --stderr FILE (or --output FILE) to keep its standard error"
            return "error: evaluate: system '\(TerminalSafety.escaped(system))' faulted on \(faults.total) rows ("
                + kinds.joined(separator: ", ") + "; \(faults.restarts) restarts); they count as unanswered; " + log
        }

        /// The figure `metric` of `scope`, if any.
        public func value(_ metric: String, scope: String = "all") -> Double? {
            figures.first { $0.metric == metric && $0.scope == scope }?.value
        }

        /// The output CSV: `Figure.header`, one row per figure; values with up to 10 significant digits.
        public var csv: String {
            var w = CSVWriter()
            w.row(Figure.header)
            for f in figures {
                w.row([
                    capability.name, system, f.metric, f.scope, f.value.map { CSVWriter.number($0) } ?? "", f.unit,
                    String(f.rows),
                ])
            }
            return w.text
        }
    }
}

/// Mean, percentiles and maximum of absolute errors; percentiles are Hyndman–Fan type 7, the one
/// quantile definition of every Fieldtest figure (`Quantiles`).
struct ErrorSummary {
    /// The errors, sorted ascending.
    let sorted: [Double]

    init(_ errors: [Double]) { sorted = errors.map(abs).sorted() }

    var mean: Double? { sorted.isEmpty ? nil : sorted.reduce(0, +) / Double(sorted.count) }
    var max: Double? { sorted.last }

    /// The `p`-th percentile (0 < p ≤ 100), linear between order statistics (type 7).
    func percentile(_ p: Double) -> Double? {
        Quantiles.quantile(sorted: sorted, probability: p / 100)
    }
}

extension SystemEvaluation.Request: CommandJob {
    /// The labelled files, the map and training files, the datasets, the system command's files; the
    /// figures, the items and the kept standard error.
    public var files: CommandFiles {
        var f = CommandFiles()
        f.inputs(inputs, option: "--input")
        f.input(graph, option: "--graph")
        f.inputs(training, option: "--train")
        f.datasets(option: nil)
        f.system(system)
        f.output(output, option: "--output")
        f.output(items, option: "--items")
        f.output(stderr, option: "--stderr")
        return f
    }

    /// `SystemEvaluation.run`; a system that faulted is a failure, said on standard error.
    public func run() throws -> CommandJobOutcome {
        let report = try SystemEvaluation.run(self)
        guard let message = report.faultMessage else { return .success }
        JobNote.print(message)
        return .failure
    }
}
