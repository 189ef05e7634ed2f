import Foundation

/// The one thread that starts external systems, alive as long as the process.
///
/// A system asks the kernel for SIGKILL when its parent dies (`PR_SET_PDEATHSIG`), and on Linux
/// "parent" means the thread that forked it: a system forked from a pool thread that later ends
/// would be killed in the middle of a run. Forked from this thread, it dies only with the harness.
final class SystemSpawnThread: @unchecked Sendable {
    /// The thread all systems are started from.
    static let shared = SystemSpawnThread()

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [unowned self] in self.loop() }
        thread.name = "fieldtest-systems"
        thread.start()
    }

    /// Runs `body` on the thread and returns its result (the caller waits).
    func run<T>(_ body: @escaping () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        var result: T?
        condition.lock()
        jobs.append {
            result = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return result!
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
