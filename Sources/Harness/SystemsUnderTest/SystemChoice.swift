import Foundation
import ScenarioEngine

/// Which implementation answers one capability in a run: the built-in core, or an external
/// process speaking the JSON Lines protocol.
public enum SystemChoice: Sendable, Equatable, CustomStringConvertible {
    /// The built-in core, in process.
    case builtin
    /// An external system.
    case external(ExternalSystemSpec)

    /// `builtin`, or the command.
    public var description: String {
        switch self {
        case .builtin: "builtin"
        case .external(let spec): SystemError.shell(spec.command)
        }
    }

    /// Parses one `--system` value's right-hand side: `builtin`, or a command line split at
    /// spaces (quote an argument with spaces with '…' or "…").
    public static func parse(command text: String, timeoutSeconds: Double = ExternalSystemSpec.defaultTimeout)
        throws(SystemError) -> SystemChoice
    {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "builtin" { return .builtin }
        let words = try splitCommand(trimmed)
        guard !words.isEmpty else { throw .usage("--system needs a command after '=', or 'builtin'") }
        return .external(ExternalSystemSpec(command: words, timeoutSeconds: timeoutSeconds))
    }

    /// Parses `--system CAPABILITY=COMMAND`.
    public static func parseOption(_ text: String) throws(SystemError) -> (SystemCapability, SystemChoice) {
        guard let eq = text.firstIndex(of: "=") else {
            throw .usage("--system '\(text)': expected CAPABILITY=COMMAND, e.g. sentiment='python3 my.py'")
        }
        let capability = try SystemCapability.named(String(text[..<eq]))
        return (capability, try parse(command: String(text[text.index(after: eq)...])))
    }

    /// Splits a command line at unquoted spaces; '…' and "…" group words.
    static func splitCommand(_ text: String) throws(SystemError) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for c in text {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if quote != nil { throw .usage("--system '\(text)': a quote is not closed") }
        if inWord { words.append(current) }
        return words
    }
}

/// How to start and supervise an external system.
public struct ExternalSystemSpec: Sendable, Equatable, Codable {
    /// Seconds to wait for one answer when a scenario does not say.
    public static let defaultTimeout = 10.0
    /// Restarts after crashes when a scenario does not say.
    public static let defaultRestartLimit = 3

    /// The program and its arguments; a program without `/` is looked up in `PATH`.
    public var command: [String]
    /// Seconds to wait for any one answer (handshake and setup included) before the process is killed.
    public var timeoutSeconds: Double
    /// How many times a crashed or hung process is started again in one run.
    public var restartLimit: Int
    /// The folder the process starts in (nil: the harness's).
    public var workingDirectory: String?
    /// Seconds the handshake and each setup message may take at least (start-up, loading).
    public var setupSeconds: Double = 30

    /// A spec.
    public init(
        command: [String], timeoutSeconds: Double = defaultTimeout, restartLimit: Int = defaultRestartLimit,
        workingDirectory: String? = nil
    ) {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
        self.restartLimit = restartLimit
        self.workingDirectory = workingDirectory
    }
}

/// `--system CAPABILITY=COMMAND` options as the scenario engine's settings.
public enum SystemSettings {
    /// The settings the options name by capability (nil: the built-in core); an error names a
    /// malformed option or an unknown capability.
    public static func parse(_ options: [String]) throws(SystemError) -> [String: SystemSetting?] {
        var out: [String: SystemSetting?] = [:]
        for option in options {
            let (capability, choice) = try SystemChoice.parseOption(option)
            switch choice {
            case .builtin: out[capability.rawValue] = .some(nil)
            case .external(let spec): out[capability.rawValue] = SystemSetting(command: spec.command)
            }
        }
        return out
    }
}

extension SystemComparison.Entry {
    /// The entry a `compare --system NAME=COMMAND` option names: `command` is `builtin` (the built-in
    /// core, a nil setting) or a command line (`SystemChoice.parse(command:)`).
    /// - Throws: `SystemError.usage` for an empty command or unbalanced quotes.
    public init(name: String, capability: String, command: String) throws(SystemError) {
        let setting: SystemSetting? =
            if case .external(let spec) = try SystemChoice.parse(command: command) {
                SystemSetting(command: spec.command)
            } else { nil }
        self.init(name: name, capability: capability, setting: setting)
    }

    /// The entry of one `compare --system NAME=COMMAND` option as given.
    /// - Throws: `SystemError.usage` for an option without `=`, an empty command or unbalanced quotes.
    public init(option: String, capability: String) throws(SystemError) {
        guard let eq = option.firstIndex(of: "=") else { throw .usage("--system takes NAME=COMMAND, not '\(option)'") }
        try self.init(
            name: String(option[..<eq]), capability: capability, command: String(option[option.index(after: eq)...]))
    }
}
