import Foundation

/// Swift systems under test in process: a package that depends on Fieldtest registers its own
/// conformance under a name, and a scenario chooses it with the command `in-process:<name>`
/// (`systems: {sentiment: {command: ["in-process:mine"]}}`) — no process, no protocol.
public enum InProcessSystems {
    /// The prefix of a command naming a registered system.
    public static let prefix = "in-process:"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var sentiment: [String: any SentimentSystem] = [:]

    /// Registers `system` as `name` for the `sentiment` capability (replacing one of that name).
    public static func register(sentiment system: any SentimentSystem, as name: String) {
        lock.lock()
        defer { lock.unlock() }
        sentiment[name] = system
    }

    /// The sentiment system a command names (`in-process:<name>`), if registered; nil for
    /// another command. An unregistered name is an error that lists the registered ones.
    public static func sentiment(for command: [String]) throws(SystemError) -> (any SentimentSystem)? {
        guard command.count == 1, command[0].hasPrefix(prefix) else { return nil }
        let name = String(command[0].dropFirst(prefix.count))
        lock.lock()
        defer { lock.unlock() }
        guard let system = sentiment[name] else {
            throw .usage(
                "no in-process sentiment system '\(name)' is registered; registered: "
                    + (sentiment.keys.sorted().joined(separator: ", ").isEmpty
                        ? "none" : sentiment.keys.sorted().joined(separator: ", ")))
        }
        return system
    }
}
