import FieldtestData
import Foundation
import TweetSentiment

/// Reading and writing model files, and finding the shipped default model.
public enum SentimentModelFile {
    /// File name of the shipped default model inside `Datasets/models/`.
    public static let defaultFileName = "sentiment-default.ftsm"

    /// Loads and validates a model file.
    public static func load(_ url: URL, displayName: String? = nil) throws(SentimentError) -> SentimentModel {
        let name = displayName ?? url.path
        let bytes: [UInt8]
        do throws(DataError) { bytes = try readFileBytes(url, displayName: name) } catch { throw .data(error) }
        return try SentimentModelCodec.decode(bytes, file: name)
    }

    /// Writes a model atomically (never a half-written file).
    public static func save(_ model: SentimentModel, to url: URL) throws(SentimentError) {
        do throws(DataError) { try AtomicFile.write(Data(SentimentModelCodec.encode(model)), to: url) } catch {
            throw .data(error)
        }
    }
}
