import Testing

@testable import TweetSentiment

@Suite("Game difficulty")
struct GameDifficultyTests {
    @Test func difficultyIsMonotone() {
        var last = Double.infinity
        var lastPoints = -Double.infinity
        for k in -10...10 {
            let d = GameDifficulty.difficulty(netPolarity: Double(k) / 10)
            let p = GameDifficulty.pointsMultiplier(netPolarity: Double(k) / 10)
            #expect(d < last)
            #expect(p > lastPoints)
            #expect((1...2).contains(d))
            last = d
            lastPoints = p
        }
        // Tolerance 1e-12: exact binary fractions.
        #expect(abs(GameDifficulty.difficulty(netPolarity: -1) - 2) < 1e-12)
        #expect(abs(GameDifficulty.difficulty(netPolarity: 0.5) - 1.25) < 1e-12)
        #expect(abs(GameDifficulty.pointsMultiplier(netPolarity: 1) - 2) < 1e-12)
        #expect(abs(GameDifficulty.difficulty(netPolarity: 7) - 1) < 1e-12)
        #expect(abs(GameDifficulty.difficulty(netPolarity: .nan) - 1.5) < 1e-12)
    }

    @Test func followsTheMoodReading() {
        // 6 positive, 2 neutral, 2 negative: net polarity 0.4 → difficulty 1.3, points × 1.7.
        let r = MoodReading(counts: [2, 2, 6], scoreSum: 0)
        #expect(abs(GameDifficulty.difficulty(for: r) - 1.3) < 1e-12)
        #expect(abs(GameDifficulty.pointsMultiplier(netPolarity: r.netPolarity) - 1.7) < 1e-12)
    }
}
