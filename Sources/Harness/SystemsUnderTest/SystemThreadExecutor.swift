import Foundation

/// A task executor on one dedicated thread, for the tasks that spawn and reap external systems.
///
/// The harness calls systems from synchronous code (the virtual-clock engine) and waits for
/// them with semaphores. Were their supervising tasks on the cooperative pool, a caller already
/// on the pool (a Swift Testing test, on this 2-core machine a pool of two threads) could block
/// every pool thread while the task it waits for needs one: a deadlock. On their own thread
/// the supervising tasks always make progress. They only await, so one thread serves them all.
final class SystemThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// The one executor all supervising tasks run on.
    static let shared = SystemThreadExecutor()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [unowned self] in self.loop() }
        thread.name = "fieldtest-systems"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
