import Foundation

/// Writes files so that readers never see a half-written result: the bytes go
/// to a temporary file in the same folder, which is then renamed over the target.
public enum AtomicFile {
    /// Writes `data` to `url` atomically, creating the parent folder if needed.
    public static func write(_ data: Data, to url: URL) throws(DataError) {
        let fm = FileManager.default
        let dir = url.deletingLastPathComponent()
        do {
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            let tmp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
            try data.write(to: tmp)
            // rename(2) replaces the target atomically within one file system.
            if rename(tmp.path, url.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? fm.removeItem(at: tmp)
                throw DataError.unreadable(file: url.path, reason: "cannot write: \(reason)")
            }
        } catch let error as DataError {
            throw error
        } catch {
            throw .unreadable(file: url.path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    /// Writes `text` as UTF-8 to `url` atomically.
    public static func write(_ text: String, to url: URL) throws(DataError) {
        try write(Data(text.utf8), to: url)
    }
}

/// Builds RFC 4180 CSV text: fields holding `,` `"` CR or LF are quoted,
/// numbers are formatted without locale.
public struct CSVWriter: Sendable {
    /// The text written so far.
    public private(set) var text: String = ""

    public init() {}

    /// Appends one record.
    public mutating func row(_ fields: [String]) {
        for (i, field) in fields.enumerated() {
            if i > 0 { text.append(",") }
            text.append(Self.escape(field))
        }
        text.append("\n")
    }

    /// Quotes `field` when it holds a separator, quote or line break.
    public static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Locale-independent number text that reads back to exactly the same Double
    /// (the shortest round-trip form; integers without a fraction). Used where
    /// values are compared later, such as metric reports and baselines.
    public static func exactNumber(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Locale-independent number text with at most `significantDigits` digits,
    /// no exponent for ordinary magnitudes, and no trailing zeros.
    public static func number(_ value: Double, significantDigits: Int = 10) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var s = String(format: "%.\(significantDigits)g", value)
        if s.contains("e") { return s }
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
}
