import Foundation

/// One tweet of the VADER ground truth (Hutto & Gilbert 2014): its ID, the mean
/// of ≥ 20 human ratings on −4 (extremely negative) … +4 (extremely positive), and the text.
public struct VaderTweet: Sendable, Equatable {
    /// Tweet ID (row number of the original file).
    public var id: Int
    /// Mean human sentiment rating, −4 … 4.
    public var meanRating: Double
    /// Tweet text (entities not decoded).
    public var text: String
    /// 1-based line in the file.
    public var line: Int

    /// Creates a tweet.
    public init(id: Int, meanRating: Double, text: String, line: Int) {
        self.id = id
        self.meanRating = meanRating
        self.text = text
        self.line = line
    }

    /// The mapping of mean ratings to classes used by Fieldtest:
    /// `mean ≤ −threshold` → negative, `mean ≥ threshold` → positive, else
    /// neutral. The default threshold 0.5 (one eighth of the half-scale) puts
    /// 623 of the 3,360 development tweets in neutral.
    public func label(neutralThreshold: Double = VaderTweet.neutralThreshold) -> SentimentLabel {
        if meanRating >= neutralThreshold { return .positive }
        if meanRating <= -neutralThreshold { return .negative }
        return .neutral
    }

    /// Default |mean| below which a tweet counts as neutral.
    public static let neutralThreshold = 0.5
}

/// One row of the VADER individual ratings file.
public struct VaderRating: Sendable, Equatable {
    /// Tweet ID, matching `VaderTweet.id`.
    public var id: Int
    /// Mean rating, −4 … 4.
    public var mean: Double
    /// Standard deviation of the ratings (≥ 0).
    public var standardDeviation: Double
    /// The individual integer ratings, each −4 … 4.
    public var ratings: [Int]
    /// 1-based line in the file.
    public var line: Int
}

/// Loaders of `tweets_GroundTruth.txt` (`id TAB mean TAB text`) and
/// `tweets_anonDataRatings.txt` (`id TAB mean TAB sd TAB [ratings]`), CRLF or LF.
public enum VaderTweetsLoader {
    /// Parses ground-truth bytes; IDs must be positive and unique.
    public static func parseGroundTruth(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<VaderTweet>
    {
        var seen = Set<Int>()
        return try TabSeparatedLines.load(bytes, file: file, policy: policy, expectedFields: 3) {
            (line: TextLine, f: [Substring]) throws(DataError) -> VaderTweet in
            let id = try FieldParser.int(String(f[0]), field: "id", in: 1...Int.max, file: file, line: line.number)
            let mean = try FieldParser.double(String(f[1]), field: "mean", in: -4...4, file: file, line: line.number)
            let text = String(f[2])
            guard !text.allSatisfy(\.isWhitespace) else {
                throw .invalidField(
                    file: file, line: line.number, field: "text", value: text, reason: "tweet text is empty")
            }
            guard seen.insert(id).inserted else {
                throw .invalidField(
                    file: file, line: line.number, field: "id", value: String(id), reason: "duplicate ID")
            }
            return VaderTweet(id: id, meanRating: mean, text: text, line: line.number)
        }
    }

    /// Parses ratings bytes; the stated mean must equal the mean of the listed
    /// ratings within 0.001 and there must be at least one rating.
    public static func parseRatings(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<VaderRating>
    {
        try TabSeparatedLines.load(bytes, file: file, policy: policy, expectedFields: 4) {
            (line: TextLine, f: [Substring]) throws(DataError) -> VaderRating in
            let n = line.number
            let id = try FieldParser.int(String(f[0]), field: "id", in: 1...Int.max, file: file, line: n)
            let mean = try FieldParser.double(String(f[1]), field: "mean", in: -4...4, file: file, line: n)
            let sd = try FieldParser.double(String(f[2]), field: "sd", in: 0...8, file: file, line: n)
            let ratings = try TabSeparatedLines.intList(f[3], field: "ratings", in: -4...4, file: file, line: n)
            guard !ratings.isEmpty else {
                throw .invalidField(
                    file: file, line: n, field: "ratings", value: String(f[3]), reason: "no ratings listed")
            }
            let listMean = Double(ratings.reduce(0, +)) / Double(ratings.count)
            guard abs(listMean - mean) <= 0.001 else {
                throw .invalidField(
                    file: file, line: n, field: "mean", value: String(f[1]),
                    reason: "differs from the mean of the listed ratings (\(listMean))")
            }
            return VaderRating(id: id, mean: mean, standardDeviation: sd, ratings: ratings, line: n)
        }
    }

    /// Loads a ground-truth file.
    public static func loadGroundTruth(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict)
        throws(DataError) -> Loaded<VaderTweet>
    {
        let name = displayName ?? url.path
        return try parseGroundTruth(try readFileBytes(url, displayName: name), file: name, policy: policy)
    }

    /// Loads a ratings file.
    public static func loadRatings(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<VaderRating>
    {
        let name = displayName ?? url.path
        return try parseRatings(try readFileBytes(url, displayName: name), file: name, policy: policy)
    }
}
