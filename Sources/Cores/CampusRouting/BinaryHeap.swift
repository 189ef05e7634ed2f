/// A binary min-heap of `(key, value)` pairs with a deterministic total order:
/// equal keys come out in increasing `value` order. Push and pop are O(log n) (Williams 1964).
public struct BinaryHeap: Sendable {
    @usableFromInline var keys: [Double] = []
    @usableFromInline var values: [Int32] = []

    /// Creates an empty heap.
    public init() {}

    /// Number of entries.
    public var count: Int { keys.count }
    /// Whether the heap is empty.
    public var isEmpty: Bool { keys.isEmpty }

    /// Removes every entry, keeping capacity.
    public mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    @inline(__always) @usableFromInline
    func less(_ i: Int, _ j: Int) -> Bool {
        keys[i] < keys[j] || (keys[i] == keys[j] && values[i] < values[j])
    }

    /// Inserts `value` with priority `key`. O(log n).
    public mutating func push(_ key: Double, _ value: Int32) {
        keys.append(key)
        values.append(value)
        var i = keys.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            guard less(i, p) else { break }
            keys.swapAt(i, p)
            values.swapAt(i, p)
            i = p
        }
    }

    /// Removes and returns the entry with the smallest key. O(log n).
    public mutating func pop() -> (key: Double, value: Int32)? {
        guard let topKey = keys.first, let topValue = values.first else { return nil }
        let lastKey = keys.removeLast()
        let lastValue = values.removeLast()
        if !keys.isEmpty {
            keys[0] = lastKey
            values[0] = lastValue
            var i = 0
            let n = keys.count
            while true {
                let l = 2 * i + 1
                if l >= n { break }
                var c = l
                if l + 1 < n, less(l + 1, l) { c = l + 1 }
                guard less(c, i) else { break }
                keys.swapAt(i, c)
                values.swapAt(i, c)
                i = c
            }
        }
        return (topKey, topValue)
    }
}
