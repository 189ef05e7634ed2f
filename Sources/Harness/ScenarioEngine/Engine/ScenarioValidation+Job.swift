import FieldtestData
import Foundation

extension ScenarioValidation {
    /// `fieldtest validate`: every scenario file checked (`verdict(file:strict:)`), each one's problems
    /// on standard error and its verdict on standard output. Writes no file.
    public struct Job: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Each file is checked for its schema, datasets and requirement IDs, and against its data: files named \
            by path load, venues and places exist, the time window is recorded. Every file's problems are \
            reported.
            """

        /// The validation (datasets and apps).
        public var validation: ScenarioValidation
        /// The scenario files.
        public var scenarioFiles: [String]
        /// Whether warnings are errors.
        public var strict: Bool

        /// A job.
        public init(validation: ScenarioValidation, files: [String], strict: Bool) {
            (self.validation, self.scenarioFiles, self.strict) = (validation, files, strict)
        }

        public var files: CommandFiles { CommandFiles() }

        /// Checks every file; any invalid one makes the outcome invalid input.
        public func run() throws -> CommandJobOutcome {
            var invalid = 0
            for file in scenarioFiles {
                let verdict = validation.verdict(file: file, strict: strict)
                if let problems = verdict.problems { JobNote.print(problems) }
                if let ok = verdict.ok { print(ok) } else { invalid += 1 }
            }
            return invalid > 0 ? .invalidInput : .success
        }
    }
}
