import Foundation
import Testing

@testable import FieldtestData

private func fixture(_ name: String) throws -> URL {
    let base = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return base.appendingPathComponent("tweets").appendingPathComponent(name)
}

@Suite("Lexicon loaders")
struct LexiconLoadersTests {
    @Test func vaderLexicon() throws {
        let loaded = try LexiconLoaders.loadVader(url: fixture("vader_lexicon.txt"))
        #expect(loaded.records.map(\.token) == [":)", "good", "horrible"])
        #expect(abs(loaded.records[2].meanValence - -2.5) < 1e-12)
        #expect(loaded.records[0].ratings.count == 10)
    }

    @Test func vaderValenceOutOfRange() throws {
        #expect(
            throws: DataError.invalidField(file: "v.txt", line: 1, field: "mean", value: "9.5", reason: "outside -4…4")
        ) {
            try LexiconLoaders.loadVader(url: fixture("vader_lexicon_bad.txt"), displayName: "v.txt")
        }
    }

    @Test func emojiLexicon() throws {
        let loaded = try LexiconLoaders.loadEmoji(url: fixture("emoji_lexicon.txt"))
        #expect(loaded.records.map(\.description) == ["grinning face", "face with tears of joy", "red heart"])
        #expect(loaded.records[2].emoji == "❤️")
    }

    @Test func afinnTermsMayHoldSpaces() throws {
        let loaded = try LexiconLoaders.loadAFINN(url: fixture("afinn.txt"))
        #expect(loaded.records.map(\.term) == ["abandon", "bad luck", "best damn", "breathtaking"])
        #expect(loaded.records.map(\.valence) == [-2, -2, 4, 5])
    }

    @Test func afinnValenceOutOfRange() throws {
        #expect(
            throws: DataError.invalidField(file: "a.txt", line: 2, field: "valence", value: "6", reason: "outside -5…5")
        ) {
            try LexiconLoaders.loadAFINN(url: fixture("afinn_bad.txt"), displayName: "a.txt")
        }
        let lenient = try LexiconLoaders.loadAFINN(
            url: fixture("afinn_bad.txt"), displayName: "a.txt", policy: .lenient)
        #expect(lenient.records.map(\.term) == ["abandon", "fine"])
        #expect(lenient.report.rowsSkipped == 1)
    }
}
