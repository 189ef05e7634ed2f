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
