/// A min-priority queue of timed events with a total order `(time, sequence)`:
/// events at the same virtual time leave in the order they were scheduled, so
/// a run is fully deterministic (a plain heap gives equal keys in no
/// particular order). Binary heap; push and pop are O(log n).
public struct EventQueue<Payload> {
    @usableFromInline
    struct Entry {
        @usableFromInline var time: Double
        @usableFromInline var sequence: UInt64
        @usableFromInline var payload: Payload

        @inlinable init(time: Double, sequence: UInt64, payload: Payload) {
            self.time = time
            self.sequence = sequence
            self.payload = payload
        }

        @inlinable func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var nextSequence: UInt64 = 0

    public init() {}

    /// Number of pending events.
    @inlinable public var count: Int { heap.count }
    /// Whether no event is pending.
    @inlinable public var isEmpty: Bool { heap.isEmpty }
    /// Time of the next event, if any.
    @inlinable public var nextTime: Double? { heap.first?.time }

    /// Adds an event at `time` (seconds).
    @inlinable public mutating func push(at time: Double, _ payload: Payload) {
        heap.append(Entry(time: time, sequence: nextSequence, payload: payload))
        nextSequence &+= 1
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            guard heap[i].precedes(heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the earliest event.
    @inlinable public mutating func pop() -> (time: Double, payload: Payload)? {
        guard !heap.isEmpty else { return nil }
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            let n = heap.count
            while true {
                let l = 2 * i + 1
                if l >= n { break }
                var m = l
                let r = l + 1
                if r < n && heap[r].precedes(heap[l]) { m = r }
                guard heap[m].precedes(heap[i]) else { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        return (top.time, top.payload)
    }
}
