import Foundation

/// Values as a person reads them on a terminal: a unit scaled to the magnitude and three
/// significant digits (`126 ms`, `21 µs`, `0.97`, `3.2 m`, `1.25 km`). Reports for machines
/// (`metrics.csv`, JUnit, JSON) keep the full-precision numbers of `FieldtestNumber`.
public enum ValueText {
    /// `value` in `unit` for a person: seconds scaled to ns/µs/ms, metres of 1000 or more as km;
    /// `count` and `ratio` shown without a unit; whole numbers in full; otherwise three
    /// significant digits without trailing zeros.
    public static func format(_ value: Double, unit: String) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        switch unit {
        case "s":
            let magnitude = abs(value)
            if magnitude == 0 { return "0 s" }
            if magnitude < 1e-6 { return "\(significant(value * 1e9)) ns" }
            if magnitude < 1e-3 { return "\(significant(value * 1e6)) µs" }
            if magnitude < 1 { return "\(significant(value * 1e3)) ms" }
            return "\(significant(value)) s"
        case "ms":
            return format(value / 1e3, unit: "s")
        case "m":
            return abs(value) >= 1000 ? "\(significant(value / 1000)) km" : "\(significant(value)) m"
        case "count", "ratio", "":
            return significant(value)
        case "%":
            return "\(significant(value)) %"
        default:
            return "\(significant(value)) \(unit)"
        }
    }

    /// `value` with three significant digits (whole numbers of any size in full), no exponent
    /// between 1e-9 and 1e15, no trailing zeros, `.` as the decimal separator.
    public static func significant(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let magnitude = abs(value)
        if magnitude < 1e-9 || magnitude >= 1e15 { return String(format: "%.\(digits)g", value) }
        let exponent = Int(log10(magnitude).rounded(.down))
        let decimals = max(0, digits - 1 - exponent)
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A run's wall-clock time: `850 ms`, `11.8 s`, `4 min 05 s`, `1 h 02 min`.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        if seconds < 60 { return format(seconds, unit: "s") }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d min", whole / 3600, (whole % 3600) / 60)
    }
}

/// The totals of a run or a check, and its closing line:
/// `14 scenarios, 360 rows: 242 passed, 0 failed, 0 not measured, 118 info, 0 regressions in 11.8 s`.
public struct RunTotals: Sendable, Equatable {
    /// Scenarios run (a sweep counts once).
    public var scenarios = 0
    /// Metric rows written.
    public var rows = 0
    /// Rows that passed their threshold.
    public var passed = 0
    /// Rows that failed their threshold.
    public var failed = 0
    /// Informational rows (no threshold).
    public var informational = 0
    /// Checked rows of no sample (`not_measured`).
    public var notMeasured = 0
    /// Rows that regressed against a baseline (0 without one).
    public var regressions = 0
    /// Wall-clock seconds of the whole run.
    public var seconds = 0.0

    /// Empty totals.
    public init() {}

    /// Adds one scenario's row counts and regressions.
    public mutating func add(passed: Int, failed: Int, informational: Int, notMeasured: Int = 0, regressions: Int) {
        scenarios += 1
        rows += passed + failed + informational + notMeasured
        self.passed += passed
        self.failed += failed
        self.informational += informational
        self.notMeasured += notMeasured
        self.regressions += regressions
    }

    /// Adds one scenario's rows and regressions.
    public mutating func add(scenario rows: [MetricRow], regressions: Int) {
        scenarios += 1
        self.rows += rows.count
        passed += rows.filter { $0.status == .pass }.count
        failed += rows.filter { $0.status == .fail }.count
        informational += rows.filter { $0.status == .info }.count
        notMeasured += rows.filter { $0.status == .notMeasured }.count
        self.regressions += regressions
    }

    /// The closing line of a run (without a line break).
    public var line: String {
        "\(scenarios) scenario\(scenarios == 1 ? "" : "s"), \(rows) row\(rows == 1 ? "" : "s"): \(passed) passed, "
            + "\(failed) failed, \(notMeasured) not measured, \(informational) info, \(regressions) regression\(regressions == 1 ? "" : "s") "
            + "in \(ValueText.duration(seconds))"
    }
}

/// When text for people is coloured (`--color`).
public enum ColorMode: String, Sendable, CaseIterable {
    /// Colour on a terminal, unless `NO_COLOR` is set or `TERM=dumb`.
    case auto
    /// Always colour (also into a file or a pipe, and despite `NO_COLOR`).
    case always
    /// Never colour.
    case never
}

/// Colour for a terminal: by default only when the stream is a terminal, `NO_COLOR` is unset or empty
/// (https://no-color.org) and `TERM` is not `dumb`, so files, pipes and CI logs get plain text.
public struct TerminalStyle: Sendable, Equatable {
    /// Whether ANSI colour codes are written.
    public var colour: Bool

    /// A style; `colour` false writes plain text.
    public init(colour: Bool) { self.colour = colour }

    /// The style for a stream under `mode` (`--color`): `always` and `never` as they say; `auto`
    /// colours only when `isTerminal`, `environment` has no non-empty `NO_COLOR` and `TERM` is not `dumb`.
    public static func detect(
        isTerminal: Bool, environment: [String: String], mode: ColorMode = .auto
    ) -> TerminalStyle {
        switch mode {
        case .always: return TerminalStyle(colour: true)
        case .never: return TerminalStyle(colour: false)
        case .auto:
            return TerminalStyle(
                colour: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb")
        }
    }

    /// `text` in red and bold (failures and regressions).
    public func bad(_ text: String) -> String { paint(text, "1;31") }
    /// `text` in green (passes).
    public func good(_ text: String) -> String { paint(text, "32") }
    /// `text` dimmed (informational rows, notes).
    public func dim(_ text: String) -> String { paint(text, "2") }

    private func paint(_ text: String, _ code: String) -> String {
        colour && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
