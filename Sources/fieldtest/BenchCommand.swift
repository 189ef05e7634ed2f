import ArgumentParser
import Foundation

/// `fieldtest bench`: benchmarks that measure Fieldtest beside a Python
/// baseline on the same input in the same run and report the ratio. Build in
/// release mode (`make bench`) for meaningful numbers.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks with Python baselines measured in the same run (build with -c release).",
        subcommands: [BenchAll.self, BenchEngine.self, BenchLocate.self, BenchClassify.self, BenchRoute.self, BenchSun.self, BenchHeap.self]
    )
}

/// Runs every benchmark in turn.
struct BenchAll: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "all", abstract: "Run every benchmark.")

    func run() throws {
        for command in BenchCommand.configuration.subcommands where command != BenchAll.self {
            print("== bench \(command.configuration.commandName ?? "")")
            var c = try command.parseAsRoot([])
            try c.run()
        }
    }
}

/// Runs Python baselines for benchmarks.
enum PythonBaseline {
    /// Runs `script` with `python3 -` and the given arguments; returns its standard
    /// output, or nil (with a note on stderr) when Python or a module is missing.
    static func run(_ script: String, arguments: [String] = [], needs modules: [String]) -> String? {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", modules.map { "import \($0)" }.joined(separator: "; ")]
        check.standardError = FileHandle.nullDevice
        check.standardOutput = FileHandle.nullDevice
        do { try check.run() } catch {
            CommandSupport.printError("note: python3 not found; the baseline is skipped")
            return nil
        }
        check.waitUntilExit()
        if check.terminationStatus != 0 {
            CommandSupport.printError("note: Python modules \(modules.joined(separator: ", ")) missing; install with: pip install \(modules.joined(separator: " ")); the baseline is skipped")
            return nil
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-"] + arguments
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        do { try p.run() } catch { return nil }
        input.fileHandleForWriting.write(Data(script.utf8))
        try? input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Formats a throughput line and the ratio against the baseline.
    /// CPU time of the calling thread, in seconds (per-core rates, robust to other load on the machine;
    /// compared with the Python side's `time.process_time()`).
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func report(name: String, unit: String, fieldtest: Double, baseline: Double?, baselineName: String, goal: Double?) {
        print(String(format: "%@: fieldtest %.0f %@/s", name, fieldtest, unit))
        if let baseline, baseline > 0 {
            let ratio = fieldtest / baseline
            let verdict = goal.map { ratio >= $0 ? " (goal ≥ \(Int($0))×: met)" : " (goal ≥ \(Int($0))×: NOT met)" } ?? ""
            print(String(format: "%@: %@ %.0f %@/s; ratio %.1f×", name, baselineName, baseline, unit, ratio) + verdict)
        }
    }
}
