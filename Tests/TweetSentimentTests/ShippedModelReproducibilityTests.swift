import FieldtestData
import Foundation
import Testing

@testable import TweetSentiment

/// The shipped model is a pure function of its inputs: retraining gives the same bytes.
@Suite("Shipped model reproducibility")
struct ShippedModelReproducibilityTests {
    /// The repository root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The repository's `Datasets` folder.
    static let datasets = root.appendingPathComponent("Datasets")
    /// The SemEval training tweets, which may not be redistributed and so live outside the
    /// repository (`../shared`, present on CI and the build machines).
    static let semEvalTweets = root.deletingLastPathComponent()
        .appendingPathComponent("shared/datasets/sentiment-semeval-train/tweets.tsv")
    static var hasSemEvalTweets: Bool { FileManager.default.isReadableFile(atPath: semEvalTweets.path) }

    /// The inputs of the shipped model, in the order of the command in `Datasets/models/README.md`.
    static var shippedInputs: [URL] { SentimentCorpusFiles.bundledInputs(datasets: datasets) + [semEvalTweets] }

    static func train(_ inputs: [URL], configuration: TrainingConfiguration = TrainingConfiguration()) throws -> [UInt8]
    {
        let outcome = try SentimentTraining.run(
            inputs: inputs, lexiconDirectory: datasets.appendingPathComponent("lexicons"),
            configuration: configuration, seed: 42, developmentFraction: 0)
        return SentimentModelCodec.encode(outcome.model)
    }

    /// Training on bundled three-class data alone is reproducible, and its seed matters. (A
    /// subset of the bundled files keeps the debug-build run short; the full bundled mix is
    /// the same code path.)
    @Test func bundledTrainingIsByteIdentical() throws {
        let inputs = SentimentCorpusFiles.bundledInputs(datasets: Self.datasets)
            .filter { $0.lastPathComponent.hasPrefix("tweeteval") }
        #expect(inputs.count == 1)
        var c = TrainingConfiguration()
        c.charBits = 12
        c.hashBits = 14
        c.logisticRegression.epochs = 2
        let a = try Self.train(inputs, configuration: c)
        let b = try Self.train(inputs, configuration: c)
        #expect(a == b)
        let other = try SentimentTraining.run(
            inputs: inputs, lexiconDirectory: Self.datasets.appendingPathComponent("lexicons"),
            configuration: c, seed: 43, developmentFraction: 0)
        #expect(SentimentModelCodec.encode(other.model) != a)
    }

    /// Retraining with the command in `Datasets/models/README.md` gives the shipped model's bytes.
    /// Needs `../shared` (skipped without it); the full training takes a few minutes in a debug build,
    /// so it runs in release builds, or in debug ones with `FIELDTEST_RETRAIN_CHECK=1`.
    @Test(
        .enabled(if: hasSemEvalTweets, "needs ../shared/datasets/sentiment-semeval-train/tweets.tsv"),
        .enabled(if: Self.runsFullRetrain, "full retrain: release build or FIELDTEST_RETRAIN_CHECK=1"))
    func shippedModelRetrainsByteIdentically() throws {
        let shipped = try readFileBytes(
            Self.datasets.appendingPathComponent("models/\(SentimentModelFile.defaultFileName)"),
            displayName: "sentiment-default.ftsm")
        // The neutral offset the README's leave-one-year-out calibration chose (`--class-offsets 0,-0.45,0`).
        var c = TrainingConfiguration()
        c.classLogOffsets = [0, -0.45, 0]
        let retrained = try Self.train(Self.shippedInputs, configuration: c)
        #expect(retrained.count == shipped.count)
        #expect(
            retrained == shipped,
            "retrained model differs from Datasets/models/sentiment-default.ftsm; retrain it with the command in Datasets/models/README.md"
        )
    }

    static var runsFullRetrain: Bool {
        #if DEBUG
            return ProcessInfo.processInfo.environment["FIELDTEST_RETRAIN_CHECK"] == "1"
        #else
            return true
        #endif
    }
}
