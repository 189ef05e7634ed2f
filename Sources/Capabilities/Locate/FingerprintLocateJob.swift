import FieldtestData
import Foundation
import Positioning

/// `fieldtest locate` as one call: loads the UJIIndoorLoc files, then locates the query file
/// (`FingerprintBatch`) or cross-validates the training data (`FingerprintCrossValidation`).
public enum FingerprintLocateJob {
    /// `fieldtest locate --help`'s description of the output.
    public static let discussion = """
        Output columns: row,longitude,latitude,floor,building,status (row: 1-based data row of the input; \
        coordinates in the input's projected metres; status ok, or no_signal when no access point was detected \
        (every WAP value 100): not located, other columns empty). With ground truth in the input, hit rates and \
        2-D errors go to standard error. --cross-validate evaluates the training data leave-one-phone-out (or \
        -user-out) instead of an --input; its line goes to --output. Methods and figures: docs/positioning.md.
        """

    /// Options of `fieldtest locate` that do not go together, or a missing one.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var message: String
        public var description: String { "error: locate: " + message }
    }

    /// What the command reports beside its output.
    public struct Result: Sendable, Equatable {
        /// For standard error, one message each: training rows left out, the evaluation against the
        /// queries' ground truth, query rows with no signal.
        public var notes: [String]
    }

    /// The locator configurations `fieldtest locate --method` names.
    public enum Method: String, Sendable, CaseIterable {
        /// `FingerprintLocator.Configuration.tuned`: per-query device-offset search, then powed RSSI,
        /// Sørensen distance, weighted 5-NN building and floor votes, Gaussian-kernel coordinates.
        case tuned
        /// `.previousTuned`: the device-offset search and cascade with the coordinates as the 1/d-weighted
        /// mean of 5 neighbours (the tuned configuration before the kernel regression).
        case previous
        /// `.withoutOffsetSearch`: `previous` without the device-offset search.
        case noOffsetSearch = "no-offset-search"
        /// `.publishedBaseline`: the published 1-NN Euclidean baseline.
        case baseline

        /// The configuration the name stands for.
        public var configuration: FingerprintLocator.Configuration {
            switch self {
            case .tuned: .tuned
            case .previous: .previousTuned
            case .noOffsetSearch: .withoutOffsetSearch
            case .baseline: .publishedBaseline
            }
        }
    }

    /// Locates the fingerprints of `input` with a locator trained on `training` (files in the
    /// UJIIndoorLoc layout) and configured by `method`, or, when `crossValidate` is given, evaluates
    /// the training data holding out each group in turn (`input` is then not read), and writes the
    /// located rows (or the cross-validation line) to `output` (nil or `-`: standard output). The
    /// queries are streamed a run of rows at a time (`CSVChunkReader`): memory holds the training
    /// data and one run, whatever the size of `input`; the bytes are those of `FingerprintBatch.csv`
    /// on the whole file. Paths may be `-` (standard input, once); an `output` that names one of them
    /// is refused before anything is read.
    /// - Throws: `UsageError`, `OutputPathCheck.OverwritesInput`, `DataError` for a file that cannot
    ///   be read, `PositioningError` for unusable data.
    public static func run(
        training: [String], input: String?, crossValidate: FingerprintCrossValidation.Grouping?,
        method: Method, output: String?
    ) throws -> Result {
        if training.isEmpty { throw UsageError(message: "give at least one --train FILE.csv (UJIIndoorLoc layout)") }
        if input == nil && crossValidate == nil {
            throw UsageError(message: "give --input FILE.csv to locate, or --cross-validate phone|user")
        }
        if input != nil && crossValidate != nil {
            throw UsageError(
                message: "--cross-validate evaluates the --train data and reads no --input; "
                    + "give one of --input and --cross-validate")
        }
        let configuration = method.configuration
        let paths = try OutputText.inputPaths(training + (input.map { [$0] } ?? []))
        let (training, input) = (Array(paths.prefix(training.count)), input == nil ? nil : paths.last)
        try OutputPathCheck.refuseOverwritingInputs(
            training.map { .init(option: "--train", url: URL(fileURLWithPath: $0)) }
                + (input.map { [.init(option: "--input", url: URL(fileURLWithPath: $0))] } ?? []), output: output)
        let records = try training.flatMap { path in
            try UJIIndoorLoc.load(url: URL(fileURLWithPath: path), displayName: path).records
        }
        var notes: [String] = []
        if case let n = FingerprintSample.withoutSignal(records), n > 0 {
            notes.append("\(n) training fingerprint(s) detect no access point and were left out")
        }
        if let grouping = crossValidate {
            let evaluation = try FingerprintCrossValidation.leaveOneGroupOut(
                try FingerprintSample.fromUJIIndoorLoc(records), by: grouping, configuration: configuration,
                jobs: ProcessInfo.processInfo.activeProcessorCount)
            let line = "leave-one-\(grouping.rawValue)-out (\(method.rawValue)): " + evaluation.summary + "\n"
            try OutputText.write(line, to: output)
            return Result(notes: notes)
        }
        guard let input else { return Result(notes: notes) }
        let model = try FingerprintLocator(
            training: try FingerprintSample.fromUJIIndoorLoc(records), configuration: configuration)
        var stream = QueryStream(file: input)
        try CSVChunkReader(fileName: input).forEachRun(path: input) { run in
            try stream.add(run, model: model, output: output)
        }
        try stream.finish(output: output)
        if let evaluation = stream.evaluation { notes.append(evaluation.summary) }
        if stream.noSignal > 0 {
            notes.append(
                "\(stream.noSignal) fingerprint(s) with no access point detected: status no_signal, not located")
        }
        return Result(notes: notes)
    }

    /// The query file located a run at a time: rows written as they come, the evaluation gathered.
    struct QueryStream {
        let file: String
        /// The first run (blank lines and the header), put before every later run for the parser.
        var header: [UInt8]?
        var sink: OutputSink?
        var rows = 0, noSignal = 0
        /// Estimates and ground truth of the located rows (without their RSSI), while every run has it.
        var estimates: [FingerprintEstimate] = []
        var truth: [FingerprintSample]? = []

        init(file: String) { self.file = file }

        mutating func add(_ run: CSVChunkReader.Run, model: FingerprintLocator, output: String?) throws {
            guard let header else {
                // The header alone: its columns are checked before any output is started.
                _ = try UJIIndoorLoc.load(bytes: run.bytes, file: file, requireLabels: false)
                self.header = run.bytes
                var w = CSVWriter()
                w.row(FingerprintBatch.header)
                let started = try OutputSink(path: output)
                try started.write(w.bytes)
                sink = started
                return
            }
            let headerLines = UJIIndoorLoc.lineEnds(header)
            let queries = try UJIIndoorLoc.load(
                bytes: header + run.bytes, file: file, requireLabels: false,
                lineOffset: run.firstLine - (headerLines + 1)
            ).records
            let result = try FingerprintBatch.run(model, queries: queries, firstRow: rows + 1)
            try sink?.write(FingerprintBatch.rows(result.estimates, firstRow: rows + 1).bytes)
            rows += queries.count
            noSignal += result.noSignalCount
            let located = zip(queries, result.estimates).compactMap { q, e in e.map { (q, $0) } }
            if queries.allSatisfy({ $0.label != nil }),
                var samples = try? FingerprintSample.fromUJIIndoorLoc(located.map(\.0))
            {
                for i in samples.indices { samples[i].rssi = [] }  // only the positions are compared
                truth?.append(contentsOf: samples)
                estimates.append(contentsOf: located.map(\.1))
            } else {
                truth = nil
            }
        }

        func finish(output: String?) throws {
            try sink?.finish()
        }

        /// Accuracy against the queries' ground truth, when every row has it.
        var evaluation: FingerprintEvaluation? {
            truth.flatMap { FingerprintEvaluation(estimates: estimates, truth: $0) }
        }
    }
}

extension FingerprintLocateJob {
    /// `fieldtest locate`: `run(training:input:crossValidate:method:output:)` as a command, its notes
    /// on standard error.
    public struct Request: CommandJob {
        /// The training files.
        public var training: [String]
        /// The fingerprints to locate.
        public var input: String?
        /// The grouping to cross-validate the training data by, instead of an input.
        public var crossValidate: FingerprintCrossValidation.Grouping?
        /// The locator configuration.
        public var method: Method
        /// The output CSV, nil or `-` for standard output.
        public var output: String?

        /// A request.
        public init(
            training: [String], input: String?, crossValidate: FingerprintCrossValidation.Grouping?,
            method: Method, output: String?
        ) {
            (self.training, self.input, self.crossValidate) = (training, input, crossValidate)
            (self.method, self.output) = (method, output)
        }

        public var files: CommandFiles {
            var f = CommandFiles()
            f.inputs(training, option: "--train")
            f.input(input, option: "--input")
            f.output(output, option: "--output")
            return f
        }

        public func run() throws -> CommandJobOutcome {
            let result = try FingerprintLocateJob.run(
                training: training, input: input, crossValidate: crossValidate, method: method, output: output)
            result.notes.forEach(JobNote.print)
            return .success
        }
    }
}
