import FieldtestData
import Foundation
import Testing

/// `DecimalText` writes exactly the characters of `String(_:)` and `description`.
@Suite("Decimal text")
struct DecimalTextTests {
    static func text(_ v: Int64) -> String {
        var bytes: [UInt8] = []
        DecimalText.append(v, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func text(_ v: Double) -> String {
        var bytes: [UInt8] = []
        DecimalText.append(v, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("integers: the digits of String(_:), extremes included")
    func integers() {
        var rng = SeededGenerator(seed: 5)
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1, 1_000_000_007]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...19, using: &rng)
            let bound = digits == 19 ? Int64.max : Int64(pow(10, Double(digits)))
            values.append(Int64.random(in: -bound...bound, using: &rng))
        }
        for v in values { #expect(Self.text(v) == String(v), "\(v)") }
    }

    @Test("doubles: description's characters, on decimals of up to seven places and on any bits")
    func doubles() throws {
        var rng = SeededGenerator(seed: 6)
        var values: [Double] = [
            0, -0.0, 1, -1, 24, -180, 180, 90, 0.5, -0.5, 1e-4, -1e-4, 9.9999999e-5, 1e-5, 0.0001234567,
            999_999.9999999, 1e6, -1e6, 123_456.7, 60.1706792, 24.9402522, 0.1, 0.2, 0.3, 1e-7, 5e-324, .infinity,
            -.infinity, .nan, .greatestFiniteMagnitude, 1e15, 1e16, 12.34567891,
        ]
        for _ in 0..<30_000 {
            // A decimal of up to seven places, read as OSM coordinates are.
            let places = Int.random(in: 0...7, using: &rng)
            let whole =
                Int.random(in: -999_999...999_999, using: &rng)
                / [1, 10, 1000, 100_000][Int.random(in: 0...3, using: &rng)]
            let fraction = Int.random(in: 0..<Int(pow(10, Double(places))), using: &rng)
            let text =
                places == 0
                ? "\(whole)" : "\(whole).\(String(repeating: "0", count: places - String(fraction).count))\(fraction)"
            values.append(try #require(Double(text), "\(text)"))
            // Any bits in and around the fast path's range.
            values.append(Double.random(in: -2e6...2e6, using: &rng))
            values.append(Double.random(in: -1e-3...1e-3, using: &rng))
            values.append(Double(bitPattern: rng.next()))
            // Neighbours of a seven-place decimal: not it, so described in full.
            let d = try #require(Double(String(format: "%.7f", Double.random(in: -180...180, using: &rng))))
            values.append(d.nextUp)
            values.append(d.nextDown)
        }
        for v in values { #expect(Self.text(v) == v.description, "\(v.bitPattern)") }
    }

    @Test("lists: each number's text, separated, appended after what is there")
    func lists() {
        var rng = SeededGenerator(seed: 7)
        for count in [0, 1, 2, 40, 3000] {
            let ids = (0..<count).map { _ in Int64.random(in: Int64.min...Int64.max, using: &rng) }
            let points = (0..<count).map { k in
                k % 7 == 3
                    ? GeoPoint(latitude: Double(bitPattern: rng.next()), longitude: -0.0)
                    : GeoPoint(
                        latitude: Double(Int.random(in: -900_000_000...900_000_000, using: &rng)) / 1e7,
                        longitude: Double.random(in: -180...180, using: &rng))
            }
            var bytes = Array("x,".utf8)
            DecimalText.append(ids, separator: 0x3B, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "x," + ids.map(String.init).joined(separator: ";"))
            bytes = Array("y,".utf8)
            DecimalText.append(points, separator: 0x3B, to: &bytes)
            #expect(
                String(decoding: bytes, as: UTF8.self)
                    == "y,"
                    + points.map { "\($0.latitude.description) \($0.longitude.description)" }.joined(separator: ";"))
        }
    }
}
