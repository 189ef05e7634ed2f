import FieldtestData
import Testing

@testable import TweetSentiment

func tweet(_ id: String, _ label: SentimentLabel, _ score: Double, at t: Double, _ text: String = "") -> ClassifiedTweet
{
    ClassifiedTweet(
        id: id, text: text, tokens: TweetTokenizer().tokenize(text), label: label, score: score, timeSeconds: t)
}

@Suite("City mood")
struct CityMoodTests {
    @Test func readingOverTheWindow() {
        var mood = CityMood(windowSeconds: 100)
        mood.update(with: [tweet("1", .positive, 0.8, at: 0), tweet("2", .negative, -0.6, at: 0)], at: 0)
        mood.update(with: [tweet("3", .positive, 0.4, at: 80), tweet("4", .neutral, 0, at: 80)], at: 80)
        var r = mood.reading
        #expect(r.label == .positive)
        #expect(r.counts == [1, 1, 2])
        // Tolerance 1e-12: small exact ratios.
        #expect(abs(r.confidence - 0.5) < 1e-12)
        #expect(abs(r.netPolarity - 0.25) < 1e-12)
        #expect(abs(r.meanScore - 0.15) < 1e-12)
        // At t = 100 the two tweets of t = 0 leave the window.
        mood.evict(at: 100)
        r = mood.reading
        #expect(r.counts == [0, 1, 1])
        #expect(r.label == .neutral)  // tie → neutral
        mood.evict(at: 500)
        #expect(mood.reading == MoodReading(counts: [0, 0, 0], scoreSum: 0))
        #expect(mood.reading.label == .neutral)
    }

    @Test func rollingWindowOverManyBatches() {
        // A batch of (negative, positive, positive) every 80 s for 50 batches, window 1 h.
        var mood = CityMood(windowSeconds: 3600)
        var evicted = 0
        for k in 0..<50 {
            let t = 80 * Double(k)
            let batch = [
                tweet("\(k)a", .negative, -0.5, at: t), tweet("\(k)b", .positive, 0.25, at: t),
                tweet("\(k)c", .positive, 0.75, at: t),
            ]
            evicted += mood.update(with: batch, at: t).count
        }
        // At t = 3920 s the window is (320, 3920]: batches 5 … 49 (45 batches); 0 … 4 left it.
        let r = mood.reading
        #expect(evicted == 15)
        #expect(mood.tweets.count == 135)
        #expect(r.counts == [45, 0, 90])
        #expect(r.label == .positive)
        // Tolerance 1e-12: ratios of small integers; the running score sum drifts by rounding only.
        #expect(abs(r.confidence - 2.0 / 3) < 1e-12)
        #expect(abs(r.netPolarity - 1.0 / 3) < 1e-12)
        #expect(abs(r.meanScore - 0.5 / 3) < 1e-12)
        // The same window rebuilt from scratch gives the same reading.
        var fresh = CityMood(windowSeconds: 3600)
        fresh.update(with: Array(mood.tweets), at: 3920)
        #expect(fresh.reading.counts == r.counts)
        #expect(fresh == mood)
    }

    @Test func outOfOrderBatchIsSortedAndEvicted() {
        var mood = CityMood(windowSeconds: 100)
        mood.update(with: [tweet("late", .positive, 1, at: 150)], at: 150)
        // A straggler classified at t = 40 is already outside (50, 150] and leaves at once.
        let gone = mood.update(
            with: [tweet("early", .negative, -1, at: 40), tweet("mid", .neutral, 0, at: 120)], at: 150)
        #expect(gone.map(\.id) == ["early"])
        #expect(mood.tweets.map(\.id) == ["mid", "late"])
        #expect(mood.reading.counts == [0, 1, 1])
    }

    @Test(arguments: [
        ([4, 4, 2], SentimentLabel.neutral, 0.4), ([3, 1, 3], .negative, 3.0 / 7), ([1, 2, 5], .positive, 0.625),
        ([0, 0, 0], .neutral, 0),
    ])
    func labelTiesAndConfidence(counts: [Int], label: SentimentLabel, confidence: Double) {
        let r = MoodReading(counts: counts, scoreSum: 0)
        #expect(r.label == label)
        // Tolerance 1e-12: small exact ratios.
        #expect(abs(r.confidence - confidence) < 1e-12)
    }
}
