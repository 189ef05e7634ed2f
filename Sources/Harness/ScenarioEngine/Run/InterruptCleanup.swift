import FieldtestData
import Foundation

/// SIGINT and SIGTERM handling: `cleanup` runs (e.g. the temporary folders of the scenarios in
/// progress are removed), so do the temporary files of writes in progress, `message` goes to standard error, then the process exits
/// with 128 + the signal number (130, 143). The work runs on a dispatch queue, not in a signal
/// handler, so it may allocate and remove files.
public enum InterruptCleanup {
    /// Installs the handling; keep the returned sources for as long as it applies, and cancel them after.
    public static func install(message: String, cleanup: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "fieldtest.run.interrupt")
        return [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                cleanup()
                AtomicFile.removePendingTemporaryFiles()
                try? FileHandle.standardError.write(contentsOf: Data((message + "\n").utf8))
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
