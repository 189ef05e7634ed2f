import Foundation

/// One VADER lexicon entry (Hutto & Gilbert 2014): a token with the mean of
/// ten human valence ratings on −4 … 4.
public struct VaderLexiconEntry: Sendable, Equatable {
    /// The token (word, emoticon or acronym), as written; a few emoticons hold spaces (`( '}{' )`).
    public var token: String
    /// Mean valence, −4 … 4.
    public var meanValence: Double
    /// Standard deviation of the ratings (≥ 0).
    public var standardDeviation: Double
    /// The individual ratings, each −4 … 4.
    public var ratings: [Int]

    /// Creates an entry.
    public init(token: String, meanValence: Double, standardDeviation: Double, ratings: [Int]) {
        self.token = token
        self.meanValence = meanValence
        self.standardDeviation = standardDeviation
        self.ratings = ratings
    }
}

/// One VADER emoji lexicon entry: an emoji sequence and its English description.
public struct EmojiLexiconEntry: Sendable, Equatable {
    /// The emoji (one or more Unicode scalars).
    public var emoji: String
    /// Its description, e.g. `face with tears of joy`.
    public var description: String

    /// Creates an entry.
    public init(emoji: String, description: String) {
        self.emoji = emoji
        self.description = description
    }
}

/// One AFINN entry (Nielsen 2011): a term, possibly several words, and an integer valence −5 … 5.
public struct AFINNEntry: Sendable, Equatable {
    /// The term (may contain spaces, e.g. `bad luck`).
    public var term: String
    /// Integer valence, −5 … 5.
    public var valence: Int

    /// Creates an entry.
    public init(term: String, valence: Int) {
        self.term = term
        self.valence = valence
    }
}

/// Loaders of the VADER lexicon, the VADER emoji lexicon and the AFINN lists.
public enum LexiconLoaders {
    /// Parses `vader_lexicon.txt`: `token TAB mean TAB sd TAB [ratings]`.
    public static func parseVader(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<VaderLexiconEntry>
    {
        try TabSeparatedLines.load(bytes, file: file, policy: policy, expectedFields: 4) {
            (line: TextLine, f: [Substring]) throws(DataError) -> VaderLexiconEntry in
            let n = line.number
            let token = String(f[0])
            guard !token.allSatisfy(\.isWhitespace) else {
                throw .invalidField(file: file, line: n, field: "token", value: token, reason: "token is empty")
            }
            let mean = try FieldParser.double(String(f[1]), field: "mean", in: -4...4, file: file, line: n)
            let sd = try FieldParser.double(String(f[2]), field: "sd", in: 0...8, file: file, line: n)
            let ratings = try TabSeparatedLines.intList(f[3], field: "ratings", in: -4...4, file: file, line: n)
            return VaderLexiconEntry(token: token, meanValence: mean, standardDeviation: sd, ratings: ratings)
        }
    }

    /// Parses `emoji_utf8_lexicon.txt`: `emoji TAB description`; the emoji must
    /// hold no ASCII letters or spaces and the description must not be blank.
    public static func parseEmoji(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<EmojiLexiconEntry>
    {
        try TabSeparatedLines.load(bytes, file: file, policy: policy, expectedFields: 2) {
            (line: TextLine, f: [Substring]) throws(DataError) -> EmojiLexiconEntry in
            let emoji = String(f[0])
            guard !emoji.isEmpty,
                !emoji.unicodeScalars.contains(where: { $0.isASCII && ($0 == " " || $0.properties.isAlphabetic) })
            else {
                throw .invalidField(
                    file: file, line: line.number, field: "emoji", value: emoji, reason: "expected an emoji sequence")
            }
            let description = String(f[1]).trimmingCharacters(in: .whitespaces)
            guard !description.isEmpty else {
                throw .invalidField(
                    file: file, line: line.number, field: "description", value: "", reason: "description is missing")
            }
            return EmojiLexiconEntry(emoji: emoji, description: description)
        }
    }

    /// Parses an AFINN list: `term TAB valence`, valence an integer −5 … 5.
    public static func parseAFINN(_ bytes: [UInt8], file: String, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<AFINNEntry>
    {
        try TabSeparatedLines.load(bytes, file: file, policy: policy, expectedFields: 2) {
            (line: TextLine, f: [Substring]) throws(DataError) -> AFINNEntry in
            let term = String(f[0])
            guard !term.allSatisfy(\.isWhitespace) else {
                throw .invalidField(file: file, line: line.number, field: "term", value: term, reason: "term is empty")
            }
            let v = try FieldParser.int(String(f[1]), field: "valence", in: -5...5, file: file, line: line.number)
            return AFINNEntry(term: term, valence: v)
        }
    }

    /// Loads a VADER lexicon file.
    public static func loadVader(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<VaderLexiconEntry>
    {
        let name = displayName ?? url.path
        return try parseVader(try readFileBytes(url, displayName: name), file: name, policy: policy)
    }

    /// Loads an emoji lexicon file.
    public static func loadEmoji(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<EmojiLexiconEntry>
    {
        let name = displayName ?? url.path
        return try parseEmoji(try readFileBytes(url, displayName: name), file: name, policy: policy)
    }

    /// Loads an AFINN file.
    public static func loadAFINN(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<AFINNEntry>
    {
        let name = displayName ?? url.path
        return try parseAFINN(try readFileBytes(url, displayName: name), file: name, policy: policy)
    }
}
