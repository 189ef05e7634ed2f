import ArgumentParser
import FieldtestData
import Foundation
import TweetSentiment

/// Shared plumbing for subcommands: messages and exit codes.
enum CommandSupport {
    /// Exit code for invalid input or usage.
    static let invalidInput = ExitCode(2)
    /// Exit code for a failed requirement, verification or regression.
    static let failed = ExitCode(1)

    /// Prints `message` to standard error (a standard error that cannot be written is
    /// ignored: there is nowhere left to report it).
    static func printError(_ message: String) {
        try? FileHandle.standardError.write(contentsOf: Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// The `--classes` list `text` names (all three classes when nil); an invalid list is
    /// reported, exit code 2 (also from `validate()`).
    static func classes(_ text: String?) throws -> Set<SentimentLabel> {
        do { return try SentimentEvaluation.classes(text) } catch {
            printError(error.description)
            throw invalidInput
        }
    }
}
