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

    /// Writes `text` to `path` atomically, or to standard output (after whatever `print`
    /// buffered) when `path` is nil.
    public static func write(_ text: String, to path: String?) throws {
        if let path {
            try AtomicFile.write(text, to: URL(fileURLWithPath: path))
            return
        }
        try flushStandardOutput()
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
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
