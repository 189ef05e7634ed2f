import FieldtestData
import Foundation
import SystemsUnderTest

/// `fieldtest evaluate <sun|route|locate|sentiment> --system …`: a labelled file's rows fed to any
/// system under test (the built-in core by default, or an external one over JSON Lines) and its
/// answers scored against a reference the system never sees:
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
        /// The capability evaluated.
        public var capability: SystemCapability
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
        /// Seconds an external system may take per answer.
        public var timeoutSeconds: Double = ExternalSystemSpec.defaultTimeout
        /// Seed sent in the handshake.
        public var seed: UInt64 = 0
        /// The datasets folder (the built-in sentiment model).
        public var datasets: URL
        /// The output file (nil or `-`: standard output); refused when it names an input.
        public var output: String?

        /// A request.
        public init(capability: SystemCapability, inputs: [String], datasets: URL, output: String?) {
            self.capability = capability
            self.inputs = inputs
            self.datasets = datasets
            self.output = output
        }
    }

    /// `fieldtest evaluate <capability> --help`'s one-line summary.
    public static func abstract(_ capability: SystemCapability) -> String {
        switch capability {
        case .sun: "Score a sun-times system against labelled times or the SPA reference (errors in seconds)."
        case .route: "Score a router against exact shortest paths on the same map (length error, optimality, status)."
        case .locate: "Score a Wi-Fi positioning system on labelled fingerprints (2-D error, floor and building hits)."
        case .sentiment: "Score a sentiment system on labelled tweets (accuracy, macro-recall, per-class P/R/F1, r)."
        }
    }

    /// `fieldtest evaluate <capability> --help`'s description.
    public static func discussion(_ capability: SystemCapability) -> String {
        let input =
            switch capability {
            case .sun:
                "--input: fieldtest sun's input (id,latitude,longitude,date,timezone), optionally with labelled "
                    + "event columns (sunrise, sunset, … as YYYY-MM-DDTHH:MM:SSZ) that replace the SPA reference."
            case .route:
                "--input: fieldtest route's queries (id,from_lat,from_lon,to_lat,to_lon,profile); --graph: the map."
            case .locate: "--input: labelled fingerprints (UJIIndoorLoc layout); --train: the training files."
            case .sentiment: "--input: labelled tweets, as evaluate sentiment reads them."
            }
        return input + " --system: builtin, or an external system's command (docs/system-protocol.md). "
            + "Output: CSV capability,system,metric,scope,value,unit,rows (docs/outputs.md). "
            + "Exit codes: 0 evaluated, 2 invalid input, usage, or a system that cannot start or fails the handshake."
    }

    /// A usage error: an option that does not apply, or one that is missing.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var message: String
        public var description: String { "error: evaluate: " + message }
    }

    /// Checks the request's options against its capability.
    public static func validate(_ r: Request) throws(UsageError) {
        let name = r.capability.rawValue
        if r.inputs.isEmpty { throw UsageError(message: "give the labelled file with --input FILE") }
        if r.capability != .sentiment && r.inputs.count > 1 {
            throw UsageError(message: "evaluate \(name) reads one --input file; give one")
        }
        if (r.capability == .route) != (r.graph != nil) {
            throw UsageError(
                message: r.capability == .route
                    ? "evaluate route needs the map: --graph FILE.osm|.geojson"
                    : "--graph is the map of evaluate route; drop it for evaluate \(name)")
        }
        if (r.capability == .locate) != !r.training.isEmpty {
            throw UsageError(
                message: r.capability == .locate
                    ? "evaluate locate needs the training data: --train FILE.csv (UJIIndoorLoc layout)"
                    : "--train is the training data of evaluate locate; drop it for evaluate \(name)")
        }
        if !(r.toleranceSeconds >= 0 && r.toleranceSeconds.isFinite) {
            throw UsageError(message: "--tolerance must be a number of seconds ≥ 0")
        }
    }

    /// Runs the evaluation and writes its CSV to `request.output`.
    /// - Throws: `UsageError`, `OutputPathCheck.OverwritesInput`, the located `DataError` of a bad
    ///   input row, `SystemError` when the external system cannot be started or fails the handshake.
    public static func run(_ request: Request) throws {
        try OutputText.write(try evaluate(request).csv, to: request.output)
    }

    /// Runs the evaluation; its figures.
    public static func evaluate(_ request: Request) throws -> Report {
        try validate(request)
        let inputs = try OutputText.inputPaths(request.inputs + request.training + (request.graph.map { [$0] } ?? []))
        try OutputPathCheck.refuseOverwritingInputs(
            inputs.map { .init(option: "--input", url: URL(fileURLWithPath: $0)) }, output: request.output)
        var r = request
        r.inputs = Array(inputs.prefix(request.inputs.count))
        r.training = Array(inputs.dropFirst(request.inputs.count).prefix(request.training.count))
        r.graph = request.graph == nil ? nil : inputs.last
        let choice = try SystemChoice.parse(command: r.system, timeoutSeconds: r.timeoutSeconds)
        let figures: [Figure]
        let name: String
        switch r.capability {
        case .sun: (name, figures) = try SunTimesEvaluation.run(r, choice: choice)
        case .route: (name, figures) = try RouteEvaluation.run(r, choice: choice)
        case .locate: (name, figures) = try LocateEvaluation.run(r, choice: choice)
        case .sentiment: (name, figures) = try SentimentSystemEvaluation.run(r, choice: choice)
        }
        return Report(capability: r.capability, system: name, figures: figures)
    }

    /// Starts the external system `spec` for `capability` with its setup files; its standard error
    /// goes to a temporary file, reported when the handshake fails.
    static func start(
        _ capability: SystemCapability, spec: ExternalSystemSpec, seed: UInt64, setup: [SetupDataset] = []
    ) throws(SystemError) -> ExternalSystem {
        let stderr = FileManager.default.temporaryDirectory
            .appendingPathComponent("fieldtest-evaluate-\(capability)-\(UUID().uuidString).stderr").path
        return try ExternalSystem(capability: capability, spec: spec, seed: seed, stderrPath: stderr, setup: setup)
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
                    capability.rawValue, system, f.metric, f.scope, f.value.map { CSVWriter.number($0) } ?? "", f.unit,
                    String(f.rows),
                ])
            }
            return w.text
        }
    }
}

/// Mean, nearest-rank percentiles and maximum of absolute errors.
struct ErrorSummary {
    /// The errors, sorted ascending.
    let sorted: [Double]

    init(_ errors: [Double]) { sorted = errors.map(abs).sorted() }

    var mean: Double? { sorted.isEmpty ? nil : sorted.reduce(0, +) / Double(sorted.count) }
    var max: Double? { sorted.last }

    /// The nearest-rank `p`-th percentile (0 < p ≤ 100): the smallest error at or above which
    /// p % of the errors lie.
    func percentile(_ p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}
