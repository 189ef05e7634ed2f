import Dispatch
import Synchronization

/// Work over `0..<count` split into contiguous slices, one thread each, with the results in slice
/// order: the batch commands' rows stay in input order and the output is the same bytes whatever the
/// number of threads, as long as each row's result depends on that row alone.
public enum ParallelSlices {
    /// `body` applied to each of up to `jobs` contiguous slices of `0..<count` (in order, on as many
    /// threads; fewer slices when a slice would hold under `minimumPerSlice` items, one when `jobs` ≤ 1).
    /// Empty when `count` is 0.
    public static func map<Result: Sendable>(
        count: Int, jobs: Int, minimumPerSlice: Int = 1, _ body: @Sendable (Range<Int>) -> Result
    ) -> [Result] {
        guard count > 0 else { return [] }
        let slices = max(1, min(jobs, count / max(1, minimumPerSlice)))
        if slices == 1 { return [body(0..<count)] }
        let results = Slots<Result>(count: slices)
        DispatchQueue.concurrentPerform(iterations: slices) { k in
            results.set(k, body((k * count / slices)..<((k + 1) * count / slices)))
        }
        return results.take()
    }

    /// The slices' results, filled from several threads (each slot once).
    final class Slots<Result: Sendable>: Sendable {
        private let slots: Mutex<[Result?]>

        init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

        func set(_ k: Int, _ value: Result) { slots.withLock { $0[k] = value } }

        /// Every slot's result (all are set once `concurrentPerform` returns).
        func take() -> [Result] { slots.withLock { $0.compactMap { $0 } } }
    }
}
