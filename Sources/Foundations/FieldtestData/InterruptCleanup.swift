import Foundation

/// SIGINT and SIGTERM handling for every command that writes files: the registered cleanups run
/// (e.g. `run` removes the temporary folders of the scenarios in progress), the temporary files of
/// atomic writes in progress are removed, the last registered message (or a default one) goes to
/// standard error, then the process exits with 128 + the signal number (130, 143). The work runs on
/// a dispatch queue, not in a signal handler, so it may allocate and remove files.
///
/// One handler serves the whole process, installed once: by the first `AtomicFile` write (so a
/// batch command interrupted mid-write leaves no `.fieldtest-*.tmp` beside its target) or by the
/// first `install(message:cleanup:)`.
public enum InterruptCleanup {
    /// A registered cleanup; `cancel()` unregisters it (the handler itself stays).
    public final class Registration: Sendable {
        fileprivate let id: Int
        fileprivate init(id: Int) { self.id = id }
        /// Unregisters the cleanup and its message.
        public func cancel() { State.shared.remove(id) }
    }

    /// The message when no registered cleanup gives one.
    public static let defaultMessage =
        "fieldtest: interrupted; no output written (an existing output file is unchanged)"

    /// Registers `cleanup` and `message` for as long as they apply (cancel the registration after),
    /// and installs the handler if needed.
    public static func install(message: String, cleanup: @escaping @Sendable () -> Void) -> Registration {
        installForWrites()
        return Registration(id: State.shared.add(message: message, cleanup: cleanup))
    }

    /// Registers `cleanup` without a message of its own (the others' or the default one is printed),
    /// e.g. the kill of the external systems that are running.
    public static func install(cleanup: @escaping @Sendable () -> Void) -> Registration {
        installForWrites()
        return Registration(id: State.shared.add(message: nil, cleanup: cleanup))
    }

    /// Installs the handler if it is not yet installed (idempotent, thread-safe).
    public static func installForWrites() {
        State.shared.installOnce {
            let queue = DispatchQueue(label: "fieldtest.interrupt")
            return [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    let (message, cleanups) = State.shared.snapshot()
                    for cleanup in cleanups.reversed() { cleanup() }
                    AtomicFile.removePendingTemporaryFiles()
                    try? FileHandle.standardError.write(contentsOf: Data((message + "\n").utf8))
                    exit(128 + number)
                }
                source.resume()
                return source
            }
        }
    }

    /// The handler's sources and the registered cleanups.
    private final class State: @unchecked Sendable {
        static let shared = State()
        private let lock = NSLock()
        private var sources: [any DispatchSourceSignal] = []
        private var entries: [(id: Int, message: String?, cleanup: @Sendable () -> Void)] = []
        private var nextID = 0

        func installOnce(_ make: () -> [any DispatchSourceSignal]) {
            lock.withLock { if sources.isEmpty { sources = make() } }
        }

        func add(message: String?, cleanup: @escaping @Sendable () -> Void) -> Int {
            lock.withLock {
                nextID += 1
                entries.append((nextID, message, cleanup))
                return nextID
            }
        }

        func remove(_ id: Int) { lock.withLock { entries.removeAll { $0.id == id } } }

        func snapshot() -> (String, [@Sendable () -> Void]) {
            lock.withLock {
                (entries.last { $0.message != nil }?.message ?? InterruptCleanup.defaultMessage, entries.map(\.cleanup))
            }
        }
    }
}
