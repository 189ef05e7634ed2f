/// Numbers written straight into output bytes as the same characters as their `description`,
/// without a `String` per number: a batch of routes writes hundreds of thousands of node ids and
/// coordinates. A list of numbers is written in one pass into scratch memory and appended at once.
public enum DecimalText {
    /// The most bytes one number's text takes: `Int64.min` is 20, a double's `description` at most 24.
    static let maximumBytes = 32

    /// Appends `value`'s base-10 digits, with a leading `-` when negative: `String(value)`'s bytes.
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        appendWritten(maximumBytes, to: &bytes) { write(value, to: $0) }
    }

    /// Appends `value.description`'s bytes (see `write(_:to:)` for doubles).
    public static func append(_ value: Double, to bytes: inout [UInt8]) {
        appendWritten(maximumBytes, to: &bytes) { write(value, to: $0) }
    }

    /// Appends each value's text (`append(_:to:)`), `separator` between two.
    public static func append(_ values: [Int64], separator: UInt8, to bytes: inout [UInt8]) {
        guard !values.isEmpty else { return }
        appendWritten(values.count * (maximumBytes + 1), to: &bytes) { start in
            var p = start
            for (k, v) in values.enumerated() {
                if k > 0 {
                    p.pointee = separator
                    p += 1
                }
                p += write(v, to: p)
            }
            return p - start
        }
    }

    /// Appends each point as its latitude's and longitude's texts (`append(_:to:)`) with a space
    /// between them, `separator` between two points.
    public static func append(_ points: [GeoPoint], separator: UInt8, to bytes: inout [UInt8]) {
        guard !points.isEmpty else { return }
        appendWritten(points.count * (2 * maximumBytes + 2), to: &bytes) { start in
            var p = start
            for (k, point) in points.enumerated() {
                if k > 0 {
                    p.pointee = separator
                    p += 1
                }
                p += write(point.latitude, to: p)
                p.pointee = 0x20
                p += 1
                p += write(point.longitude, to: p)
            }
            return p - start
        }
    }

    /// Appends what `body` writes into scratch memory of `capacity` bytes (it returns the count).
    private static func appendWritten(
        _ capacity: Int, to bytes: inout [UInt8], _ body: (UnsafeMutablePointer<UInt8>) -> Int
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let count = body(buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: count))
        }
    }

    /// Writes `String(value)`'s bytes at `p` (room for `maximumBytes`); returns their count.
    static func write(_ value: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        guard value < 0 else { return writeDigits(value.magnitude, to: p) }
        p.pointee = 0x2D
        return 1 + writeDigits(value.magnitude, to: p + 1)
    }

    /// Writes `value.description`'s bytes at `p` (room for `maximumBytes`); returns their count.
    ///
    /// A value of magnitude 10⁻⁴…10⁶ that is exactly the double nearest a decimal with at most seven
    /// places (as coordinates read from OSM are) is written from that decimal: the division by 10⁷ is
    /// correctly rounded, so when it gives `value` back, the decimal reads back as `value`, and no
    /// shorter decimal can (any other one of at most seven places lies 10⁻⁷ away, far more than the
    /// spacing of doubles below 10⁶), which is what `description`'s shortest round-trip digits are.
    /// Any other value goes through `description`.
    static func write(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = value.magnitude
        if magnitude >= 1e-4, magnitude < 1e6 {
            let scaled = (magnitude * 1e7).rounded()
            if scaled / 1e7 == magnitude {
                return writeSevenPlaces(UInt64(scaled), negative: value < 0, to: p)
            }
        }
        var count = 0
        for b in value.description.utf8 {
            p[count] = b
            count += 1
        }
        return count
    }

    /// Writes `units` ÷ 10⁷ with its trailing zeros dropped (at least one place), after a `-` when
    /// `negative`; returns the count.
    private static func writeSevenPlaces(_ units: UInt64, negative: Bool, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        if negative {
            p.pointee = 0x2D
            count = 1
        }
        count += writeDigits(units / 10_000_000, to: p + count)
        p[count] = 0x2E
        count += 1
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
        var i = count + places
        while i > count {
            i -= 1
            p[i] = 0x30 + UInt8(fraction % 10)
            fraction /= 10
        }
        return count + places
    }

    /// Writes the decimal digits of `value` (no sign) at `p`; returns their count.
    private static func writeDigits(_ value: UInt64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        var v = value
        var i = count
        repeat {
            i -= 1
            p[i] = 0x30 + UInt8(v % 10)
            v /= 10
        } while i > 0
        return count
    }
}
