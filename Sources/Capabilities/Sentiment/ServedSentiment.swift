import FieldtestData
import Foundation
import TweetSentiment

/// The shipped sentiment model, served.
public struct ServedSentiment: ServedCore {
    public let capability = SystemCapability.sentiment
    /// The model answering.
    public var model: SentimentModel
    /// Serves `model`.
    public init(model: SentimentModel) { self.model = model }

    public mutating func load(path: String, format: String) throws {
        guard format == "ftsm" else { throw ServedCoreError("sentiment loads a model file of format 'ftsm'") }
        model = try SentimentModelFile.load(URL(fileURLWithPath: path), displayName: path)
    }

    public func answer(_ rows: [JSONObject]) -> [Result<[(String, JSONField)], ServedCoreError>] {
        rows.map { row in
            guard let text = row["text"]?.stringValue else {
                return .failure(ServedCoreError("'text' must be a string"))
            }
            let p = model.predict(text)
            return .success([
                ("label", .string(p.label.description)), ("score", .number(p.score)),
                ("probabilities", .array(p.probabilities.map { .number($0) })),
            ])
        }
    }
}
