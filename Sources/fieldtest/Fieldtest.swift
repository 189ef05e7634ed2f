import ArgumentParser
import Foundation

/// The `fieldtest` command: a thin shell over the library modules.
@main
struct Fieldtest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldtest",
        abstract: "Replay recorded weather, location and tweet data through sky, routing and social algorithms, and report accuracy and latency against their requirements.",
        discussion: """
        Exit codes: 0 success (all requirements pass), 1 a requirement failed or a \
        regression was found, 2 invalid input or usage, or an output that cannot be written.
        """,
        version: FieldtestVersion.current,
        subcommands: [
            RunCommand.self,
            ValidateCommand.self,
            CheckCommand.self,
            MergeCommand.self,
            SchemaCommand.self,
            DatasetsCommand.self,
            BenchCommand.self,
            SunCommand.self,
            ScoreCommand.self,
            LocateCommand.self,
            TrainCommand.self,
            ClassifyCommand.self,
            EvaluateCommand.self,
            RouteCommand.self,
        ]
    )

    /// Parses the arguments and runs the subcommand. Usage errors exit 2, as documented
    /// (ArgumentParser's own code for them is 64), and a standard output that cannot be
    /// written is an error, not a silent loss.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
            try CommandSupport.flushStandardOutput()
        } catch {
            if exitCode(for: error) == .validationFailure {
                CommandSupport.printError(fullMessage(for: error))
                Foundation.exit(CommandSupport.invalidInput.rawValue)
            }
            if let code = error as? ExitCode, code != .success {
                // Whatever the command printed before failing still goes out (or is reported lost).
                _ = try? CommandSupport.flushStandardOutput()
            }
            exit(withError: error)
        }
    }
}

/// The tool's version, written into every run's `run.json`.
enum FieldtestVersion {
    static let current = "0.1.0"
}
