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

    /// `map`, but each slice's result goes to `emit` in slice order as soon as it and every slice
    /// before it are done, while later slices are still being computed: a batch's output is written
    /// beside its computation. `emit` is called one result at a time, by whichever thread finished
    /// the slice that made the next result ready, and never while holding back another thread. After
    /// `emit` throws, the remaining results are dropped and the first error is rethrown once every
    /// slice is done.
    public static func forEachInOrder<Result: Sendable>(
        count: Int, jobs: Int, minimumPerSlice: Int = 1, _ body: @Sendable (Range<Int>) -> Result,
        emit: @Sendable (Result) throws -> Void
    ) throws {
        guard count > 0 else { return }
        let slices = max(1, min(jobs, count / max(1, minimumPerSlice)))
        if slices == 1 { return try emit(body(0..<count)) }
        let queue = InOrderQueue<Result>(count: slices)
        DispatchQueue.concurrentPerform(iterations: slices) { k in
            queue.finish(k, body((k * count / slices)..<((k + 1) * count / slices)), emit: emit)
        }
        if let failure = queue.failure { throw failure }
    }

    /// Results handed over in index order by one emitting thread at a time (`forEachInOrder`).
    final class InOrderQueue<Result: Sendable>: Sendable {
        private struct State {
            var ready: [Result?]
            var next = 0
            var emitting = false
            var failure: (any Error)?
        }
        private let state: Mutex<State>

        init(count: Int) { state = Mutex(State(ready: Array(repeating: nil, count: count))) }

        /// The first error `emit` threw, if any.
        var failure: (any Error)? { state.withLock { $0.failure } }

        /// Stores result k; when no other thread is emitting, emits every result that is now next in order.
        func finish(_ k: Int, _ result: Result, emit: (Result) throws -> Void) {
            var batch = state.withLock { s -> [Result] in
                s.ready[k] = result
                return s.emitting ? [] : Self.takeReady(&s)
            }
            while !batch.isEmpty {
                for item in batch {
                    do {
                        try emit(item)
                    } catch {
                        state.withLock { if $0.failure == nil { $0.failure = error } }
                        break
                    }
                }
                batch = state.withLock { Self.takeReady(&$0) }
            }
        }

        /// The results ready from `next` on, marked as being emitted; none (and not emitting) when
        /// the next one is not ready. After a failure, ready results are dropped instead.
        private static func takeReady(_ s: inout State) -> [Result] {
            var batch: [Result] = []
            while s.next < s.ready.count, let r = s.ready[s.next] {
                s.ready[s.next] = nil
                s.next += 1
                if s.failure == nil { batch.append(r) }
            }
            s.emitting = !batch.isEmpty
            return batch
        }
    }

    /// The slices' results, filled from several threads (each slot once).
    final class Slots<Result: Sendable>: Sendable {
        private let slots: Mutex<[Result?]>

        init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

        func set(_ k: Int, _ value: Result) { slots.withLock { $0[k] = value } }

        /// Every slot's result (all are set once `concurrentPerform` returns), moved out: the slots
        /// are emptied, so the caller holds the only references and may change the results in place.
        func take() -> [Result] {
            slots.withLock { slots in
                defer { slots = [] }
                return slots.compactMap { $0 }
            }
        }
    }
}
