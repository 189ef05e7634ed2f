import Foundation

/// The `fieldtest` tool's version, written into every run's `run.json`.
public enum FieldtestVersion {
    public static let current = "0.1.0"

    /// What `--version` prints: the version and, when known, the commit built from. Reading the
    /// commit from the checkout's `.git` files costs milliseconds of every command's start, so it is
    /// read only when `--version` is among the arguments.
    public static func versionText(arguments: [String] = CommandLine.arguments) -> String {
        guard arguments.contains("--version") else { return current }
        return current + (GitRevision.current().map { " (commit \($0.prefix(12)))" } ?? "")
    }
}
