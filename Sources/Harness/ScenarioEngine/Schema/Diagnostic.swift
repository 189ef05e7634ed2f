import FieldtestData

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
    /// An error stops the scenario; a warning only informs (e.g. a time window partly outside a recording).
    public var severity: Severity

    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Equatable {
        case error, warning
    }

    public init(file: String, line: Int, column: Int, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.severity = severity
    }

    public var description: String {
        line > 0
            ? "\(file):\(line):\(column): \(severity.rawValue): \(message)"
            : "\(file): \(severity.rawValue): \(message)"
    }
}

/// Every problem found in one scenario file (at least one).
public struct ScenarioErrors: Error, Sendable, Equatable, CustomStringConvertible {
    /// The diagnostics in file order.
    public var diagnostics: [ScenarioDiagnostic]

    public init(_ diagnostics: [ScenarioDiagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// "Did you mean" hints from the closest known name (`DamerauLevenshtein.closest`).
enum Suggest {
    /// " (did you mean 'x'?)" or "".
    static func hint(_ word: String, _ candidates: [String]) -> String {
        DamerauLevenshtein.closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
