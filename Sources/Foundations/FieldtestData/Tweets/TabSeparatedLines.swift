import Foundation

/// Walks the non-blank lines of a tab-separated, unquoted UTF-8 file (the VADER,
/// AFINN and TweetEval layouts), handing each line's fields to a validating
/// transform. Invalid UTF-8 and transform errors are located by line; under
/// `.lenient` they are skipped and counted. Complexity: O(n) in the file's bytes.
enum TabSeparatedLines {
    /// Maps each non-blank line of `bytes` through `transform`, which receives
    /// the line and its tab-separated fields (`expectedFields` of them, when given).
    static func load<Record: Sendable>(
        _ bytes: [UInt8], file: String, policy: LoadPolicy,
        expectedFields: Int?,
        _ transform: (TextLine, [Substring]) throws(DataError) -> Record
    ) throws(DataError) -> Loaded<Record> {
        var report = LoadReport()
        let lines = try TextLines.read(bytes, file: file, policy: policy, report: &report)
        var out: [Record] = []
        out.reserveCapacity(lines.count)
        for line in lines where !line.text.allSatisfy({ $0 == " " || $0 == "\t" }) {
            do throws(DataError) {
                let fields = line.text.split(separator: "\t", omittingEmptySubsequences: false)
                if let expectedFields, fields.count != expectedFields {
                    throw .wrongColumnCount(
                        file: file, line: line.number, expected: expectedFields, found: fields.count)
                }
                out.append(try transform(line, fields))
                report.rowsLoaded += 1
            } catch {
                guard policy == .lenient else { throw error }
                report.record(error)
            }
        }
        return Loaded(records: out, report: report)
    }

    /// Parses a bracketed list of integers such as `[2, -1, 0]`, each in `range`.
    static func intList(
        _ raw: Substring, field: String, in range: ClosedRange<Int>, file: String,
        line: Int
    ) throws(DataError) -> [Int] {
        let s = raw.trimmingCharacters(in: .whitespaces)
        guard s.hasPrefix("["), s.hasSuffix("]"), s.count >= 2 else {
            throw .invalidField(
                file: file, line: line, field: field, value: String(raw),
                reason: "expected a bracketed list such as [1, -2, 0]")
        }
        let inner = s.dropFirst().dropLast()
        if inner.trimmingCharacters(in: .whitespaces).isEmpty { return [] }
        var out: [Int] = []
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            out.append(try FieldParser.int(String(part), field: field, in: range, file: file, line: line))
        }
        return out
    }
}
