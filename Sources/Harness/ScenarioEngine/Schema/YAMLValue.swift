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

/// Parses ISO 8601 instants with an explicit zone, to seconds since 1970 (UTC).
public enum TimestampText {
    /// Seconds since the Unix epoch, or nil.
    public static func seconds(_ text: String) -> Double? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        if let d = f.date(from: text) { return d.timeIntervalSince1970 }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)?.timeIntervalSince1970
    }
}
