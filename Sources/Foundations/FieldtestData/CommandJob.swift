import Foundation

/// One command's work as a value, living beside the code that does it: the files it reads and
/// writes, and running it. The job that opens the files is the one that declares them, so the tool
/// checks a command with `try job.files.check()` before `run()`, and nothing is read or written
/// when an output would land on an input.
public protocol CommandJob {
    /// Every file the job reads and writes, with the options that named them.
    var files: CommandFiles { get throws }
    /// Does the work.
    /// - Returns: how it ended (the tool's exit code).
    /// - Throws: an error naming what is wrong with the input (invalid input, exit 2).
    func run() throws -> CommandJobOutcome
}

/// How a command's work ended; the tool exits with `exitCode`.
public enum CommandJobOutcome: Sendable, Equatable {
    /// Done: every requirement passed, no regression (exit 0).
    case success
    /// A requirement failed, a regression was found, or a system faulted (exit 1); the job has
    /// already said why.
    case failure
    /// Invalid input the job has already reported (exit 2).
    case invalidInput

    /// The process exit code: 0, 1 or 2.
    public var exitCode: Int32 {
        switch self {
        case .success: 0
        case .failure: 1
        case .invalidInput: 2
        }
    }
}

extension CommandJobOutcome {
    /// `.failure` when `failed`, else `.success`.
    public init(failed: Bool) { self = failed ? .failure : .success }
}

/// A job that writes one text it makes when run (a schema, a catalogue) to a file or standard output.
public struct TextOutputJob: CommandJob {
    /// The file to write, nil or `-` for standard output.
    public var output: String?
    /// Makes the text.
    public var text: () throws -> String

    /// A job writing `text()` to `output`.
    public init(output: String?, text: @escaping () throws -> String) { (self.output, self.text) = (output, text) }

    public var files: CommandFiles {
        var f = CommandFiles()
        f.output(output, option: "--output")
        return f
    }

    /// Writes the text.
    public func run() throws -> CommandJobOutcome {
        try OutputText.write(text(), to: output)
        return .success
    }
}

/// Messages of a job for the person running it: one line to standard error each (a standard error
/// that cannot be written is ignored: there is nowhere left to report it).
public enum JobNote {
    /// Writes `message` and a newline (unless it ends in one) to standard error.
    public static func print(_ message: String) {
        try? FileHandle.standardError.write(contentsOf: Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }
}
