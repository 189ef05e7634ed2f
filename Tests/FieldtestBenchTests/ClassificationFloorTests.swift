import Foundation
import Testing

@testable import FieldtestBench

/// The floor kernel that `bench classify` times beside the scorer: its eight-bytes-at-a-time
/// word scan must find the words a byte-by-byte reading finds, and its checksum must be
/// a pure function of the input.
@Suite("Classification floor kernel")
struct ClassificationFloorTests {
    static let texts = [
        "", " ", "a", "Hello, WORLD!! it's 2day", "abcdefgh", "abcdefghi", "abcdefghijklmnopq rstuvwxy z",
        "  leading and trailing  ", "x,y;z", "Café ÜBER naïve résumé 日本語 ok", "@user #tag http://t.co/abc :-) <3",
        "\u{7F}\u{80}a\u{FF}b", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "1,000 3.5 10:30 8am",
    ]

    @Test func wordsAreLowerCasedLettersAndDigits() {
        #expect(ClassificationFloor.words("Hello, WORLD!! it's 2day") == ["hello", "world", "it", "s", "2day"])
        #expect(ClassificationFloor.words("Café x") == ["caf", "x"])
        #expect(ClassificationFloor.words("") == [])
    }

    @Test(arguments: texts)
    func scanFindsTheSameWords(_ text: String) {
        var kernel = ClassificationFloor(bigrams: true)
        #expect(kernel.run([text]).words == ClassificationFloor.words(text).count)
        var compact = ClassificationFloor(bigrams: true, layout: .compact)
        #expect(compact.run([text]).words == ClassificationFloor.words(text).count)
    }

    @Test func scanFindsTheSameWordsOnBundledTweets() throws {
        let lines = try String(
            contentsOf: BenchCLITests.datasets.appendingPathComponent("tweets/sentiment140_positive.txt"),
            encoding: .utf8
        )
        .split(separator: "\n").prefix(5_000).map(String.init)
        var kernel = ClassificationFloor(bigrams: false)
        let expected = lines.reduce(0) { $0 + ClassificationFloor.words($1).count }
        #expect(expected > 50_000)
        #expect(kernel.run(lines).words == expected)
    }

    @Test func checksumIsDeterministicAndBigramsCount() {
        let tweets = Self.texts + Self.texts
        var a = ClassificationFloor(bigrams: true)
        var b = ClassificationFloor(bigrams: true)
        var c = ClassificationFloor(bigrams: false)
        let ra = a.run(tweets)
        let rb = b.run(tweets)
        let rc = c.run(tweets)
        #expect(ra.checksum == rb.checksum)
        #expect(ra.words == rc.words)
        #expect(ra.checksum != rc.checksum)
        // A second pass over the same tweets (every word now in the table) gives the same scores.
        #expect(a.run(tweets).checksum == ra.checksum)
    }

    @Test func compactLayoutIsDeterministicAndCountsBigrams() {
        let tweets = Self.texts + Self.texts
        var a = ClassificationFloor(bigrams: true, layout: .compact)
        var b = ClassificationFloor(bigrams: true, layout: .compact)
        var c = ClassificationFloor(bigrams: false, layout: .compact)
        var wide = ClassificationFloor(bigrams: true)
        let ra = a.run(tweets)
        let rc = c.run(tweets)
        let rw = wide.run(tweets)
        #expect(ra.checksum == b.run(tweets).checksum)
        #expect(ra.words == rc.words && ra.words == rw.words)
        #expect(ra.checksum != rc.checksum)
        #expect(ra.checksum != rw.checksum)
        #expect(a.run(tweets).checksum == ra.checksum)
        // Every score is a difference of two probabilities.
        #expect(abs(ra.checksum) <= Double(tweets.count))
    }
}
