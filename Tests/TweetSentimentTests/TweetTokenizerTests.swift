import FieldtestData
import Testing

@testable import TweetSentiment

@Suite("Tweet tokenizer")
struct TweetTokenizerTests {
    let tokenizer = TweetTokenizer()

    @Test(arguments: [
        ("Hello WORLD", ["hello", "world"]),
        ("see http://t.co/abc and www.example.com/x", ["see", "<url>", "and", "<url>"]),
        ("HTTPS://X.CO/Y ok", ["<url>", "ok"]),
        ("@bob_1 hi @Alice", ["<user>", "hi", "<user>"]),
        ("mail me a@b", ["mail", "me", "a", "b"]),
        ("at 10:30 paid 3.5 or 1,000 for 2", ["at", "<num>", "paid", "<num>", "or", "<num>", "for", "<num>"]),
        ("8am flight", ["8am", "flight"]),
        ("#happy #so_tired #NotHappy", ["happy", "so", "tired", "not", "not_happy"]),
        ("soooo goooood", ["soo", "good"]),
        ("cool", ["cool"]),
        ("not good. but fine", ["not", "not_good", "but", "fine"]),
        ("I don't like it, at all", ["i", "don't", "not_like", "not_it", "at", "all"]),
        ("don’t care", ["don't", "not_care"]),
        ("never again! yes", ["never", "not_again", "!", "yes"]),
        ("cant wait :) really", ["cant", "not_wait", ":)", "not_really"]),
        ("great!!! really??", ["great", "!", "really", "?"]),
        ("&amp; &lt;3 &quot;hi&quot;", ["<3"] + ["hi"]),
        ("fun :-))) and :( and ;D", ["fun", ":-)", "and", ":(", "and", ";D"]),
        ("thanks:) (: ok", ["thanks", ":)", "(:", "ok"]),
        ("(max) see above): fine", ["max", "see", "above", "fine"]),
        (":Danny", ["danny"]),
        ("love it 😍😍", ["love", "it", "😍", "😍"]),
        ("👍🏽 🇺🇸 ❤️ 👨‍👩‍👧", ["👍🏽", "🇺🇸", "❤", "👨‍👩‍👧"]),
        ("Café ÜBER", ["café", "über"]),
        // A URL leaves trailing punctuation to the text, so it still ends a negation scope or makes a token.
        ("not http://a.com, good", ["not", "<url>", "good"]),
        ("no www.x.org. fine", ["no", "<url>", "fine"]),
        ("see http://a.co/b?! wow", ["see", "<url>", "?", "!", "wow"]),
        ("(at http://a.com/x) nice", ["at", "<url>", "nice"]),
        ("read http://w.org/Rome_(city) now", ["read", "<url>", "now"]),
        ("ok http://a.com:) yes", ["ok", "<url>", ":)", "yes"]),
        ("not http://... good", ["not", "<url>", "good"]),
        // Repeated letter mouths collapse like other mouths.
        ("haha :DDD and xDDD :-PP", ["haha", ":D", "and", "xD", ":-P"]),
        ("love <333 u", ["love", "<3", "u"]),
        (":DDear", ["ddear"]),
        // Keycaps are emoji tokens; variation selectors never stay in a word.
        ("top 1️⃣ #️⃣ 3⃣ x", ["top", "1\u{20E3}", "#\u{20E3}", "3\u{20E3}", "x"]),
        ("fine\u{FE0F} ©️ © ok", ["fine", "©", "ok"]),
        ("\u{FE0F}", []),
        ("", []),
        ("   \n\t ", []),
    ])
    func tokenizes(text: String, expected: [String]) {
        #expect(tokenizer.tokenize(text) == expected)
    }

    @Test func negationMarkingCanBeTurnedOff() {
        #expect(TweetTokenizer(marksNegation: false).tokenize("not good") == ["not", "good"])
    }

    @Test func invalidUTF8BytesAreSafe() {
        let bytes: [UInt8] = [0x67, 0x6F, 0x6F, 0x64, 0x20, 0xFF, 0xFE, 0x20, 0xC3, 0x28, 0x20, 0x6F, 0x6B]
        #expect(tokenizer.tokenize(bytes: bytes) == ["good", "ok"])
    }

    @Test func arbitraryScalarsNeverTrap() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<40, using: &rng) {
                let v = UInt32.random(in: 0..<0x1_0000, using: &rng)
                if let c = Unicode.Scalar(v) { s.append(c) }
                if Bool.random(using: &rng), let c = Unicode.Scalar(UInt32.random(in: 0x1F300..<0x1FAFF, using: &rng)) {
                    s.append(c)
                }
            }
            _ = tokenizer.tokenize(String(s))
        }
    }
}

@Suite("HTML entities")
struct HTMLEntitiesTests {
    @Test(arguments: [
        ("a &amp; b", "a & b"), ("&lt;3", "<3"), ("&#39;x&#x27;", "'x'"), ("&amp;amp;", "&amp;"),
        ("&bogus; & &#xZZ;", "&bogus; & &#xZZ;"), ("&#128512;", "😀"), ("&#0;", "&#0;"),
        ("é&amp;ü &hearts;", "é&ü ♥"), ("&abcdefghijkl;", "&abcdefghijkl;"), ("x&", "x&"),
    ])
    func decodes(input: String, expected: String) {
        #expect(HTMLEntities.decode(input) == expected)
        var bytes: [UInt8] = []
        Array(input.utf8).withUnsafeBufferPointer { HTMLEntities.decode($0, into: &bytes) }
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
}
