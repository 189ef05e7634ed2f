import ArgumentParser
import FieldtestData
import Foundation
import MetricReports
import TweetSentiment

/// A leaf command: its options build a library job (`CommandJob`), which declares the files it
/// reads and writes (checked by `Fieldtest.checkDeclaredFiles`) and does the work.
protocol JobCommand: ParsableCommand {
    /// The job the options describe.
    func job() throws -> any CommandJob
}

extension JobCommand {
    /// Runs the job; exit 1 or 2 as its outcome says.
    func run() throws { try CommandSupport.finish(job().run()) }
}

/// Shared plumbing for subcommands: messages and exit codes.
enum CommandSupport {
    /// Exit code for invalid input or usage.
    static let invalidInput = ExitCode(2)
    /// Exit code for a failed requirement, verification or regression.
    static let failed = ExitCode(1)

    /// Returns on success, else throws the outcome's exit code.
    static func finish(_ outcome: CommandJobOutcome) throws {
        if outcome != .success { throw ExitCode(outcome.exitCode) }
    }

    /// Throws `problem` (a library's usage message) as a usage error, exit 2, when there is one.
    static func refuse(_ problem: String?) throws {
        if let problem { throw ValidationError(problem) }
    }

    /// Prints `message` to standard error (a standard error that cannot be written is
    /// ignored: there is nowhere left to report it).
    static func printError(_ message: String) {
        try? FileHandle.standardError.write(contentsOf: Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// `message` with one error prefix: ArgumentParser puts `Error: ` before a validation message,
    /// and the library's messages carry their own `error:` (`--year 2200: error: …`), so the
    /// first is dropped when the first line already has one.
    static func onePrefix(_ message: String) -> String {
        let prefix = "Error: "
        guard message.hasPrefix(prefix) else { return message }
        let rest = message.dropFirst(prefix.count)
        let firstLine = rest.prefix { $0 != "\n" }
        return firstLine.contains("error: ") || firstLine.hasPrefix("error:") ? String(rest) : message
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

/// `--datasets DIR`, repeatable: the user's folders on top of the bundled one.
struct DatasetFolders: ParsableArguments {
    @Option(
        help: "A datasets folder of your own, on top of the bundled one (repeatable; also $FIELDTEST_DATASETS=A:B).",
        completion: .directory)
    var datasets: [String] = []
}

/// `--color auto|always|never`: colour of the text for people.
struct ColorOption: ParsableArguments {
    @Option(help: "Colour: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never.")
    var color: ColorMode = .auto
}

extension ColorMode: ExpressibleByArgument {}

/// `--output FILE` of a command that writes one CSV.
struct OutputCSV: ParsableArguments {
    @Option(help: "Output CSV (default: standard output).", completion: .file()) var output: String?
}

/// How `run --baseline` and `check` compare rows with a baseline.
struct BaselineComparisonOptions: ParsableArguments {
    @Option(help: "Tolerance NAME=VALUE: accuracy, latency, latency-floor, count, rate, a requirement ID or metric.")
    var tolerance: [String] = []
    @Option(help: "Compare host latency rows with the baseline: same-machine (see above), always or never.")
    var compareLatency: LatencyComparison = .sameMachine
    @Option(help: "Which regressions fail: any or significant (see above).") var failOn: FailOn = .any
}

extension FailOn: ExpressibleByArgument {}
