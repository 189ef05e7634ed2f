/// A located problem in a scenario file, rendered compiler-style:
/// `Scenarios/x.yaml:12:5: error: unknown key 'sensrs' (did you mean 'sensors'?)`.
public struct ScenarioDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as given by the user.
    public var file: String
    /// 1-based line (0 when unknown).
    public var line: Int
    /// 1-based column (0 when unknown).
    public var column: Int
    /// What is wrong and how to fix it.
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(file):\(line):\(column): error: \(message)" : "\(file): error: \(message)"
    }
}

/// Every problem found in one scenario file (at least one).
public struct ScenarioErrors: Error, Sendable, Equatable, CustomStringConvertible {
    /// The diagnostics in file order.
    public var diagnostics: [ScenarioDiagnostic]

    public init(_ diagnostics: [ScenarioDiagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Edit distance used for "did you mean" suggestions.
enum Suggest {
    /// The candidate closest to `word` within a distance of max(2, word.count/3), if any.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        var best: (String, Int)?
        for c in candidates {
            let d = distance(word.lowercased(), c.lowercased())
            if d <= limit, best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// Optimal-string-alignment Damerau–Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// " (did you mean 'x'?)" or "".
    static func hint(_ word: String, _ candidates: [String]) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
