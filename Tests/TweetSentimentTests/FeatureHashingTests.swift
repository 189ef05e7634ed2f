import Testing

@testable import TweetSentiment

@Suite("Feature hashing")
struct FeatureHashingTests {
    /// `token(padded:)` (one masked load for the last word) equals `token(_:)` (byte by byte) for every length
    /// around the eight-byte steps, whatever bytes follow the token.
    @Test func paddedAndPlainTokenHashesAgree() {
        let text: [UInt8] = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for garbage in [UInt8(0), 0x20, 0xFF] {
            let buffer = text + [UInt8](repeating: garbage, count: 8)
            buffer.withUnsafeBufferPointer { all in
                for length in 0...text.count {
                    let token = UnsafeBufferPointer(rebasing: all[0..<length])
                    #expect(FeatureHashing.token(padded: token) == FeatureHashing.token(token), "length \(length)")
                }
            }
        }
    }

    @Test func hashesSeparateWhatFeaturesMustSeparate() {
        // Trailing zero bytes, length, and order within a bigram all change the hash.
        #expect(FeatureHashing.token("a") != FeatureHashing.token("a\u{0}"))
        #expect(FeatureHashing.token("") != FeatureHashing.token("\u{0}"))
        #expect(FeatureHashing.token("abcdefgh") != FeatureHashing.token("abcdefgh\u{0}"))
        let good = FeatureHashing.token("good")
        let day = FeatureHashing.token("day")
        #expect(FeatureHashing.pair(good, day) != FeatureHashing.pair(day, good))
        #expect(FeatureHashing.pair(good, day) != day && FeatureHashing.pair(good, day) != good)
    }

    /// Values recorded from an independent implementation of the definition (Python, arbitrary-precision
    /// integers masked to 64 bits): the hashes are the same in every process and on every platform, so
    /// saved models keep their meaning.
    @Test func valuesMatchTheDefinition() {
        let good = FeatureHashing.token("good")
        #expect(good == 0x7842_812e_2289_e6b7)
        #expect(FeatureHashing.token("supercalifragilistic") == 0x70fd_c111_fd79_f60a)
        #expect(FeatureHashing.pair(good, FeatureHashing.token("day")) == 0x3e13_42b6_0b08_01ae)
    }

    /// The distinct tokens of a small vocabulary spread over 2^12 buckets about as a uniform hash would
    /// (no bucket holds more than a handful).
    @Test func bucketsSpreadEvenly() {
        var counts = [Int](repeating: 0, count: 1 << 12)
        for i in 0..<(1 << 12) {
            counts[FeatureHashing.bucket(FeatureHashing.token("w\(i)"), bits: 12)] += 1
        }
        // Poisson(1): P(≥ 9) ≈ 1e-6 per bucket.
        #expect(counts.max()! <= 8)
        // About e^-1 ≈ 36.8 % of buckets empty.
        let empty = Double(counts.filter { $0 == 0 }.count) / Double(counts.count)
        #expect(abs(empty - 0.368) < 0.03)
    }
}
