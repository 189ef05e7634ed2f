import Foundation

/// One line of a text file with its 1-based number (line ending removed).
public struct TextLine: Sendable, Equatable {
    /// 1-based line number.
    public var number: Int
    /// The line's text, without CR/LF.
    public var text: String
}

/// Splits a UTF-8 text file into lines, validating the encoding line by line.
public enum TextLines {
    /// All lines of `bytes`, keeping blank ones; invalid UTF-8 is a located error.
    /// Under `.lenient`, invalid lines are skipped and counted in `report`.
    public static func read(
        _ bytes: [UInt8], file: String, policy: LoadPolicy = .strict,
        report: inout LoadReport
    ) throws(DataError) -> [TextLine] {
        var out: [TextLine] = []
        var start = 0
        var number = 1
        let n = bytes.count
        if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var i = start
        while i <= n {
            if i == n || bytes[i] == UInt8(ascii: "\n") {
                var end = i
                if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if !(i == n && start == n) {
                    if let s = validatedUTF8(bytes[start..<end]) {
                        out.append(TextLine(number: number, text: s))
                    } else {
                        let e = DataError.invalidUTF8(file: file, line: number, field: nil)
                        guard policy == .lenient else { throw e }
                        report.record(e)
                    }
                }
                number += 1
                start = i + 1
            }
            i += 1
        }
        return out
    }

    /// The whole of `bytes` as one string (a leading byte-order mark dropped); invalid UTF-8 is a
    /// `DataError.invalidUTF8` naming the line of the first bad byte, never a silent U+FFFD.
    public static func decode(_ bytes: [UInt8], file: String) throws(DataError) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        if let text = validatedUTF8(body) { return text }
        var report = LoadReport()
        _ = try read(Array(body), file: file, policy: .strict, report: &report)
        // `read` validates line by line, so it throws above; this is the same fault without a line.
        throw .invalidUTF8(file: file, line: 1, field: nil)
    }

    /// Convenience reading `url` and returning its non-empty lines.
    public static func nonEmpty(
        _ url: URL, displayName: String? = nil, policy: LoadPolicy = .strict,
        report: inout LoadReport
    ) throws(DataError) -> [TextLine] {
        let name = displayName ?? url.path
        let bytes = try readFileBytes(url, displayName: name)
        return try read(bytes, file: name, policy: policy, report: &report)
            .filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}

extension String {
    /// The string without leading and trailing whitespace (`CharacterSet.whitespaces`).
    /// Fields that start and end with a visible ASCII character — nearly all of them — are
    /// returned as they are without a call into Foundation. O(1) on that path.
    public var trimmedOfWhitespace: String {
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last else { return self }
        if (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last) { return self }
        return trimmingCharacters(in: .whitespaces)
    }
}

/// Free text (a tweet) holds no NUL byte: a valid UTF-8 character, but one that no tweet has and that
/// C-string consumers of the text would cut it at, so a file holding one is refused at its line.
public enum NULCheck {
    /// Throws `DataError.invalidField` at the line of the first NUL byte of `bytes`, counting the
    /// first byte as line `firstLine` (LF, CRLF and bare CR each end a line). O(n); no allocation.
    public static func refuse(_ bytes: [UInt8], file: String, firstLine: Int = 1, field: String) throws(DataError) {
        guard
            let at = bytes.withUnsafeBytes({ raw -> Int? in
                guard let base = raw.baseAddress, let hit = memchr(base, 0, raw.count) else { return nil }
                return base.distance(to: UnsafeRawPointer(hit))
            })
        else { return }
        var line = firstLine
        var i = 0
        while i < at {
            if bytes[i] == UInt8(ascii: "\n") || (bytes[i] == UInt8(ascii: "\r") && bytes[i + 1] != UInt8(ascii: "\n"))
            {
                line += 1
            }
            i += 1
        }
        throw .invalidField(
            file: file, line: line, field: field, value: "",
            reason: "holds a NUL byte (U+0000), which no tweet text has; remove it (e.g. tr -d '\\000')")
    }
}
