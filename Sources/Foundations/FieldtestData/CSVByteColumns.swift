/// Where a field's text is: a byte range of the file, or of `CSVByteColumns.unescaped`
/// for a quoted field whose doubled quotes had to be undone.
public struct CSVFieldBytes: Sendable, Equatable {
    /// Start and end offsets (bytes) in the buffer the field lives in.
    public var start: Int, end: Int
    /// Whether the bytes are in `CSVByteColumns.unescaped` rather than in the file's bytes.
    public var isUnescaped: Bool
}

/// Named columns of every data row of a CSV file, found in one pass over its bytes as byte
/// ranges, without building a `String` per field: the fast path for reading a large file of
/// which only a few columns matter (`fieldtest classify` reads `id` and `text`).
///
/// It accepts only what `CSVTable` reads the same way and without error: RFC 4180 fields
/// (quoted or not, CRLF, LF or CR line ends, blank lines skipped, a leading byte-order mark
/// skipped), every field valid UTF-8, every data row as many fields as the header, and a
/// header of plain ASCII names (no quotes, no white space). For any other input `scan`
/// returns nil, and the caller reads the file with `CSVTable`, which reports what is wrong
/// with it (file, line and field). Complexity: O(bytes).
public struct CSVByteColumns: Sendable {
    /// For each requested column (in the order asked), its field in each data row.
    public private(set) var columns: [[CSVFieldBytes]]
    /// The contents of quoted fields that held doubled quotes, with those undone.
    public private(set) var unescaped: [UInt8] = []
    /// 1-based line of each data row (of its first byte).
    public private(set) var lines: [Int] = []

    /// Number of data rows.
    public var rowCount: Int { lines.count }

    /// The columns named `names` of every data row of `bytes` (comma separated), or nil
    /// when the file must be read by `CSVTable` (see the type's description).
    public static func scan(_ bytes: [UInt8], columns names: [String]) -> CSVByteColumns? {
        bytes.withUnsafeBufferPointer { scan($0, columns: names) }
    }

    static func scan(_ s: UnsafeBufferPointer<UInt8>, columns names: [String]) -> CSVByteColumns? {
        let n = s.count
        guard let p = s.baseAddress, n > 0 else { return nil }
        let quote: UInt8 = 0x22
        let comma: UInt8 = 0x2C
        let lf: UInt8 = 0x0A
        let cr: UInt8 = 0x0D
        var i = 0
        if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF { i = 3 }
        var line = 1
        // Blank lines before the header.
        while i < n {
            if p[i] == lf {
                i += 1
                line += 1
            } else if p[i] == cr, i + 1 < n, p[i + 1] == lf {
                i += 2
                line += 1
            } else {
                break
            }
        }
        guard i < n else { return nil }
        // The header: plain ASCII names, no quotes or white space (else `CSVTable` decides).
        var header: [String] = []
        var nameStart = i
        while true {
            let atEnd = i == n || p[i] == comma || p[i] == lf || p[i] == cr
            if atEnd {
                header.append(
                    String(decoding: UnsafeBufferPointer(start: p + nameStart, count: i - nameStart), as: UTF8.self))
                if i < n, p[i] == comma {
                    i += 1
                    nameStart = i
                    continue
                }
                break
            }
            let b = p[i]
            guard b > 0x20, b < 0x7F, b != quote else { return nil }
            i += 1
        }
        if i < n { i += p[i] == cr && i + 1 < n && p[i + 1] == lf ? 2 : 1 }
        line += 1
        var positions: [Int] = []
        for name in names {
            guard let k = header.firstIndex(of: name) else { return nil }
            positions.append(k)
        }
        var wanted = [Bool](repeating: false, count: header.count)
        for position in positions { wanted[position] = true }

        var result = CSVByteColumns(columns: Array(repeating: [], count: names.count))
        // The current row's fields of the wanted columns, by column.
        var row = [CSVFieldBytes](repeating: CSVFieldBytes(start: 0, end: 0, isUnescaped: false), count: header.count)
        while i < n {
            // Record start: blank lines are skipped.
            if p[i] == lf {
                i += 1
                line += 1
                continue
            }
            if p[i] == cr, i + 1 < n, p[i + 1] == lf {
                i += 2
                line += 1
                continue
            }
            let recordLine = line
            var field = 0
            while true {
                var bytes: CSVFieldBytes
                if i < n, p[i] == quote {
                    i += 1
                    let start = i
                    var escaped = false
                    var end = -1
                    while i < n {
                        let j = Self.firstQuote(p, from: i, count: n)
                        guard j < n else { break }
                        if j + 1 < n, p[j + 1] == quote {
                            escaped = true
                            i = j + 2
                            continue
                        }
                        end = j
                        i = j + 1
                        break
                    }
                    guard end >= 0 else { return nil }  // unterminated
                    // text after the closing quote
                    guard i == n || p[i] == comma || p[i] == lf || p[i] == cr else { return nil }
                    for k in start..<end where p[k] == lf { line += 1 }
                    if escaped {
                        let from = result.unescaped.count
                        var k = start
                        while k < end {
                            result.unescaped.append(p[k])
                            k += p[k] == quote ? 2 : 1
                        }
                        bytes = CSVFieldBytes(start: from, end: result.unescaped.count, isUnescaped: true)
                    } else {
                        bytes = CSVFieldBytes(start: start, end: end, isUnescaped: false)
                    }
                } else {
                    let start = i
                    i = Self.fieldEnd(p, from: i, count: n)
                    bytes = CSVFieldBytes(start: start, end: i, isUnescaped: false)
                }
                let text =
                    bytes.isUnescaped
                    ? result.unescaped.withUnsafeBufferPointer {
                        Self.isValidUTF8(UnsafeBufferPointer(rebasing: $0[bytes.start..<bytes.end]))
                    }
                    : Self.isValidUTF8(UnsafeBufferPointer(rebasing: s[bytes.start..<bytes.end]))
                guard text, field < header.count else { return nil }
                if wanted[field] { row[field] = bytes }
                field += 1
                if i < n, p[i] == comma {
                    i += 1
                    continue
                }
                // A line end or the end of the file ends the record.
                if i < n { i += p[i] == cr && i + 1 < n && p[i + 1] == lf ? 2 : 1 }
                line += 1
                break
            }
            guard field == header.count else { return nil }
            for (k, position) in positions.enumerated() { result.columns[k].append(row[position]) }
            result.lines.append(recordLine)
        }
        return result
    }

    /// High bit of each byte of `w` equal to `byte` (exact up to the first such byte; the lowest set bit is the first match).
    @inline(__always)
    static func bytesEqual(_ w: UInt64, _ byte: UInt8) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let x = w ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & (ones &* 0x80)
    }

    /// Offset of the first `"` at or after `i` in `p[0..<n]`, or `n`; eight bytes at a time.
    @inline(__always)
    static func firstQuote(_ p: UnsafePointer<UInt8>, from i: Int, count n: Int) -> Int {
        var i = i
        let raw = UnsafeRawPointer(p)
        while i + 8 <= n {
            let m = bytesEqual(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)), 0x22)
            if m != 0 { return i + m.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n, p[i] != 0x22 { i += 1 }
        return i
    }

    /// End of the unquoted field starting at `i` in `p[0..<n]`: the first `,` CR or LF, or `n`; eight bytes at a time.
    @inline(__always)
    static func fieldEnd(_ p: UnsafePointer<UInt8>, from i: Int, count n: Int) -> Int {
        var i = i
        let raw = UnsafeRawPointer(p)
        while i + 8 <= n {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let m = bytesEqual(w, 0x2C) | bytesEqual(w, 0x0A) | bytesEqual(w, 0x0D)
            if m != 0 { return i + m.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n, p[i] != 0x2C, p[i] != 0x0A, p[i] != 0x0D { i += 1 }
        return i
    }

    /// Whether `b` is valid UTF-8 (ASCII eight bytes at a time, other text by the standard library's validation).
    @inline(__always)
    static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var k = 0
        var high: UInt64 = 0
        while k + 8 <= b.count {
            high |= raw.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            k += 8
        }
        while k < b.count {
            high |= UInt64(b[k])
            k += 1
        }
        if high & 0x8080_8080_8080_8080 == 0 { return true }
        return String(validating: b, as: UTF8.self) != nil
    }
}
