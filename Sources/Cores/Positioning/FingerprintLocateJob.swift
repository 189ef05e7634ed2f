import FieldtestData
import Foundation

/// `fieldtest locate` as one call: loads the UJIIndoorLoc files, then locates the query file
/// (`FingerprintBatch`) or cross-validates the training data (`FingerprintCrossValidation`).
public enum FingerprintLocateJob {
    /// What the command writes.
    public struct Result: Sendable, Equatable {
        /// For the output: the located rows' CSV, or the one-line cross-validation result.
        public var output: String
        /// For standard error, one message each: training rows left out, the evaluation against the
        /// queries' ground truth, query rows with no signal.
        public var notes: [String]
    }

    /// The locator configurations `fieldtest locate --method` names.
    public enum Method: String, Sendable, CaseIterable {
        /// `FingerprintLocator.Configuration.tuned`: per-query device-offset search, then powed RSSI,
        /// Sørensen distance, weighted 5-NN cascade.
        case tuned
        /// `.withoutOffsetSearch`: the same cascade without the device-offset search.
        case noOffsetSearch = "no-offset-search"
        /// `.publishedBaseline`: the published 1-NN Euclidean baseline.
        case baseline

        /// The configuration the name stands for.
        public var configuration: FingerprintLocator.Configuration {
            switch self {
            case .tuned: .tuned
            case .noOffsetSearch: .withoutOffsetSearch
            case .baseline: .publishedBaseline
            }
        }
    }

    /// Locates the fingerprints of `input` with a locator trained on `training` (files in the
    /// UJIIndoorLoc layout) and configured by `method`, or, when `crossValidate` is given, evaluates
    /// the training data holding out each group in turn (`input` is then not read). Paths may be `-`
    /// (standard input, once); an `output` that names one of them is refused before anything is read.
    /// - Throws: `OutputPathCheck.OverwritesInput`, `DataError` for a file that cannot be read, `PositioningError` for unusable data.
    public static func run(
        training: [String], input: String?, crossValidate: FingerprintCrossValidation.Grouping?,
        method: Method, output: String?
    ) throws -> Result {
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
                try FingerprintSample.fromUJIIndoorLoc(records), by: grouping, configuration: configuration)
            let line = "leave-one-\(grouping.rawValue)-out (\(method.rawValue)): " + evaluation.summary + "\n"
            return Result(output: line, notes: notes)
        }
        guard let input else { return Result(output: "", notes: notes) }
        let queries = try UJIIndoorLoc.load(url: URL(fileURLWithPath: input), displayName: input, requireLabels: false)
        let result = try FingerprintBatch.run(training: records, queries: queries.records, configuration: configuration)
        if let evaluation = result.evaluation { notes.append(evaluation.summary) }
        if result.noSignalCount > 0 {
            notes.append(
                "\(result.noSignalCount) fingerprint(s) with no access point detected: status no_signal, not located")
        }
        return Result(output: result.csv, notes: notes)
    }
}
