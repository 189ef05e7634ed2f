import FieldtestData
import Foundation

extension SentimentCSV {
    /// `fieldtest classify` as one call: the CSV `file` (`-`: standard input) classified by the model
    /// `model` names (nil: the shipped default model of `datasets`), as `classify(_:file:model:classes:jobs:)`.
    /// - Throws: `OutputPathCheck`'s error when `output` would overwrite the input or the model, the
    ///   model's load error, and the located `DataError` of a bad row.
    public static func classify(
        file: String, model: String?, datasets: URL, classes: Set<SentimentLabel>, jobs: Int, output: String?
    ) throws -> String {
        let input = OutputText.inputPath(file)
        try OutputPathCheck.refuseOverwritingInputs(
            [
                .init(option: "--input", url: URL(fileURLWithPath: input)),
                .init(option: "--model", url: SentimentModelFile.url(model, datasets: datasets)),
            ], output: output)
        let classifier = try SentimentModelFile.load(model, datasets: datasets)
        let bytes = try readFileBytes(URL(fileURLWithPath: input), displayName: input)
        return try classify(bytes, file: input, model: classifier, classes: classes, jobs: jobs)
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
