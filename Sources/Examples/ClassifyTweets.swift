import Capabilities
import FieldtestData
import TweetSentiment

/// Tweet sentiment in-process: load the shipped model and classify a few tweets.
/// Run from the Fieldtest checkout (or set FIELDTEST_DATASETS) so the model is found.
enum ClassifyTweets: InProcessExample {
    static func run() throws {
        // snippet.classify
        // The model file: `Datasets/models/sentiment-default.ftsm` of the checkout or of an installed share.
        let model = try SentimentModelFile.load(nil, datasets: DatasetsLocation.current(option: nil))
        var scorer = SentimentScorer(model: model)
        for tweet in [
            "Loving the sunset at the pier tonight :)", "Train cancelled again. Great.",
            "The library opens at 9 on Saturdays",
        ] {
            let prediction = scorer.predict(tweet)
            print(prediction.label, (prediction.score * 100).rounded() / 100, tweet)
        }
        // snippet.end
    }
}
