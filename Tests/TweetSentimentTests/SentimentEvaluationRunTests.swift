import FieldtestData
import Foundation
import Testing

@testable import TweetSentiment

/// The option parsing of `fieldtest evaluate sentiment` and the sentiment commands.
@Suite("Sentiment evaluation entry point")
struct SentimentEvaluationRunTests {
    @Test(arguments: [
        ("negative,positive", [SentimentLabel.negative, .positive]), (" Neutral , positive", [.neutral, .positive]),
        ("negative,neutral,positive", SentimentLabel.allCases),
    ])
    func classListParses(text: String, labels: [SentimentLabel]) throws {
        #expect(try SentimentEvaluation.classes(text) == Set(labels))
    }

    @Test func classListErrorsSayWhatIsAllowed() throws {
        #expect(throws: SentimentEvaluation.ClassListError.unknownClass("happy")) {
            try SentimentEvaluation.classes("negative,happy")
        }
        #expect(throws: SentimentEvaluation.ClassListError.tooFewClasses) {
            try SentimentEvaluation.classes("positive,positive")
        }
        #expect(
            SentimentEvaluation.ClassListError.unknownClass("x").description
                == "error: --classes: 'x' is not a class; use negative, neutral, positive (comma-separated)")
        #expect(try SentimentEvaluation.classes(nil) == Set(SentimentLabel.allCases))
    }

    @Test func reservedSourcesAndSourceWeightsParse() {
        #expect(TrainingConfiguration.reservedSources(parsing: "none") == [])
        #expect(TrainingConfiguration.reservedSources(parsing: "airline, tweetEval") == [.airline, .tweetEval])
        #expect(TrainingConfiguration.reservedSources(parsing: "airline,") == nil)
        #expect(
            TrainingConfiguration.sourceWeights(parsing: ["tweetEval=10", "vader=0.5"]) == [
                .tweetEval: 10, .vader: 0.5,
            ])
        #expect(TrainingConfiguration.sourceWeights(parsing: ["tweetEval"]) == nil)
        #expect(TrainingConfiguration.sourceWeights(parsing: ["nosuch=1"]) == nil)
    }
}
