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

    /// Prints `message` to standard error (a standard error that cannot be written is
    /// ignored: there is nowhere left to report it).
    static func printError(_ message: String) {
        try? FileHandle.standardError.write(contentsOf: Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// Flushes what `print` buffered; when standard output cannot be written (a full disk,
    /// a closed descriptor), says so on standard error and exits 2, so that a lost report is
    /// never a success.
    static func flushStandardOutput() throws {
        guard fflush(nil) != 0 else { return }
        reportStandardOutputFailure(String(cString: strerror(errno)))
        throw invalidInput
    }

    private static func reportStandardOutputFailure(_ reason: String) {
        printError("error: cannot write to standard output: \(reason)")
    }

    /// The datasets folder: `--datasets`, else `$FIELDTEST_DATASETS`, else `./Datasets`, else the
    /// `Datasets` folder of the checkout this executable was built in (`DatasetsLocation`).
    static func datasetsRoot(_ option: String?) -> URL {
        DatasetsLocation.current(option: option)
    }

    /// The manifest of the datasets folder (`datasetsRoot(option)`); when there is none, says
    /// how to point at one (exit code 2).
    static func datasetManifest(_ option: String?) throws -> DatasetManifest {
        let root = datasetsRoot(option)
        if option == nil, !DatasetsLocation.isDatasetsFolder(root) {
            printError("\(root.appendingPathComponent("MANIFEST.csv").path): error: no datasets folder here; pass --datasets DIR, set "
                       + "\(DatasetsLocation.environmentVariable) to the Fieldtest Datasets folder, or run from the Fieldtest checkout")
            throw invalidInput
        }
        return try guarded { try DatasetManifest(root: root) }
    }

    /// The sentiment model file: `option` when given, else the shipped default model
    /// in the datasets folder's `models/` (see `datasetsRoot`).
    static func sentimentModelURL(_ option: String?) -> URL {
        option.map { URL(fileURLWithPath: $0) }
            ?? datasetsRoot(nil).appendingPathComponent("models").appendingPathComponent(SentimentModelFile.defaultFileName)
    }

    /// Loads the sentiment model `option` names, or the shipped default model; when the default
    /// is not where it is looked for, says how to point at it (exit code 2).
    static func loadSentimentModel(_ option: String?) throws -> SentimentModel {
        let url = sentimentModelURL(option)
        if option == nil, !FileManager.default.fileExists(atPath: url.path) {
            printError("\(url.path): error: no default sentiment model here; pass --model FILE, set \(DatasetsLocation.environmentVariable) "
                       + "to the Fieldtest Datasets folder, or run from the Fieldtest checkout")
            throw invalidInput
        }
        return try guarded { try SentimentModelFile.load(url, displayName: option ?? url.path) }
    }

    /// Writes `text` to `path` atomically, or to standard output when `path` is nil.
    static func emit(_ text: String, to path: String?) throws {
        if let path {
            try AtomicFile.write(text, to: URL(fileURLWithPath: path))
        } else {
            // After whatever `print` buffered; a failed write is reported, not a crash.
            try flushStandardOutput()
            do {
                try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
            } catch {
                let ns = error as NSError
                let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
                reportStandardOutputFailure(underlying?.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(underlying!.code))) : ns.localizedDescription)
                throw invalidInput
            }
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
