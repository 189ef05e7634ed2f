/// Numbers written straight into output bytes as the same characters as their `description`,
/// without a `String` per number: a batch of routes writes hundreds of thousands of node ids and
/// coordinates.
public enum DecimalText {
    /// Appends `value`'s base-10 digits, with a leading `-` when negative: `String(value)`'s bytes.
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        appendDigits(value.magnitude, to: &bytes)
    }

    /// Appends `value.description`'s bytes. A value of magnitude 10⁻⁴…10⁶ that is exactly the double
    /// nearest a decimal with at most seven places (as coordinates read from OSM are) is written from
    /// that decimal: the division by 10⁷ is correctly rounded, so when it gives `value` back, the
    /// decimal reads back as `value`, and no shorter decimal can (any other one of at most seven
    /// places lies 10⁻⁷ away, far more than the spacing of doubles below 10⁶), which is what
    /// `description`'s shortest round-trip digits are. Any other value goes through `description`.
    public static func append(_ value: Double, to bytes: inout [UInt8]) {
        let magnitude = value.magnitude
        if magnitude >= 1e-4, magnitude < 1e6 {
            let scaled = (magnitude * 1e7).rounded()
            if scaled / 1e7 == magnitude {
                appendSevenPlaces(UInt64(scaled), negative: value < 0, to: &bytes)
                return
            }
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Appends `units` ÷ 10⁷ with its trailing zeros dropped (at least one place), after a `-` when
    /// `negative`. The digits are written right to left into a small buffer and appended at once.
    private static func appendSevenPlaces(_ units: UInt64, negative: Bool, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var start = 32
            var fraction = units % 10_000_000
            var places = 7
            if fraction == 0 {
                places = 1
            } else {
                while fraction % 10 == 0 {
                    fraction /= 10
                    places -= 1
                }
            }
            for _ in 0..<places {
                start -= 1
                buffer[start] = 0x30 + UInt8(fraction % 10)
                fraction /= 10
            }
            start -= 1
            buffer[start] = 0x2E
            var whole = units / 10_000_000
            repeat {
                start -= 1
                buffer[start] = 0x30 + UInt8(whole % 10)
                whole /= 10
            } while whole > 0
            if negative {
                start -= 1
                buffer[start] = 0x2D
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<32]))
        }
    }

    /// Appends the decimal digits of `value` (no sign).
    private static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var v = value
            var start = 20
            repeat {
                start -= 1
                buffer[start] = 0x30 + UInt8(v % 10)
                v /= 10
            } while v > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<20]))
        }
    }
}
