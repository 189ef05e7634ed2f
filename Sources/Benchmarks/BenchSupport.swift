import ArgumentParser
import FieldtestData
import Foundation

/// Plumbing shared by the benchmarks: messages, exit codes and the datasets folder.
enum BenchSupport {
    /// Exit code for invalid input or usage.
    static let invalidInput = ExitCode(2)
    /// Exit code for a goal not met (with `--check`) or a benchmark whose self-check failed.
    static let failed = ExitCode(1)

    /// Prints `message` to standard error.
    static func printError(_ message: String) {
        try? FileHandle.standardError.write(contentsOf: Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// The datasets folder: `--datasets`, else `$FIELDTEST_DATASETS`, else `./Datasets`, else the
    /// `Datasets` folder of the checkout this executable was built in.
    static func datasetsRoot(_ option: String?) -> URL {
        DatasetsLocation.current(option: option)
    }

    /// The files of the datasets folder's manifest entries of `format`, in manifest order, with
    /// their names: the benchmarks run over whatever maps or fingerprints the folder holds.
    static func files(_ format: DatasetFormat, in option: String?) throws -> [(name: String, url: URL)] {
        let manifest = try guarded { try DatasetManifest(root: datasetsRoot(option)) }
        return manifest.entries.filter { $0.format == format }.map { ($0.name, manifest.url(of: $0)) }
    }

    /// Size of the file at `url` in bytes (0 when it cannot be read).
    static func fileBytes(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    /// Runs `body`, printing any error to stderr and exiting 2 (invalid input).
    static func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            printError(String(describing: error))
            throw invalidInput
        }
    }
}

/// `--check`: exit 1 when a stated goal is not met; `--format`: text, csv or json.
struct GoalOptions: ParsableArguments {
    @Flag(help: "Exit 1 (after every benchmark asked for has run) when a stated goal is NOT met.")
    var check = false

    @Option(
        help:
            "Output: text (lines as measured), csv (one record per figure as measured, with the machine's description) or json (one document at the end)."
    )
    var format: BenchFormat = .text
}

/// A benchmark command that states goals and takes `--check`.
protocol ChecksGoals {
    /// The command's `--check` flag.
    var goals: GoalOptions { get }
}

/// The stated goals judged in this process, for `--check`.
enum Goals {
    /// The goals judged not met so far, in the order they were judged.
    nonisolated(unsafe) static var unmet: [String] = []

    /// "met" or "NOT met", recording `goal` as unmet when it is not.
    static func verdict(_ met: Bool, _ goal: String) -> String {
        if !met { unmet.append(goal) }
        return met ? "met" : "NOT met"
    }
}

/// The benchmarks' `print`: a line for a person, written at once (see `BenchOutput.note`); in
/// `--format csv|json` it becomes a note beside the measured records.
func print(_ items: Any..., separator: String = " ") {
    BenchOutput.note(items.map { "\($0)" }.joined(separator: separator))
}
