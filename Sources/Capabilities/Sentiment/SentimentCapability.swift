import Foundation
import TweetSentiment

extension SystemCapability {
    /// Tweet sentiment (`fieldtest classify`'s columns).
    public static let sentiment = SystemCapability(name: "sentiment", operation: "classify")
}

extension CapabilityDefinition {
    /// Tweet sentiment: the shipped model (`SentimentSystem`), the `classify`/`train` jobs
    /// (`SentimentCSV.classify`, `SentimentTrainingJob`) and its evaluator against the labels and
    /// human ratings (`SentimentSystemEvaluation`).
    public static let sentiment = CapabilityDefinition(
        capability: .sentiment,
        evaluation: Evaluation(
            abstract: "Score a sentiment system on labelled tweets (accuracy, macro-recall, per-class P/R/F1, r).",
            inputs: "--input: labelled tweets, as evaluate sentiment reads them.", readsManyInputs: true,
            run: { r, choice in try SentimentSystemEvaluation.run(r, choice: choice) }),
        serveBuiltin: { datasets, name, version, maxLineBytes in
            var core = ServedSentiment(model: try SentimentModelFile.load(nil, datasets: datasets))
            SystemServer.serve(&core, name: name, version: version, maxLineBytes: maxLineBytes)
        })
}
