import Foundation

/// One record of a delimited file: its fields and the 1-based line it starts on.
public struct CSVRecord: Sendable, Equatable {
    /// 1-based line number of the record's first character.
    public var line: Int
    /// The record's fields, unquoted.
    public var fields: [String]

    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}

/// An RFC 4180 reader for comma- (or other byte-) separated files.
///
/// Quoted fields may hold separators, doubled quotes and line breaks; CRLF and
/// LF line endings are both accepted. A closing quote must be followed by a
/// separator or a line end (`"a"b` is a located `DataError.invalidField`). Every field is checked to be valid UTF-8
/// and a bad one raises `DataError.invalidUTF8` with its line. The reader never
/// traps on malformed input. Complexity: O(n) in the file's bytes.
public struct CSVReader: Sendable {
    /// Field separator byte (`,` by default, `\t` for TSV).
    public var separator: UInt8
    /// Whether `"` starts a quoted field. Off for formats that never quote.
    public var quoting: Bool
    /// File name used in error messages.
    public var fileName: String

    public init(fileName: String, separator: Character = ",", quoting: Bool = true) {
        self.fileName = fileName
        self.separator = separator.asciiValue ?? UInt8(ascii: ",")
        self.quoting = quoting
    }

    /// Reads every record of `bytes`, skipping blank lines.
    public func records(_ bytes: [UInt8]) throws(DataError) -> [CSVRecord] {
        var out: [CSVRecord] = []
        try forEachRecord(bytes) { out.append($0) }
        return out
    }

    /// Calls `body` for every record of `bytes` in order, skipping blank lines. `startingLine` is
    /// the line number of the first byte: a chunk cut from the middle of a file (`CSVChunkReader`)
    /// gives its records the lines they have in the file (a byte-order mark is skipped on line 1 only).
    public func forEachRecord(
        _ bytes: [UInt8], startingLine: Int = 1, _ body: (CSVRecord) throws(DataError) -> Void
    ) throws(DataError) {
        let quote = UInt8(ascii: "\"")
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")
        var i = 0
        let n = bytes.count
        var line = startingLine
        // Skip a UTF-8 byte-order mark.
        if startingLine == 1, n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        var fields: [String] = []
        var field: [UInt8] = []
        field.reserveCapacity(64)
        var recordLine = startingLine
        var atRecordStart = true

        try bytes.withUnsafeBufferPointer { (buffer) throws(DataError) in
            guard let p = buffer.baseAddress else { return }  // an empty file
            while i < n {
                if atRecordStart {
                    recordLine = line
                    atRecordStart = false
                    // Blank line: skip.
                    if p[i] == lf {
                        line += 1
                        i += 1
                        atRecordStart = true
                        continue
                    }
                    if p[i] == cr, i + 1 < n, p[i + 1] == lf {
                        line += 1
                        i += 2
                        atRecordStart = true
                        continue
                    }
                }
                let b = p[i]
                if quoting && b == quote && field.isEmpty {
                    // Quoted field: runs up to the next quote are copied whole.
                    i += 1
                    var closed = false
                    while i < n {
                        var j = i
                        while j < n, p[j] != quote {
                            if p[j] == lf { line += 1 }
                            j += 1
                        }
                        field.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
                        i = j
                        guard i < n else { break }
                        if i + 1 < n && p[i + 1] == quote {
                            field.append(quote)
                            i += 2
                            continue
                        }
                        i += 1
                        closed = true
                        break
                    }
                    if !closed { throw .unterminatedQuote(file: fileName, line: recordLine) }
                    // RFC 4180: a closing quote ends the field; only a separator or a line end may follow.
                    if i < n, p[i] != separator, p[i] != lf, p[i] != cr {
                        var j = i
                        while j < n, p[j] != separator, p[j] != lf, p[j] != cr { j += 1 }
                        let raw = String(decoding: field, as: UTF8.self)
                        let after = String(decoding: UnsafeBufferPointer(start: p + i, count: j - i), as: UTF8.self)
                        throw .invalidField(
                            file: fileName, line: line, field: "#\(fields.count + 1)",
                            value: "\"" + raw.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + after,
                            reason:
                                "text after the closing quote; quote the whole field and double any quote inside it (\"a\"\"b\" for a\"b)"
                        )
                    }
                    continue
                }
                if b == separator {
                    try Self.finish(&field, into: &fields, file: fileName, line: recordLine)
                    i += 1
                    continue
                }
                if b == lf || b == cr {
                    try Self.finish(&field, into: &fields, file: fileName, line: recordLine)
                    try body(CSVRecord(line: recordLine, fields: Self.exactCopy(fields)))
                    fields.removeAll(keepingCapacity: true)
                    if b == cr, i + 1 < n, p[i + 1] == lf { i += 1 }
                    i += 1
                    line += 1
                    atRecordStart = true
                    continue
                }
                // Unquoted bytes up to the next separator or line end are copied whole
                // (a quote after the field's first byte is an ordinary byte).
                var j = i + 1
                while j < n, p[j] != separator, p[j] != lf, p[j] != cr { j += 1 }
                field.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
                i = j
            }
        }
        if !atRecordStart {
            try Self.finish(&field, into: &fields, file: fileName, line: recordLine)
            try body(CSVRecord(line: recordLine, fields: fields))
        }
    }
}

extension CSVReader {
    /// `fields` in an array of its own, sized to its count. Handing out the reused buffer itself
    /// would give every record the capacity of the widest one: a file of empty lines (or bare
    /// carriage returns) under a 68-column header then took about 2 KB per byte of input.
    @inline(__always)
    static func exactCopy(_ fields: [String]) -> [String] {
        Array(unsafeUninitializedCapacity: fields.count) { buffer, count in
            fields.withUnsafeBufferPointer { source in _ = buffer.initialize(fromContentsOf: source) }
            count = fields.count
        }
    }

    /// Appends `field` as a string to `fields` and empties it (keeping its capacity); invalid
    /// UTF-8 is a `DataError.invalidUTF8` at `line` (see `validatedUTF8`).
    @inline(__always)
    static func finish(_ field: inout [UInt8], into fields: inout [String], file: String, line: Int) throws(DataError) {
        guard let text = validatedUTF8(field) else {
            throw .invalidUTF8(file: file, line: line, field: "#\(fields.count + 1)")
        }
        fields.append(text)
        field.removeAll(keepingCapacity: true)
    }
}

/// `bytes` as a string when they are valid UTF-8, else nil. ASCII bytes (most fields and lines) are
/// valid as they are and skip the general validation, which costs about a thousand instructions
/// even for a short field.
@inline(__always)
func validatedUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
}

/// Reads a whole file's bytes, mapping failures to `DataError.unreadable` (a directory
/// is reported as such, not as a system error code). A file larger than `limit` bytes — or a
/// stream, such as `/dev/zero` or a pipe, that goes on past it — is a `DataError.unreadable` saying so, found
/// before the bytes are held (see `InputLimits`).
public func readFileBytes(
    _ url: URL, displayName: String? = nil, limit: Int = InputLimits.dataBytes
) throws(DataError) -> [UInt8] {
    let name = displayName ?? url.path
    if fileIsDirectory(url) { throw .unreadable(file: name, reason: "it is a directory; give the path of a file") }
    var info = stat()
    if stat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
        return try readStreamBytes(path: url.path, displayName: name, limit: limit)
    }
    if stat(url.path, &info) == 0, Int(info.st_size) > limit {
        throw InputLimits.exceeded(name, bytes: Int(info.st_size), limit: limit)
    }
    do {
        let data = try Data(contentsOf: url, options: .mappedIfSafe)
        return [UInt8](data)
    } catch {
        throw .unreadable(file: name, reason: (error as NSError).localizedDescription)
    }
}

/// Reads a file that is not a regular file (a FIFO, e.g. a shell's `<(command)`, or a character
/// device) to its end by streaming, since its size is unknown up front; errors give the
/// system's reason (e.g. "Permission denied").
func readStreamBytes(path: String, displayName: String, limit: Int = InputLimits.dataBytes) throws(DataError)
    -> [UInt8]
{
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw .unreadable(file: displayName, reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count == 0 { return bytes }
        if count < 0 {
            if errno == EINTR { continue }
            throw .unreadable(file: displayName, reason: String(cString: strerror(errno)))
        }
        guard bytes.count + count <= limit else {
            throw InputLimits.exceeded(displayName, bytes: bytes.count + count, limit: limit)
        }
        bytes.append(contentsOf: chunk[0..<count])
    }
}

/// The largest inputs Fieldtest reads, in bytes. Each is checked before the bytes are held, so an
/// endless input (a device, a pipe that never closes) stops with an error, not an exhausted memory.
/// `FIELDTEST_MAX_INPUT_BYTES` raises or lowers the limit for data files (a number of bytes, or
/// with a K, M or G suffix); the others are fixed by what their formats need.
public enum InputLimits {
    /// Dataset files, batch-command inputs and metrics files: 2 GiB unless overridden.
    public static var dataBytes: Int { override ?? (2 << 30) }
    /// A scenario file: 16 MiB (the largest bundled one is under 10 KB).
    public static let scenarioBytes = 16 << 20

    /// The error for an input of (at least) `bytes` bytes over `limit`.
    static func exceeded(_ file: String, bytes: Int, limit: Int) -> DataError {
        .unreadable(
            file: file,
            reason: "it is larger than \(limit) bytes (\(bytes) read), the limit for this input (a device or a pipe "
                + "that does not end?); set FIELDTEST_MAX_INPUT_BYTES (e.g. 8G) to read a larger file")
    }

    /// `FIELDTEST_MAX_INPUT_BYTES` parsed, when set and valid.
    static var override: Int? {
        guard let text = ProcessInfo.processInfo.environment["FIELDTEST_MAX_INPUT_BYTES"] else { return nil }
        return parseSize(text)
    }

    /// `text` as a byte count: digits with an optional K, M or G (powers of 1024); nil if invalid.
    public static func parseSize(_ text: String) -> Int? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        var scale = 1
        if let unit = digits.last, let shift = ["K": 10, "M": 20, "G": 30][String(unit)] {
            scale = 1 << shift
            digits.removeLast()
        }
        guard let n = Int(digits), n > 0, n <= Int.max / scale else { return nil }
        return n * scale
    }
}

/// Whether `url` names an existing directory (following symbolic links).
public func fileIsDirectory(_ url: URL) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
}
