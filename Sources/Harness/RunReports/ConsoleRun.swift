import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine

extension RunPipeline {
    /// `fieldtest run` for a person: runs the request (`run(observe:progress:)`), showing progress
    /// lines and each scenario's rows (at `verbosity`) on `console` and passing notes to `note`. While
    /// the scenarios run, an interrupt (SIGINT, SIGTERM) calls `interruptCleanup` and ends the process.
    /// Then the totals line goes to `console`, and, when `request.report` names a file, the HTML report
    /// of every scenario run is written there.
    /// - Throws: what `run` throws, and the report's read or write error.
    public func runOnConsole(
        _ console: TerminalConsole, verbosity: Verbosity, note: (String) -> Void,
        interruptCleanup: @escaping @Sendable () -> Void
    ) throws -> RunOutcome {
        let progress: (@Sendable (CaseProgress) -> Void)? =
            console.progressMode == .none ? nil : { @Sendable in console.progress($0) }
        defer { console.finish() }
        var interrupt: InterruptCleanup.Registration?
        var folders: [String] = []
        defer { interrupt?.cancel() }
        let outcome = try run(
            observe: { event in
                switch event {
                case .note(let message): note(message)
                case .prepared:
                    interrupt = InterruptCleanup.install(
                        message: request.out == nil
                            ? "fieldtest run: interrupted; temporary folders and the scenario in progress removed "
                                + "(a run into Results/runs cannot be resumed; run with --out DIR to be able to use --resume)"
                            : "fieldtest run: interrupted; temporary folders removed; the finished cases of the "
                                + "scenario in progress are kept: the same command with --resume continues it",
                        cleanup: interruptCleanup)
                case let .starting(s, count):
                    console.starting(s.name, cases: count)
                case .finished(let o):
                    folders.append(o.folder.path)
                    console.clearProgress()
                    console.write(RunConsole.scenarioText(o, verbosity: verbosity, style: console.style))
                }
            }, progress: progress)
        console.write(outcome.totals.line + "\n")
        if let report = request.report {
            // `-` (or /dev/stdout) is standard output, never a file named `-`.
            try OutputText.write(try HTMLReport.render(inputs: folders, requirements: apps.requirements), to: report)
        }
        return outcome
    }
}

extension RunPipeline {
    /// `fieldtest run`: `runOnConsole` on a terminal console (progress lines on a terminal standard
    /// error, text on standard error when the JUnit XML or the HTML report goes to standard output).
    /// A failed requirement or a regression is a failure. Whatever happens, an error is written to
    /// the JUnit file when one is asked for: CI reads it.
    public struct ConsoleJob: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Reports go to Results/runs/<scenario>/<run_id>/, or DIR/<scenario>/ with --out DIR (one run of a \
            scenario at a time: DIR/.<scenario>.lock). --record-baseline is not taken with --shard.
            Exit codes: 0 every requirement passes (and no regression against --baseline),
            1 a requirement failed or a metric regressed, 2 invalid input, usage or a missing baseline.
            \(BaselineComparison.CheckJob.comparisonOptionsHelp)
            """

        /// The run.
        public var pipeline: RunPipeline
        /// How much is printed.
        public var verbosity: Verbosity
        /// Colour of the text.
        public var color: ColorMode
        /// Called on an interrupt, before the process ends (e.g. to remove the apps' temporary folders).
        public var interruptCleanup: @Sendable () -> Void

        /// A job.
        public init(
            pipeline: RunPipeline, verbosity: Verbosity, color: ColorMode,
            interruptCleanup: @escaping @Sendable () -> Void
        ) {
            (self.pipeline, self.verbosity, self.color) = (pipeline, verbosity, color)
            self.interruptCleanup = interruptCleanup
        }

        /// `declaredFiles()`; an invalid scenario stops the run here, before it starts (with its
        /// JUnit error file).
        public var files: CommandFiles {
            get throws {
                do { return try pipeline.declaredFiles() } catch {
                    pipeline.writeErrorJUnit(error)
                    throw error
                }
            }
        }

        /// Runs every scenario on the console.
        public func run() throws -> CommandJobOutcome {
            let request = pipeline.request
            let console = TerminalConsole(
                textToStandardError: StreamPath.isStandardOutput(request.junit)
                    || StreamPath.isStandardOutput(request.report),
                color: color,
                progress: .choose(
                    isTerminal: isatty(STDERR_FILENO) == 1, quiet: verbosity == .quiet,
                    interval: ProgressMode.interval(environment: ProcessInfo.processInfo.environment)))
            let outcome: RunOutcome
            do {
                outcome = try pipeline.runOnConsole(
                    console, verbosity: verbosity, note: JobNote.print, interruptCleanup: interruptCleanup)
            } catch {
                pipeline.writeErrorJUnit(error)
                throw error
            }
            return .init(failed: outcome.anyFailed || outcome.anyRegression)
        }
    }
}
