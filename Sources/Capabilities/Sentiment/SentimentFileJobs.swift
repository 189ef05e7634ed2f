import FieldtestData
import Foundation
import TweetSentiment

extension SentimentCSV {
    /// `fieldtest classify` as one call: the CSV `file` (`-`: standard input) classified by the model
    /// `model` names (nil: the shipped default model of `datasets`), streamed a run of rows at a time
    /// to `output` (nil or `-`: standard output) in bounded memory; the same bytes as
    /// `classify(_:file:model:classes:jobs:)` on the whole file.
    /// - Throws: `OutputPathCheck`'s error when `output` would overwrite the input or the model, the
    ///   model's load error, and the located `DataError` of a bad row.
    public static func classify(
        file: String, model: String?, datasets: URL, classes: Set<SentimentLabel>, jobs: Int, output: String?
    ) throws {
        let input = OutputText.inputPath(file)
        try OutputPathCheck.refuseOverwritingInputs(
            [
                .init(option: "--input", url: URL(fileURLWithPath: input)),
                .init(option: "--model", url: SentimentModelFile.url(model, datasets: datasets)),
            ], output: output)
        let classifier = try SentimentModelFile.load(model, datasets: datasets)
        var header: CSVHeader?
        var headerLine: [UInt8] = []
        var sink: OutputSink?
        try CSVChunkReader(fileName: input).forEachRun(path: input) { run in
            guard let header else {
                let table = try CSVTable(bytes: run.bytes, file: input)
                try table.require(["id", "text"])
                (header, headerLine) = (table.header, Array((table.header.names.joined(separator: ",") + "\n").utf8))
                var w = CSVWriter()
                w.row(outputHeader)
                let started = try OutputSink(path: output)
                try started.write(w.bytes)
                sink = started
                return
            }
            try NULCheck.refuse(run.bytes, file: input, firstLine: run.firstLine, field: "text")
            // The fast path reads a plain ASCII header (which the names, joined again, reproduce) and
            // well-formed rows; anything else goes through `CSVTable`, which locates the problem.
            let bytes = headerLine + run.bytes
            let rows =
                if let columns = CSVByteColumns.scan(bytes, columns: ["id", "text"]) {
                    Self.rows(columns, of: bytes, model: classifier, classes: classes, jobs: jobs)
                } else {
                    try Self.rows(
                        CSVTable(header: header, bytes: run.bytes, file: input, firstLine: run.firstLine),
                        model: classifier, classes: classes, jobs: jobs)
                }
            try sink?.write(rows.bytes)
        }
        try sink?.finish()
    }
}

extension SentimentEvaluation {
    /// `fieldtest evaluate sentiment` as one call: the model `model` names (nil: the shipped default
    /// model of `datasets`) evaluated on the labelled `files` (`run`), as a plain-text table
    /// (`SentimentTrainer.report`) and as CSV (`SentimentTrainer.reportCSV`).
    /// - Throws: `OutputPathCheck`'s error when `output` would overwrite an input or the model, and
    ///   what loading and `run` throw.
    public static func report(
        files: [String], model: String?, datasets: URL, classes: Set<SentimentLabel>, reservedOnly: Bool,
        output: String?
    ) throws -> (text: String, csv: String) {
        let inputs = try OutputText.inputPaths(files)
        let modelURL = SentimentModelFile.url(model, datasets: datasets)
        try OutputPathCheck.refuseOverwritingInputs(
            OutputPathCheck.tweetInputs(inputs) + [.init(option: "--model", url: modelURL)], output: output)
        let classifier = try SentimentModelFile.load(model, datasets: datasets)
        let evaluations = try run(
            classifier, inputs: inputs.map { URL(fileURLWithPath: $0) }, classes: classes, reservedOnly: reservedOnly,
            displayName: { $0.relativePath })
        return (SentimentTrainer.report(evaluations), SentimentTrainer.reportCSV(evaluations))
    }
}

extension SentimentCSV {
    /// `fieldtest classify`: `classify(file:model:datasets:classes:jobs:output:)` as a command.
    public struct ClassifyJob: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Without --model the shipped Datasets/models/\(SentimentModelFile.defaultFileName) is used (found under \
            $FIELDTEST_DATASETS or ./Datasets). label is the most probable class; --classes negative,positive makes \
            a binary decision. score is a graded polarity (the model's P(pos) - P(neg) blended with the lexicon \
            compound), so its sign can differ from the label when they disagree or neutral is most probable. \
            Each thread classifies its own run of rows.
            """

        /// The input CSV (`-`: standard input).
        public var input: String
        /// The model file (nil: the shipped default model of `datasets`).
        public var model: String?
        /// The datasets folder.
        public var datasets: URL
        /// The classes a label may take.
        public var classes: Set<SentimentLabel>
        /// Threads classifying in parallel.
        public var jobs: Int
        /// The output CSV, nil or `-` for standard output.
        public var output: String?

        /// A job.
        public init(
            input: String, model: String?, datasets: URL, classes: Set<SentimentLabel>, jobs: Int, output: String?
        ) {
            (self.input, self.model, self.datasets, self.classes) = (input, model, datasets, classes)
            (self.jobs, self.output) = (jobs, output)
        }

        public var files: CommandFiles {
            var f = CommandFiles()
            f.input(input, option: "--input")
            f.input(model, option: "--model")
            f.datasets(option: nil)
            f.output(output, option: "--output")
            return f
        }

        public func run() throws -> CommandJobOutcome {
            try SentimentCSV.classify(
                file: input, model: model, datasets: datasets, classes: classes, jobs: jobs, output: output)
            return .success
        }
    }
}

extension SentimentEvaluation {
    /// `fieldtest evaluate sentiment`: a model's figures (`report(files:model:…)`) as a table on
    /// standard output (standard error when the CSV goes to standard output) and as CSV to `output`;
    /// or, with `system`, that system scored (`SystemEvaluation.Request`).
    public struct Job: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Inputs are read as 'fieldtest train sentiment' reads them, and the original Sentiment140 CSV (no \
            header; polarity 0/2/4, e.g. testdata.manual.2009.06.14.csv); for VADER *GroundTruth* files, Pearson r \
            is against the mean human rating. One row per source, then 'all'. --classes negative,positive \
            evaluates as Go et al. (2009) did: neutral examples left out, each decision P(positive) vs P(negative).
            --reserved-only scores only the evaluation share (one tweet in ten, by text hash) that 'train \
            sentiment --reserve' keeps out of training: the shipped model never saw the airline tweets' share.
            Example: fieldtest evaluate sentiment --input testdata.manual.2009.06.14.csv --classes negative,positive
            """

        /// The labelled files.
        public var input: [String]
        /// The model file (nil: the shipped default model of `datasets`).
        public var model: String?
        /// The datasets folder.
        public var datasets: URL
        /// The classes to decide among.
        public var classes: Set<SentimentLabel>
        /// Whether only the reserved evaluation share is scored.
        public var reservedOnly: Bool
        /// The CSV figures' file.
        public var output: String?
        /// The system scored instead of the model.
        public var system: SystemEvaluation.Request?

        /// A job.
        public init(
            input: [String], model: String?, datasets: URL, classes: Set<SentimentLabel>, reservedOnly: Bool,
            output: String?, system: SystemEvaluation.Request?
        ) {
            (self.input, self.model, self.datasets, self.classes) = (input, model, datasets, classes)
            (self.reservedOnly, self.output, self.system) = (reservedOnly, output, system)
        }

        /// Options that do not go together (`classes`, `systemOptions` and `items`: whether `--classes`,
        /// an external system's options and `--items` were given): nil, or what to do (a usage error).
        public static func usageProblem(system: String?, classes: String?, systemOptions: Bool, items: String?)
            -> String?
        {
            if system != nil && classes != nil {
                return
                    "--classes applies to the built-in model only; with --system, all three classes are scored (drop --classes)"
            }
            if system == nil && systemOptions {
                return "--timeout and --stderr apply to an external system; give --system too"
            }
            if system == nil && items != nil {
                return "--items scores a system: give --system (builtin for the shipped model)"
            }
            return nil
        }

        /// The labelled files (with their companions), the model, the datasets, the system command's
        /// files; the figures, and a system's items and kept standard error.
        public var files: CommandFiles {
            var f = CommandFiles()
            f.inputs += OutputPathCheck.tweetInputs(input.filter { $0 != OutputText.standardStreamName })
            f.input(model, option: "--model")
            f.datasets(option: nil)
            if let system { f.system(system.system) }
            f.output(output, option: "--output")
            f.output(system?.items, option: "--items")
            f.output(system?.stderr, option: "--stderr")
            return f
        }

        public func run() throws -> CommandJobOutcome {
            if let system { return try system.run() }
            let report = try SentimentEvaluation.report(
                files: input, model: model, datasets: datasets, classes: classes, reservedOnly: reservedOnly,
                output: output)
            // Beside a CSV on standard output, the table goes to standard error.
            if output == OutputText.standardStreamName { JobNote.print(report.text) } else { print(report.text) }
            if let output { try OutputText.write(report.csv, to: output) }
            return .success
        }
    }
}
