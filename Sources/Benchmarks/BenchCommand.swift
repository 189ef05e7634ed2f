import ArgumentParser
import Foundation

/// `fieldtest-bench`: benchmarks that measure Fieldtest beside a Python
/// baseline on the same input in the same run and report the ratio. Build in
/// release mode (`make bench`) for meaningful numbers.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldtest-bench",
        abstract: "Benchmarks with Python baselines measured in the same run (build with -c release).",
        discussion: """
            Each line is written as soon as it is measured. Exit codes: 0 done (with --check: every stated \
            goal met), 1 a stated goal NOT met with --check, or a benchmark's self-check failed, 2 invalid input or usage.
            """,
        subcommands: [
            BenchAll.self, BenchEngine.self, BenchLocate.self, BenchClassify.self, BenchRoute.self, BenchSun.self,
            BenchHeap.self, BenchSystem.self, BenchJSON.self, BenchActions.self, BenchEndToEnd.self, BenchSweep.self,
            NoopSystem.self,
        ]
    )

    /// Parses the arguments and runs the benchmark, one output line at a time (see `print`). Usage errors exit 2; with `--check`, a goal
    /// that is not met exits 1 once every benchmark asked for has run.
    static func main() {
        do {
            var command = try parseAsRoot()
            let goals = (command as? any ChecksGoals)?.goals
            BenchOutput.benchmark = type(of: command).configuration.commandName ?? ""
            BenchOutput.start(goals?.format ?? .text)
            try command.run()
            BenchOutput.finish()
            if let goals, goals.check, !Goals.unmet.isEmpty {
                fflush(nil)
                BenchSupport.printError("error: goals NOT met: \(Goals.unmet.joined(separator: "; "))")
                exit(withError: BenchSupport.failed)
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                BenchSupport.printError(fullMessage(for: error))
                fflush(nil)
                Foundation.exit(BenchSupport.invalidInput.rawValue)
            }
            exit(withError: error)
        }
    }
}

/// Runs every benchmark in turn.
struct BenchAll: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(commandName: "all", abstract: "Run every benchmark.")

    @OptionGroup var goals: GoalOptions

    func run() throws {
        for command in BenchCommand.configuration.subcommands
        where command != BenchAll.self && command != NoopSystem.self {
            BenchOutput.benchmark = command.configuration.commandName ?? ""
            print("== bench \(BenchOutput.benchmark)")
            var c = try command.parseAsRoot([])
            try c.run()
        }
    }
}

/// Runs the Python baselines (`Python/<name>.py`, shipped as resources of this target).
enum PythonBaseline {
    /// The baseline script `name` (without `.py`), or nil when the resource is missing.
    static func scriptURL(_ name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: "py", subdirectory: "Python")
    }

    /// Runs the script `name` with `python3` and the given arguments; returns its standard
    /// output, or nil (with a note on stderr) when the script, Python or a module is missing.
    static func run(_ name: String, arguments: [String] = [], needs modules: [String]) -> String? {
        guard let script = scriptURL(name) else {
            BenchSupport.printError(
                "note: the baseline script \(name).py is not beside this executable; the baseline is skipped")
            return nil
        }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", modules.map { "import \($0)" }.joined(separator: "; ")]
        check.standardError = FileHandle.nullDevice
        check.standardOutput = FileHandle.nullDevice
        do { try check.run() } catch {
            BenchSupport.printError("note: python3 not found; the baseline is skipped")
            return nil
        }
        check.waitUntilExit()
        if check.terminationStatus != 0 {
            BenchSupport.printError(
                "note: Python modules \(modules.joined(separator: ", ")) missing; install with: pip install \(modules.joined(separator: " ")); the baseline is skipped"
            )
            return nil
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script.path] + arguments
        let output = Pipe()
        p.standardOutput = output
        do { try p.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// CPU time of the calling thread, in seconds (per-core rates, robust to other load on the machine;
    /// compared with the Python side's `time.process_time()`).
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Prints a throughput line (`fieldtest` in `unit`s per second) and, when the baseline ran, its
    /// rate and the ratio, judged against `goal` (a minimum ratio) when there is one.
    static func report(
        name: String, unit: String, fieldtest: Double, baseline: Double?, baselineName: String, goal: Double?
    ) {
        BenchOutput.measured(
            String(format: "%@: fieldtest %.0f %@/s", name, fieldtest, unit),
            [BenchOutput.fact("rate", name, fieldtest, "\(unit)/s")])
        if let baseline, baseline > 0 {
            let ratio = fieldtest / baseline
            let verdict =
                goal.map {
                    " (goal ≥ \(Int($0))×: \(Goals.verdict(ratio >= $0, "\(name) ≥ \(Int($0))× \(baselineName)")))"
                } ?? ""
            BenchOutput.measured(
                String(format: "%@: %@ %.0f %@/s; ratio %.1f×", name, baselineName, baseline, unit, ratio) + verdict,
                [
                    BenchOutput.fact("baseline_rate", "\(name): \(baselineName)", baseline, "\(unit)/s"),
                    BenchOutput.fact(
                        "ratio", "\(name) vs \(baselineName)", ratio, "×", goal: goal.map { ">= \(Int($0))" },
                        met: goal.map { ratio >= $0 }),
                ])
        }
    }
}
