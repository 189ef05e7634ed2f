import ArgumentParser
import FieldtestData
import Foundation
import TweetSentiment

/// Shared plumbing for subcommands: locating the datasets folder, writing
/// outputs and turning library errors into messages and exit codes.
enum CommandSupport {
    /// Exit code for invalid input or usage.
    static let invalidInput = ExitCode(2)
    /// Exit code for a failed requirement, verification or regression.
    static let failed = ExitCode(1)

    /// Prints `message` to standard error.
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// The datasets folder: `--datasets`, else `$FIELDTEST_DATASETS`, else `./Datasets`.
    static func datasetsRoot(_ option: String?) -> URL {
        if let option { return URL(fileURLWithPath: option) }
        if let env = ProcessInfo.processInfo.environment["FIELDTEST_DATASETS"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Datasets")
    }

    /// The sentiment model file: `option` when given, else the shipped default model
    /// (under `$FIELDTEST_DATASETS/models` or `./Datasets/models`).
    static func sentimentModelURL(_ option: String?) -> URL {
        option.map { URL(fileURLWithPath: $0) }
            ?? SentimentModelFile.defaultLocation(environment: ProcessInfo.processInfo.environment,
                                                  currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    }

    /// Writes `text` to `path` atomically, or to standard output when `path` is nil.
    static func emit(_ text: String, to path: String?) throws {
        if let path {
            try AtomicFile.write(text, to: URL(fileURLWithPath: path))
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// Runs `body`, printing any error to stderr and exiting 2 (invalid input).
    static func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ExitCode {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch {
            printError(String(describing: error))
            throw invalidInput
        }
    }
}
