import Foundation

/// Writes a command's text output to a file (atomically) or to standard output, so that a
/// report that cannot be written is an error, never a silent loss.
public enum OutputText {
    /// Standard output cannot be written (a full disk, a closed descriptor).
    public struct StandardOutputError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The system's reason.
        public var reason: String

        public var description: String { "error: cannot write to standard output: \(reason)" }
    }

    /// Flushes what `print` buffered; throws when standard output cannot be written.
    public static func flushStandardOutput() throws(StandardOutputError) {
        guard fflush(nil) != 0 else { return }
        throw StandardOutputError(reason: String(cString: strerror(errno)))
    }

    /// The path that means standard input (for `--input`) or standard output (for `--output`).
    public static let standardStreamName = "-"

    /// The file to read for an input path: `-` is standard input (`/dev/stdin`, read to its end).
    public static func inputPath(_ path: String) -> String {
        path == standardStreamName ? "/dev/stdin" : path
    }

    /// Standard input is named as more than one input of a command.
    public struct StandardInputTwice: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String {
            "error: standard input (-) can be read only once; give it as one input at most"
        }
    }

    /// `inputPath` of each path; standard input can be read once, so `-` may appear once.
    public static func inputPaths(_ paths: [String]) throws(StandardInputTwice) -> [String] {
        if paths.filter({ $0 == standardStreamName }).count > 1 { throw StandardInputTwice() }
        return paths.map(inputPath)
    }

    /// Writes `text` to `path` atomically, or to standard output (after whatever `print`
    /// buffered) when `path` is nil or `-`.
    public static func write(_ text: String, to path: String?) throws {
        try write(data: Data(text.utf8), to: path)
    }

    /// Writes `data` to `path` atomically, or to standard output (after whatever `print`
    /// buffered) when `path` is nil or `-`.
    public static func write(data: Data, to path: String?) throws {
        if let path, path != standardStreamName {
            try AtomicFile.write(data, to: URL(fileURLWithPath: path))
            return
        }
        try flushStandardOutput()
        do {
            try FileHandle.standardOutput.write(contentsOf: data)
        } catch {
            let ns = error as NSError
            let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
            throw StandardOutputError(
                reason: underlying.map {
                    $0.domain == NSPOSIXErrorDomain
                        ? String(cString: strerror(Int32($0.code))) : ns.localizedDescription
                }
                    ?? ns.localizedDescription)
        }
    }
}
