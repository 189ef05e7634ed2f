import ArgumentParser
import FieldtestData
import Foundation
import MetricReports

/// The `fieldtest` command: a thin shell over the library modules.
@main
struct Fieldtest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldtest",
        abstract:
            "Replay recorded weather, location and tweet data through sky, routing and social algorithms, and report accuracy and latency against their requirements.",
        discussion: """
            Exit codes: 0 success (all requirements pass), 1 a requirement failed or a regression was found, \
            2 invalid input or usage, or an output that cannot be written.
            Bundled data (datasets, the sentiment model, lexicons) is looked for in $FIELDTEST_DATA, ./Datasets, \
            then beside the executable (`fieldtest datasets where --help` gives the order; `datasets where` the \
            folder used); when none is found, errors list every place looked.
            Shell completion: fieldtest --generate-completion-script bash|zsh|fish.
            """,
        version: FieldtestVersion.versionText(),
        subcommands: [
            RunCommand.self, ValidateCommand.self, CheckCommand.self, MergeCommand.self, SchemaCommand.self,
            RequirementsCommand.self, DatasetsCommand.self, SunCommand.self, ScoreCommand.self, LocateCommand.self,
            TrainCommand.self, ClassifyCommand.self, EvaluateCommand.self, RouteCommand.self, ReportCommand.self,
            ServeCommand.self, CompareCommand.self,
        ]
    )

    /// Parses the arguments and runs the subcommand. Usage errors and the library's errors exit 2,
    /// as documented (ArgumentParser's own code for usage errors is 64), and a standard output that
    /// cannot be written is an error, not a silent loss.
    static func main() {
        do {
            var command = try parseAsRoot()
            do {
                try checkDeclaredFiles(of: command)
                try command.run()
                try OutputText.flushStandardOutput()
            } catch let error where !(error is ExitCode) && exitCode(for: error) == .failure {
                // A library error (not an exit code, help or a usage error) says what to fix: it is invalid input (exit 2).
                CommandSupport.printError(String(describing: error))
                throw CommandSupport.invalidInput
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                CommandSupport.printError(CommandSupport.onePrefix(fullMessage(for: error)))
                Foundation.exit(CommandSupport.invalidInput.rawValue)
            }
            if let code = error as? ExitCode, code != .success {
                // Whatever the command printed before failing still goes out (or is reported lost).
                do { try OutputText.flushStandardOutput() } catch { CommandSupport.printError(error.description) }
            }
            exit(withError: error)
        }
    }
}

extension Fieldtest {
    /// Checks the files the command's job declares (`CommandJob.files`) before it runs: an output over
    /// an input, two outputs into one file, or an output that cannot be written is refused with
    /// nothing read or written. A leaf command without a job is a programming error.
    static func checkDeclaredFiles(of command: ParsableCommand) throws {
        // Only this tool's commands: ArgumentParser's own (`help`) write nothing.
        guard type(of: command).configuration.subcommands.isEmpty,
            String(reflecting: type(of: command)).hasPrefix("fieldtest.")
        else { return }
        guard let command = command as? any JobCommand else {
            preconditionFailure("\(type(of: command)) has no job (JobCommand)")
        }
        try command.job().files.check()
    }
}
