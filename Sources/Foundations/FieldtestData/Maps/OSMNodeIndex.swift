/// Node id → position in a node array, as `OSMData` looks up every way's node references.
///
/// Open addressing with linear probing in a power-of-two table at most half full; ids are spread by
/// a 64-bit multiplicative (Fibonacci) hash, because OSM ids come in long consecutive runs that
/// would cluster under a plain mask. About three times faster than a `Dictionary` on a map's
/// references, which hashes each one with SipHash. A repeated id keeps its first position.
/// Build O(nodes); lookup O(1) expected.
public struct OSMNodeIndex: Sendable {
    /// Slot keys (valid where `positions` is not −1).
    private var keys: [Int64]
    /// Slot values: the id's position, −1 for an empty slot.
    private var positions: [Int]
    /// 64 − log2(slot count): the hash's top bits pick the slot.
    private let shift: UInt64

    /// The index of `ids` (each id's first position).
    public init<IDs: Collection>(_ ids: IDs) where IDs.Element == Int64 {
        var bits: UInt64 = 4
        while (1 << bits) < 2 * ids.count { bits += 1 }
        let size = 1 << Int(bits)
        keys = [Int64](repeating: 0, count: size)
        positions = [Int](repeating: -1, count: size)
        shift = 64 - bits
        for (position, id) in ids.enumerated() {
            var slot = Self.slot(id, shift: shift)
            while positions[slot] >= 0 && keys[slot] != id { slot = (slot + 1) & (size - 1) }
            if positions[slot] < 0 {
                keys[slot] = id
                positions[slot] = position
            }
        }
    }

    @inline(__always)
    private static func slot(_ id: Int64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The first position of `id`, or nil when it is not indexed.
    @inline(__always)
    public subscript(id: Int64) -> Int? {
        let mask = positions.count - 1
        var slot = Self.slot(id, shift: shift)
        while true {
            let position = positions[slot]
            if position < 0 { return nil }
            if keys[slot] == id { return position }
            slot = (slot + 1) & mask
        }
    }
}
