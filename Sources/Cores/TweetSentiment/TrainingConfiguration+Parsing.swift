import Foundation

extension TrainingConfiguration {
    /// Parses a list of sources (reserved, or read as positive-versus-negative only): `none`, or
    /// source names separated by commas (e.g. `airline,tweetEval`); nil when a name is not a
    /// `CorpusSource`.
    public static func reservedSources(parsing text: String) -> Set<CorpusSource>? {
        if text == "none" { return [] }
        var out: Set<CorpusSource> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let source = CorpusSource(rawValue: name.trimmingCharacters(in: .whitespaces)) else { return nil }
            out.insert(source)
        }
        return out
    }

    /// Parses `SOURCE=WEIGHT` pairs (e.g. `tweetEval=10`); nil when one is malformed. The
    /// weights' range is checked by `validate()`.
    public static func sourceWeights(parsing items: [String]) -> [CorpusSource: Double]? {
        var out: [CorpusSource: Double] = [:]
        for item in items {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let source = CorpusSource(rawValue: parts[0]), let w = Double(parts[1]) else {
                return nil
            }
            out[source] = w
        }
        return out
    }
}
