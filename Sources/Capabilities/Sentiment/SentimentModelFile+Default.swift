import FieldtestData
import Foundation
import TweetSentiment

extension SentimentModelFile {
    /// The shipped default model is not where it was looked for.
    public struct NoDefaultModel: Error, Sendable, Equatable, CustomStringConvertible {
        /// Where the default model was looked for.
        public var url: URL

        public var description: String {
            "\(url.path): error: no default sentiment model here; pass --model FILE, set \(DatasetsLocation.environmentVariable) "
                + "to the Fieldtest Datasets folder, or run from the Fieldtest checkout"
        }
    }

    /// The model file `path` names, else the shipped default model in `datasets/models/`.
    public static func url(_ path: String?, datasets: URL) -> URL {
        path.map { URL(fileURLWithPath: $0) }
            ?? datasets.appendingPathComponent("models").appendingPathComponent(defaultFileName)
    }

    /// Loads the model `path` names, or the shipped default model of `datasets`; throws
    /// `NoDefaultModel` when the default is missing, and `SentimentError` for a bad file.
    public static func load(_ path: String?, datasets: URL) throws -> SentimentModel {
        let url = url(path, datasets: datasets)
        if path == nil, !FileManager.default.fileExists(atPath: url.path) { throw NoDefaultModel(url: url) }
        return try load(url, displayName: path ?? url.path)
    }
}
