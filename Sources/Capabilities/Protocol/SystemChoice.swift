import FieldtestData
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
    /// spaces (quote an argument with spaces with '…' or "…"); `timeoutSeconds` must be longer
    /// than zero and at most a day.
    public static func parse(command text: String, timeoutSeconds: Double = ExternalSystemSpec.defaultTimeout)
        throws(SystemError) -> SystemChoice
    {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "builtin" { return .builtin }
        if trimmed.isEmpty { throw .usage("--system needs a command after '=', or 'builtin'") }
        if let problem = SystemSetting.timeoutProblem(timeoutSeconds) {
            throw .usage("the timeout \(timeoutSeconds) s \(problem)")
        }
        let words = try splitCommand(trimmed)
        return .external(ExternalSystemSpec(command: words, timeoutSeconds: timeoutSeconds))
    }

    /// Parses `--system CAPABILITY=COMMAND`, CAPABILITY one of `registry`'s.
    public static func parseOption(_ text: String, registry: CapabilityRegistry = .bundled) throws(SystemError) -> (
        SystemCapability, SystemChoice
    ) {
        guard let eq = text.firstIndex(of: "=") else {
            throw .usage("--system '\(text)': expected CAPABILITY=COMMAND, e.g. sentiment='python3 my.py'")
        }
        let capability = try SystemCapability.named(String(text[..<eq]), in: registry)
        return (capability, try parse(command: String(text[text.index(after: eq)...])))
    }

    /// Splits a command line at unquoted spaces; '…' and "…" group words (`SystemSetting.words`).
    static func splitCommand(_ text: String) throws(SystemError) -> [String] {
        do { return try SystemSetting.words(of: text) } catch { throw .usage("--system: \(error.message)") }
    }
}

/// How to start and supervise an external system.
public struct ExternalSystemSpec: Sendable, Equatable, Codable {
    /// Seconds to wait for one answer when a scenario does not say.
    public static let defaultTimeout = 10.0
    /// Restarts after crashes when a scenario does not say.
    public static let defaultRestartLimit = 3
    /// The longest timeout, in seconds (one day); a longer one is clamped to it.
    public static let maximumTimeoutSeconds = SystemSetting.maximumTimeoutSeconds
    /// The longest answer line when none is given, in bytes: 16 MiB.
    public static let defaultMaxLineBytes = SystemSetting.defaultMaxLineBytes
    /// The line limits a setting or option may give, in bytes.
    public static let maxLineBytesRange = SystemSetting.maxLineBytesRange

    /// Why `seconds` is not a usable timeout (nil when it is): more than 0, at most a day.
    public static func timeoutProblem(_ seconds: Double) -> String? { SystemSetting.timeoutProblem(seconds) }

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
    /// The longest answer line, in bytes; a longer one is a `malformed` fault and the system is
    /// restarted (16 MiB unless set).
    public var maxLineBytes = defaultMaxLineBytes

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
    /// malformed option or a capability `registry` does not know.
    public static func parse(_ options: [String], registry: CapabilityRegistry = .bundled) throws(SystemError)
        -> [String:
        SystemSetting?]
    {
        var out: [String: SystemSetting?] = [:]
        for option in options {
            let (capability, choice) = try SystemChoice.parseOption(option, registry: registry)
            switch choice {
            case .builtin: out[capability.name] = .some(nil)
            case .external(let spec): out[capability.name] = SystemSetting(command: spec.command)
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

    /// The entries of `compare`'s `--candidate NAME=COMMAND` options, checked: at least one, each NAME
    /// non-empty, printable (no control or bidirectional characters: it becomes a column name on a
    /// terminal and in the CSV) and different from the others.
    /// - Throws: `SystemError.usage` saying which option is wrong.
    public static func parse(options: [String], capability: String) throws(SystemError) -> [Self] {
        guard !options.isEmpty else {
            throw .usage(
                "compare needs the systems to compare: --candidate NAME=COMMAND, once per system (NAME=builtin for the built-in core)"
            )
        }
        var entries: [Self] = []
        for option in options {
            let entry = try Self(option: option, capability: capability)
            if entry.name.trimmingCharacters(in: .whitespaces).isEmpty {
                throw .usage("--candidate '\(TerminalSafety.escaped(option))': NAME is empty; give NAME=COMMAND")
            }
            if let bad = TerminalSafety.unsafeScalar(in: entry.name) {
                throw .usage(
                    "--candidate '\(TerminalSafety.escaped(option))': NAME holds the control character "
                        + "\(TerminalSafety.describe(bad)); use printable text")
            }
            if entries.contains(where: { $0.name == entry.name }) {
                throw .usage("--candidate NAME '\(entry.name)' is given twice; give each system a different NAME")
            }
            entries.append(entry)
        }
        return entries
    }

    /// The entry of one `compare --candidate NAME=COMMAND` option as given.
    /// - Throws: `SystemError.usage` for an option without `=`, an empty command or unbalanced quotes.
    public init(option: String, capability: String) throws(SystemError) {
        guard let eq = option.firstIndex(of: "=") else {
            throw .usage("--candidate takes NAME=COMMAND, not '\(TerminalSafety.escaped(option))'")
        }
        try self.init(
            name: String(option[..<eq]), capability: capability, command: String(option[option.index(after: eq)...]))
    }
}

extension CommandFiles {
    /// Adds the system command `text` (`--system` or `--candidate` value, `CAPABILITY=` or `NAME=COMMAND`
    /// with `splitAtEquals`) as `systemCommand` reads it; `builtin` and an unparsable value add
    /// nothing (the command reports those itself).
    public mutating func system(_ text: String, option: String = "--system", splitAtEquals: Bool = false) {
        var command = text
        if splitAtEquals, let eq = text.firstIndex(of: "=") { command = String(text[text.index(after: eq)...]) }
        guard case .external(let spec)? = try? SystemChoice.parse(command: command) else { return }
        systemCommand(spec.command, option: option)
    }
}

extension SystemComparison {
    /// `fieldtest compare`'s usage, checked before anything runs: the capability named, no run-style
    /// `--system` (`system`: its values), the `--candidate` entries (`Entry.parse`), and with
    /// `keepsFolders` (`--out`) their folder names (`checkFolderNames`).
    /// - Returns: nil, or what is wrong and what to do, without an `error:` prefix (the caller's usage
    ///   error adds one).
    public static func usageProblem(
        capability: String, candidates: [String], system: [String], keepsFolders: Bool
    ) -> String? {
        do {
            let capability = try SystemCapability.named(capability).name
            guard system.isEmpty else {
                return
                    "compare takes --candidate NAME=COMMAND, once per system; --system (CAPABILITY=COMMAND) is run's option"
            }
            let entries = try Entry.parse(options: candidates, capability: capability)
            if keepsFolders { try checkFolderNames(entries) }
            return nil
        } catch let error as SystemError {
            if case .usage(let message) = error { return message }
            return error.description
        } catch let error as UsageError {
            return error.message
        } catch {
            return String(describing: error)
        }
    }
}
