import HeapModule

/// A min-priority queue of timed events with a total order `(time, sequence)`:
/// events at the same virtual time leave in the order they were scheduled, so
/// a run is fully deterministic. swift-collections' `Heap` gives equal elements
/// in no particular order, so the sequence number is part of each entry's
/// comparison and no two entries are ever equal. Push and pop are O(log n).
public struct EventQueue<Payload> {
    /// One scheduled event; ordered by time, then by scheduling order.
    @usableFromInline
    struct Entry: Comparable {
        @usableFromInline var time: Double
        @usableFromInline var sequence: UInt64
        @usableFromInline var payload: Payload

        @inlinable init(time: Double, sequence: UInt64, payload: Payload) {
            self.time = time
            self.sequence = sequence
            self.payload = payload
        }

        @inlinable static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.time < rhs.time || (lhs.time == rhs.time && lhs.sequence < rhs.sequence)
        }

        @inlinable static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.time == rhs.time && lhs.sequence == rhs.sequence
        }
    }

    @usableFromInline var heap = Heap<Entry>()
    @usableFromInline var nextSequence: UInt64 = 0

    /// An empty queue.
    public init() {}

    /// Number of pending events.
    @inlinable public var count: Int { heap.count }
    /// Whether no event is pending.
    @inlinable public var isEmpty: Bool { heap.isEmpty }
    /// Time of the next event (seconds), if any.
    @inlinable public var nextTime: Double? { heap.min?.time }

    /// Adds an event at `time` (seconds). O(log n).
    @inlinable public mutating func push(at time: Double, _ payload: Payload) {
        heap.insert(Entry(time: time, sequence: nextSequence, payload: payload))
        nextSequence &+= 1
    }

    /// Removes and returns the earliest event. O(log n).
    @inlinable public mutating func pop() -> (time: Double, payload: Payload)? {
        heap.popMin().map { ($0.time, $0.payload) }
    }
}
