import FieldtestData
import Foundation

/// A validated scenario value with the position it came from.
public struct LocatedValue: Sendable {
    /// The value.
    public var value: YAMLValue
    /// 1-based line of the value in its file.
    public var line: Int
    /// 1-based column.
    public var column: Int

    /// The string, if this is one.
    public var string: String? { if case .string(let s) = value { return s } else { return nil } }
    /// The number, if this is an integer or a number.
    public var double: Double? {
        switch value {
        case .double(let d): return d
        case .int(let i): return Double(i)
        case .unsigned(let u): return Double(u)
        default: return nil
        }
    }
    /// The integer, if this is one that fits an `Int`.
    public var int: Int? {
        switch value {
        case .int(let i): return i
        case .unsigned(let u): return Int(exactly: u)
        default: return nil
        }
    }
    /// The integer, if this is one from 0 to `UInt64.max`.
    public var unsigned: UInt64? {
        switch value {
        case .int(let i): return UInt64(exactly: i)
        case .unsigned(let u): return u
        default: return nil
        }
    }
    /// The boolean, if this is one.
    public var bool: Bool? { if case .bool(let b) = value { return b } else { return nil } }
    /// The items, if this is a list.
    public var array: [LocatedValue]? { if case .array(let a) = value { return a } else { return nil } }
    /// The keys and values, if this is a mapping.
    public var object: [(key: String, value: LocatedValue)]? {
        if case .object(let o) = value { return o } else { return nil }
    }
    /// The value under `key` of a mapping.
    public subscript(key: String) -> LocatedValue? { object?.first { $0.key == key }?.value }

    /// A scalar rendered as text (for sweep parameters and free values).
    public var scalarText: String? {
        switch value {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .unsigned(let u): return String(u)
        case .double(let d): return String(d)
        case .bool(let b): return b ? "true" : "false"
        case .array, .object: return nil
        }
    }
}

/// The values a scenario file can hold after validation. Durations and
/// timestamps are converted to seconds (`double`).
public indirect enum YAMLValue: Sendable {
    case string(String)
    case int(Int)
    /// A whole number from 0 to `UInt64.max` (seeds).
    case unsigned(UInt64)
    case double(Double)
    case bool(Bool)
    case array([LocatedValue])
    case object([(key: String, value: LocatedValue)])
}

/// Parses durations: a number of seconds, or text made of `<number><unit>`
/// parts with units `ms`, `s`, `m`, `h`, `d` (e.g. `1h30m`, `80s`).
public enum DurationText {
    /// `seconds` for a message: `90 s`, `0.5 s`, `1e+300 s`.
    public static func describe(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// Seconds (finite, at least 0), or nil when the text is not a duration
    /// (`inf`, `nan` and values too large for a `Double` are not durations).
    public static func seconds(_ text: String) -> Double? {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let v = Double(s) { return v >= 0 && v.isFinite ? v : nil }
        var total = 0.0
        var number = ""
        var unit = ""
        var parts = 0
        func flush() -> Bool {
            guard let v = Double(number), !unit.isEmpty else { return false }
            let scale: Double
            switch unit {
            case "ms": scale = 0.001
            case "s": scale = 1
            case "m", "min": scale = 60
            case "h": scale = 3600
            case "d": scale = 86400
            default: return false
            }
            total += v * scale
            number = ""
            unit = ""
            parts += 1
            return true
        }
        for c in s {
            if c.isNumber || c == "." {
                if !unit.isEmpty { guard flush() else { return nil } }
                number.append(c)
            } else if c.isLetter {
                guard !number.isEmpty else { return nil }
                unit.append(c)
            } else {
                return nil
            }
        }
        guard flush(), parts > 0, total.isFinite else { return nil }
        return total
    }
}

/// Parses ISO 8601 / RFC 3339 instants with an explicit zone, to seconds since 1970 (UTC).
///
/// Strict: `YYYY-MM-DDThh:mm:ss[.f…](Z|±hh:mm)` naming a day that exists in the proleptic Gregorian
/// calendar (no `2021-02-30`, no `2023-02-29`), hours 00–23, minutes and seconds 00–59 and an offset of at
/// most ±23:59. Foundation's `ISO8601DateFormatter` rolls impossible days over into the next month,
/// so it is not used here.
public enum TimestampText {
    /// Seconds since the Unix epoch, or nil when `text` is not such an instant.
    public static func seconds(_ text: String) -> Double? {
        let b = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var v = 0
            for c in b[start..<start + count] {
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(c - UInt8(ascii: "0"))
            }
            return v
        }
        func at(_ i: Int, _ chars: String) -> Bool { i < b.count && chars.utf8.contains(b[i]) }
        guard b.count >= 20, let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"),
            let day = number(8, 2), at(10, "Tt"), let hour = number(11, 2), at(13, ":"),
            let minute = number(14, 2), at(16, ":"), let second = number(17, 2),
            let date = CivilDate(year: year, month: month, day: day), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var i = 19
        var fraction = 0.0
        if at(i, ".") {
            var scale = 0.1
            i += 1
            let first = i
            while let d = number(i, 1) {
                fraction += Double(d) * scale
                scale /= 10
                i += 1
            }
            guard i > first else { return nil }
        }
        var offsetSeconds = 0
        if at(i, "Zz") {
            i += 1
        } else if at(i, "+-"), let oh = number(i + 1, 2), at(i + 3, ":"), let om = number(i + 4, 2), oh <= 23, om <= 59
        {
            offsetSeconds = (b[i] == UInt8(ascii: "-") ? -1 : 1) * (oh * 3600 + om * 60)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let local = CivilTime.epochSeconds(date, hour: hour, minute: minute, second: second)
        return Double(local - offsetSeconds) + fraction
    }
}
