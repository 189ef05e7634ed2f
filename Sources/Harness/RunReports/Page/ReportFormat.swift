import Foundation

/// Numbers as a reader wants them: with their unit and a sensible precision (`126 ms`, `0.97`, `3 s`).
public enum ReportFormat {
    /// `value` in `unit`: seconds below one shown in ms or µs, counts as integers, others to `digits`
    /// significant digits.
    public static func value(_ value: Double, unit: String, digits: Int = 3) -> String {
        guard value.isFinite else { return value.isNaN ? "n/a" : (value > 0 ? "∞" : "−∞") }
        switch unit {
        case "s":
            let a = abs(value)
            if a == 0 { return "0 s" }
            if a < 1e-3 { return significant(value * 1e6, digits) + " µs" }
            if a < 1 { return significant(value * 1e3, digits) + " ms" }
            return significant(value, digits) + " s"
        case "count":
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : significant(value, digits)
        case "ratio", "", "correlation":
            return significant(value, digits)
        default:
            return significant(value, digits) + " " + unit
        }
    }

    /// `value` to `digits` significant digits, without trailing zeros or exponent for everyday magnitudes.
    public static func significant(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return String(value) }
        if value == 0 { return "0" }
        let magnitude = Int((log10(abs(value))).rounded(.down))
        if magnitude >= 15 || magnitude < -6 { return String(format: "%.\(max(0, digits - 1))e", value) }
        let decimals = max(0, digits - 1 - magnitude)
        var s = String(format: "%.\(decimals)f", value)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    /// A duration, seconds: `850 ms`, `11.8 s`, `4 min 12 s`, `1 h 3 min`.
    public static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return value(seconds, unit: "s") }
        if seconds < 60 { return significant(seconds, 3) + " s" }
        let s = Int(seconds.rounded())
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \((s % 3600) / 60) min"
    }

    /// A threshold as text: comparator and value, e.g. `≤ 200 ms`.
    public static func threshold(_ comparator: String, _ value: Double?, unit: String) -> String {
        guard let value, !comparator.isEmpty else { return "" }
        let symbol = ["<=": "≤", ">=": "≥", "==": "="][comparator] ?? comparator
        return symbol + " " + Self.value(value, unit: unit)
    }

    /// `text` made safe for an `id` or `href` fragment: letters, digits, `-` and `_` (others become `-`).
    public static func anchor(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
    }
}
