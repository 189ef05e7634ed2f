/// Comparison whose running time does not depend on where two byte strings differ.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. Runs in time depending only on the lengths:
    /// every byte pair is XOR-ed into an accumulator, with no early exit. O(n).
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) {
            difference |= x ^ y
        }
        return difference == 0
    }
}
