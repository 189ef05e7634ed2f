import FieldtestData

/// Locale-independent number formatting shared by every report.
public enum FieldtestNumber {
    /// At most 10 significant digits, no trailing zeros, `.` as decimal separator.
    public static func format(_ v: Double) -> String { CSVWriter.number(v) }
}
