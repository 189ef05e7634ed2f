/// Why a system under test could not be used at all. Faults of a running system are
/// results (`SystemFaults`), not errors; these stop the run (exit 2) and say what to fix.
public enum SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A `--system` option or a scenario's `systems:` entry is malformed.
    case usage(String)
    /// The command could not be started (not found, not executable).
    case launch(command: [String], reason: String)
    /// The system did not answer the handshake as the protocol asks.
    case handshake(command: [String], reason: String, stderr: String)
    /// The system refused or failed a setup (`load`) message.
    case setup(command: [String], reason: String, stderr: String)

    /// The message: what went wrong and how to fix it.
    public var description: String {
        switch self {
        case .usage(let message):
            return "error: \(message)"
        case let .launch(command, reason):
            return "error: system '\(Self.shell(command))' could not be started: \(reason); "
                + "check the command's path and that it is executable"
        case let .handshake(command, reason, stderr):
            return "error: system '\(Self.shell(command))' failed the handshake: \(reason); it must answer "
                + #"{"op":"hello",…} with one line {"ok":true,"name":…,"version":…} (docs/system-protocol.md)"#
                + Self.tail(stderr)
        case let .setup(command, reason, stderr):
            return "error: system '\(Self.shell(command))' failed its setup: \(reason)" + Self.tail(stderr)
        }
    }

    /// A command as one would type it (arguments with spaces quoted).
    public static func shell(_ command: [String]) -> String {
        command.map { $0.contains(" ") || $0.isEmpty ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    static func tail(_ stderr: String) -> String {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: true).suffix(5)
        return lines.isEmpty
            ? "" : "\nits standard error ended with:\n" + lines.map(TerminalSafety.escaped).joined(separator: "\n")
    }
}
