import FieldtestData

/// Token valences from the VADER lexicon (Hutto & Gilbert 2014, −4 … 4), the
/// VADER emoji lexicon (emoji → description, scored with VADER word valences)
/// and an AFINN list (Nielsen 2011, −5 … 5, single words and two-word phrases).
///
/// Keys are matched against `TweetTokenizer` output: words lower-cased with
/// elongations shortened, emoticons as written, emoji without variation selectors.
public struct SentimentLexicon: Sendable, Equatable {
    /// VADER valence of single tokens (words, emoticons, emoji), −4 … 4.
    public var vader: [String: Double]
    /// AFINN valence of single tokens, −5 … 5.
    public var afinn: [String: Double]
    /// AFINN valence of two-token phrases keyed `first second` (e.g. `bad luck`), −5 … 5.
    public var afinnPhrases: [String: Double]

    /// Creates a lexicon from tables.
    public init(vader: [String: Double], afinn: [String: Double], afinnPhrases: [String: Double]) {
        self.vader = vader
        self.afinn = afinn
        self.afinnPhrases = afinnPhrases
    }

    /// An empty lexicon (no lexicon features fire).
    public static let empty = SentimentLexicon(vader: [:], afinn: [:], afinnPhrases: [:])

    /// Builds the lexicon from loaded entries. Emoji get the VADER valence sum of
    /// their description's words, clipped to −4 … 4 (as VADER translates emoji to
    /// words before scoring). AFINN terms of three or more words are dropped (their
    /// words still count singly). Later AFINN lists override earlier ones.
    public init(vader vaderEntries: [VaderLexiconEntry], emoji: [EmojiLexiconEntry], afinn afinnLists: [[AFINNEntry]]) {
        let tokenizer = TweetTokenizer(marksNegation: false)
        var vader: [String: Double] = [:]
        for e in vaderEntries {
            let key = Self.key(for: e.token, tokenizer: tokenizer)
            vader[key] = e.meanValence
        }
        for e in emoji {
            let scalars = e.emoji.unicodeScalars.filter { $0.value != 0xFE0F && $0.value != 0xFE0E }
            let key = String(String.UnicodeScalarView(scalars))
            let words = e.description.lowercased().split(separator: " ")
            let sum = words.reduce(0.0) { $0 + (vader[String($1)] ?? 0) }
            if sum != 0, vader[key] == nil { vader[key] = max(-4, min(4, sum)) }
        }
        var afinn: [String: Double] = [:]
        var phrases: [String: Double] = [:]
        for list in afinnLists {
            for e in list {
                let tokens = tokenizer.tokenize(e.term)
                if tokens.count == 1, let t = tokens.first {
                    afinn[t] = Double(e.valence)
                } else if tokens.count == 2 {
                    phrases[tokens[0] + " " + tokens[1]] = Double(e.valence)
                }
            }
        }
        self.init(vader: vader, afinn: afinn, afinnPhrases: phrases)
    }

    /// The lookup key of a lexicon token: a lone emoticon or emoji stays as
    /// written; a word goes through the tokenizer's normalisation.
    static func key(for token: String, tokenizer: TweetTokenizer) -> String {
        let tokens = tokenizer.tokenize(token)
        if tokens.count == 1, let t = tokens.first, !t.hasPrefix("<") || t == "<3" { return t }
        return token
    }
}
