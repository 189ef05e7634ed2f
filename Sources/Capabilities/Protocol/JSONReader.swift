import FieldtestData
import Foundation

/// Why a line is not JSON: what was expected, and the byte offset where it was not found.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset in the line.
    public var offset: Int
    /// What the reader expected there.
    public var expected: String
    /// The key that repeats in an object, when that is what is wrong.
    public var repeatedKey: String?

    public var description: String { "not JSON at byte \(offset): expected \(expected)" }
}

/// Reads one JSON text (RFC 8259) from bytes into `JSONField`s in a single pass.
///
/// The protocol's lines are read by this rather than Foundation's `JSONSerialization` or
/// `JSONDecoder`: an answer of 1,000 rows is parsed once, with no bridging to `NSDictionary` and no
/// second pass for the envelope, which costs a fraction of a microsecond a row instead of several.
/// Integers without fraction or exponent that fit an `Int` are `.int`; other numbers `.number`.
/// Strictly UTF-8 (RFC 8259 §8.1): an invalid byte sequence or a lone surrogate escape (`\ud800`) is
/// an error, never a silent U+FFFD, and so is a number too large for a `Double` (`1e999`).
public enum JSONReader {
    /// Nesting deeper than this is refused (a hostile line must not exhaust the stack).
    static let maximumDepth = 256

    /// The value of `bytes`, which must hold one JSON text and nothing else but whitespace.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONReadError) -> JSONField {
        let result: Result<JSONField, JSONReadError>? = bytes.withContiguousStorageIfAvailable { parse(buffer: $0) }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parse(buffer: $0) }.get()
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONField, JSONReadError> {
        var reader = Reader(bytes: buffer)
        do throws(JSONReadError) {
            reader.skipSpace()
            let value = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.at == buffer.count else { throw reader.error("the end of the line") }
            return .success(value)
        } catch { return .failure(error) }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        func error(_ expected: String) -> JSONReadError { JSONReadError(offset: at, expected: expected) }

        mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x09, 0x0A, 0x0D: at += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(JSONReadError) -> JSONField {
            guard at < bytes.count else { throw error("a value") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                guard depth < JSONReader.maximumDepth else { throw error("less nesting") }
                return .object(try object(depth: depth + 1))
            case UInt8(ascii: "["):
                guard depth < JSONReader.maximumDepth else { throw error("less nesting") }
                return .array(try array(depth: depth + 1))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("a value")
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONField) throws(JSONReadError) -> JSONField {
            let n = word.utf8CodeUnitCount
            guard at + n <= bytes.count, memcmp(bytes.baseAddress! + at, word.utf8Start, n) == 0 else {
                throw error("\(word)")
            }
            at += n
            return value
        }

        mutating func object(depth: Int) throws(JSONReadError) -> [(String, JSONField)] {
            at += 1
            var pairs: [(String, JSONField)] = []
            // Answer rows have a handful of fields: one allocation rather than three.
            pairs.reserveCapacity(4)
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                at += 1
                return pairs
            }
            // Keys seen, once an object is large enough that a linear search would cost more.
            var seen: Set<String>?
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("a string key") }
                let keyOffset = at
                let key = try string()
                // A repeated key is refused: readers disagree on which occurrence wins.
                if seen == nil && pairs.count >= 16 { seen = Set(pairs.map(\.0)) }
                let repeated: Bool
                if seen != nil {
                    repeated = !seen!.insert(key).inserted
                } else {
                    repeated = pairs.contains { $0.0 == key }
                }
                if repeated {
                    var e = JSONReadError(
                        offset: keyOffset, expected: "a key that is not repeated ('\(key.prefix(64))' is)")
                    e.repeatedKey = key
                    throw e
                }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("':'") }
                at += 1
                skipSpace()
                pairs.append((key, try value(depth: depth)))
                skipSpace()
                guard at < bytes.count else { throw error("',' or '}'") }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                } else if bytes[at] == UInt8(ascii: "}") {
                    at += 1
                    return pairs
                } else {
                    throw error("',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws(JSONReadError) -> [JSONField] {
            at += 1
            var items: [JSONField] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                at += 1
                return items
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth))
                skipSpace()
                guard at < bytes.count else { throw error("',' or ']'") }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                } else if bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return items
                } else {
                    throw error("',' or ']'")
                }
            }
        }

        /// A string literal; the common case, no escapes, is one scan and one copy.
        mutating func string() throws(JSONReadError) -> String {
            at += 1
            let first = at
            var high: UInt8 = 0
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    let text = UnsafeBufferPointer(rebasing: bytes[first..<at])
                    if high >= 0x80 { try checkUTF8(text, from: first) }
                    let s = String(decoding: text, as: UTF8.self)
                    at += 1
                    return s
                }
                if b == UInt8(ascii: "\\") { break }
                guard b >= 0x20 else { throw error("no control character in a string") }
                high |= b
                at += 1
            }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[first..<at]))
            while at < bytes.count {
                let b = bytes[at]
                switch b {
                case UInt8(ascii: "\""):
                    if high >= 0x80, let bad = out.withUnsafeBytes({ UTF8Check.firstInvalidOffset($0) }) {
                        throw JSONReadError(offset: first + bad, expected: "valid UTF-8")
                    }
                    at += 1
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    at += 1
                    guard at < bytes.count else { throw error("an escape") }
                    let e = bytes[at]
                    at += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "u"): appendScalar(try unicodeEscape(), to: &out)
                    default: throw error("an escape")
                    }
                default:
                    guard b >= 0x20 else { throw error("no control character in a string") }
                    high |= b
                    out.append(b)
                    at += 1
                }
            }
            throw error("the closing '\"'")
        }

        /// The scalar of `\uXXXX` (after the `u`), joining a surrogate pair. A lone surrogate is
        /// an error: it stands for no character, and replacing it would change the text unseen.
        mutating func unicodeEscape() throws(JSONReadError) -> Unicode.Scalar {
            let start = at - 2
            let high = try hex4()
            guard (0xD800..<0xE000).contains(high) else { return Unicode.Scalar(high)! }
            guard high < 0xDC00, at + 6 <= bytes.count, bytes[at] == UInt8(ascii: "\\"),
                bytes[at + 1] == UInt8(ascii: "u")
            else { throw JSONReadError(offset: start, expected: "no lone surrogate escape (\\uD800–\\uDFFF)") }
            at += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw JSONReadError(offset: start, expected: "no lone surrogate escape (\\uD800–\\uDFFF)")
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }

        /// Throws at the first byte of `text` (which starts at offset `from`) that is not UTF-8.
        func checkUTF8(_ text: UnsafeBufferPointer<UInt8>, from: Int) throws(JSONReadError) {
            guard let bad = UTF8Check.firstInvalidOffset(UnsafeRawBufferPointer(text)) else { return }
            throw JSONReadError(offset: from + bad, expected: "valid UTF-8")
        }

        mutating func hex4() throws(JSONReadError) -> UInt32 {
            guard at + 4 <= bytes.count else { throw error("four hex digits") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[at]
                let d: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
                default: throw error("four hex digits")
                }
                v = v << 4 | UInt32(d)
                at += 1
            }
            return v
        }

        func appendScalar(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
            out.append(contentsOf: UTF8.encode(scalar)!)
        }

        /// A number. Up to 15 significant digits with a power of ten within ±22 are exact in
        /// binary arithmetic (Clinger's fast path); longer ones go to `strtod`.
        mutating func number() throws(JSONReadError) -> JSONField {
            let first = at
            var negative = false
            if bytes[at] == UInt8(ascii: "-") {
                negative = true
                at += 1
            }
            var mantissa: UInt64 = 0
            var digits = 0
            var scale = 0
            let intStart = at
            while at < bytes.count, case let d = bytes[at] &- UInt8(ascii: "0"), d < 10 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d) } else { scale += 1 }
                if mantissa > 0 || d > 0 { digits += 1 }
                at += 1
            }
            guard at > intStart else { throw error("a digit") }
            guard bytes[intStart] != UInt8(ascii: "0") || at == intStart + 1 else { throw error("no leading zero") }
            var integral = true
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                integral = false
                at += 1
                let fracStart = at
                while at < bytes.count, case let d = bytes[at] &- UInt8(ascii: "0"), d < 10 {
                    if digits < 19 {
                        mantissa = mantissa &* 10 &+ UInt64(d)
                        scale -= 1
                        if mantissa > 0 { digits += 1 }
                    }
                    at += 1
                }
                guard at > fracStart else { throw error("a digit after '.'") }
            }
            var exponent = 0
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                integral = false
                at += 1
                var expNegative = false
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") {
                    expNegative = bytes[at] == UInt8(ascii: "-")
                    at += 1
                }
                let expStart = at
                while at < bytes.count, case let d = bytes[at] &- UInt8(ascii: "0"), d < 10 {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(d) }
                    at += 1
                }
                guard at > expStart else { throw error("a digit in the exponent") }
                if expNegative { exponent = -exponent }
            }
            if integral, digits <= 18 {
                let v = Int(mantissa)
                return .int(negative ? -v : v)
            }
            let power = scale + exponent
            if digits <= 15, abs(power) <= 22 {
                let m = Double(mantissa)
                let v = power < 0 ? m / Self.powers[-power] : m * Self.powers[power]
                return .number(negative ? -v : v)
            }
            // Rare: long mantissas or large exponents, parsed exactly by the C library.
            var text = Array(UnsafeBufferPointer(rebasing: bytes[first..<at]))
            text.append(0)
            let v = text.withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { strtod($0, nil) }
            }
            guard v.isFinite else {
                throw JSONReadError(offset: first, expected: "a number within ±1.7976931348623157e308")
            }
            return .number(v)
        }

        static let powers: [Double] = (0...22).map { pow(10, Double($0)) }
    }
}

extension JSONField {
    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as a `Double` (an integer too), if this is one.
    public var doubleValue: Double? {
        switch self {
        case .number(let d): d
        case .int(let i): Double(i)
        default: nil
        }
    }

    /// The number as an `Int` when it is a whole number in range, if this is one.
    public var intValue: Int? {
        switch self {
        case .int(let i): i
        case .number(let d): Int(exactly: d)
        default: nil
        }
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The object's fields in order, if this is an object.
    public var objectFields: [(String, JSONField)]? {
        if case .object(let pairs) = self { return pairs }
        return nil
    }

    /// The value of the first field named `key`, if this is an object holding one.
    public subscript(key: String) -> JSONField? {
        guard case .object(let pairs) = self else { return nil }
        for (k, v) in pairs where k == key { return v }
        return nil
    }
}

/// A request row as a served core sees it: its fields by name.
public struct JSONObject: Sendable {
    /// The fields in the order they came.
    public let fields: [(String, JSONField)]
    /// Field positions by name, for rows too wide to search (a fingerprint's 520 `WAPnnn` fields).
    private let index: [String: Int]?

    /// An object of `fields`.
    public init(_ fields: [(String, JSONField)]) {
        self.fields = fields
        if fields.count > 16 {
            var index = [String: Int](minimumCapacity: fields.count)
            for (i, (key, _)) in fields.enumerated() where index[key] == nil { index[key] = i }
            self.index = index
        } else {
            index = nil
        }
    }

    /// The value of the field `key` (the first, if repeated).
    public subscript(key: String) -> JSONField? {
        if let index { return index[key].map { fields[$0].1 } }
        for (k, v) in fields where k == key { return v }
        return nil
    }
}
