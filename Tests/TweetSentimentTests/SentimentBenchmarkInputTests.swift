import Testing

@testable import TweetSentiment

/// The benchmark input: the corpus texts cycled to a count, optionally from fewer,
/// evenly spaced texts, each one line.
@Suite("Sentiment benchmark input")
struct SentimentBenchmarkInputTests {
    static let corpus = TrainingCorpus(
        examples: (0..<10).map {
            TrainingExample(
                text: $0 == 3 ? "three\r\nlines\nhere" : "tweet \($0)", label: .positive, source: .sentiment140)
        })

    @Test func cyclesEveryTextInOrderOnOneLine() {
        let input = SentimentBenchmarkInput.replicate(Self.corpus, count: 23)
        #expect(input.count == 23)
        #expect(input[0] == "tweet 0")
        #expect(input[3] == "three  lines here")
        #expect(input[9] == "tweet 9")
        #expect(input[10] == "tweet 0")
        #expect(input[22] == "tweet 2")
    }

    @Test func sourcesPicksEvenlySpacedDifferentTexts() {
        let input = SentimentBenchmarkInput.replicate(Self.corpus, count: 7, sources: 3)
        // Examples 0, 10/3 = 3 and 20/3 = 6, then again.
        #expect(
            input == ["tweet 0", "three  lines here", "tweet 6", "tweet 0", "three  lines here", "tweet 6", "tweet 0"])
        #expect(Set(SentimentBenchmarkInput.replicate(Self.corpus, count: 10, sources: 10)).count == 10)
    }

    @Test func sourcesBeyondTheCorpusUseItAllAndEmptyInputsGiveNothing() {
        #expect(
            SentimentBenchmarkInput.replicate(Self.corpus, count: 12, sources: 50)
                == SentimentBenchmarkInput.replicate(Self.corpus, count: 12))
        #expect(SentimentBenchmarkInput.replicate(Self.corpus, count: 5, sources: 0).isEmpty)
        #expect(SentimentBenchmarkInput.replicate(TrainingCorpus(), count: 5).isEmpty)
        #expect(SentimentBenchmarkInput.replicate(Self.corpus, count: -1).isEmpty)
    }
}
