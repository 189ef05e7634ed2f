import CFileExchange
import Foundation

/// Writes files so that readers never see a half-written result: the bytes go
/// to a temporary file in the same folder, which then takes the target's place atomically
/// (`Writer.replace`).
///
/// - A symbolic link is written through: the file it names is replaced, the link stays.
/// - A stream (`-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`; `StreamPath`) is
///   written to its descriptor, never renamed over the file it is redirected to; standard input is
///   refused. A character device (`/dev/null`, a terminal) is written straight; a FIFO, a socket or
///   a block device is refused (opening a FIFO for writing would block until someone reads it).
/// - A directory is an error. A replaced file keeps its permission bits.
/// - On any failure the temporary file is removed and the target is left as it was.
public enum AtomicFile {
    /// Writes `data` to `url` atomically, creating the parent folder if needed. `sweepingStale: false`
    /// skips looking for temporary files of dead processes in the folder: for a folder written to
    /// many thousand times by one run (the per-case results), where listing it on every write would
    /// cost more than the write.
    public static func write(_ data: Data, to url: URL, sweepingStale: Bool = true) throws(DataError) {
        let writer = try Writer(url: url, sweepingStale: sweepingStale)
        let failure: DataError? = data.withUnsafeBytes { raw in
            do throws(DataError) { try writer.append(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
        try writer.commit()
    }

    /// One atomic write made of several appends, for output produced as it is computed (the
    /// streaming batch commands): the bytes go to the temporary file as they come, and `commit()`
    /// renames it over the target. Until then the target is untouched; a writer dropped without
    /// `commit()` (an error, an interrupt) removes its temporary file. The rules of `write(_:to:)`
    /// apply (links written through, devices and FIFOs written straight, permission bits kept).
    public final class Writer {
        private let name: String
        private let target: String
        /// The temporary file, or nil when the target is written straight (not a regular file).
        private let temporary: String?
        private let mode: mode_t?
        private var fd: Int32
        private var failure: String?
        private var finished = false

        /// Starts a write to `url`: creates the parent folder if needed and the temporary file, after
        /// removing those of dead processes in the folder unless `sweepingStale` is false.
        /// Installs the interrupt handling (`InterruptCleanup.installForWrites()`), so SIGINT and
        /// SIGTERM remove the temporary file.
        public init(url: URL, sweepingStale: Bool = true) throws(DataError) {
            name = url.path
            if let stream = StreamPath.descriptor(url.relativePath == OutputText.standardStreamName ? "-" : name) {
                // A stream: written to its descriptor, so a redirected file keeps what it held.
                (fd, target, temporary, mode) = (try Self.duplicate(stream, name: url.relativePath), name, nil, nil)
                return
            }
            var info = stat()
            let exists = stat(name, &info) == 0  // through symbolic links
            var resolved: String
            if exists {
                switch info.st_mode & S_IFMT {
                case S_IFREG:
                    resolved = realPath(name) ?? name
                case S_IFDIR:
                    throw .unwritable(file: name, reason: "it is a directory; give a file name")
                case S_IFCHR:
                    // Not replaceable by a rename (`/dev/null`, a terminal): the bytes go straight to it.
                    let fd = open(name, O_WRONLY | O_CLOEXEC)
                    guard fd >= 0 else { throw .unwritable(file: name, reason: String(cString: strerror(errno))) }
                    (self.fd, target, temporary, mode) = (fd, name, nil, nil)
                    return
                default:
                    // Opening a FIFO for writing blocks until someone reads it; a socket cannot be opened.
                    throw .unwritable(
                        file: name,
                        reason:
                            "it is \(SpecialFile.kind(name) ?? "not a regular file"); an output must be a regular file, /dev/null, or - for standard output"
                    )
                }
            } else {
                resolved = try resolveLinks(name, displayName: name)  // a link to a file not created yet
            }
            target = resolved
            mode = exists ? info.st_mode & 0o7777 : nil
            let dir = (resolved as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(
                    atPath: dir.isEmpty ? "." : dir, withIntermediateDirectories: true)
            } catch {
                throw .unwritable(file: name, reason: "cannot create the folder '\(dir)': \(posixReason(error))")
            }
            // A short name of its own (not the target's name plus a suffix), so that any file name
            // the file system accepts as a target also has room for its temporary file.
            let tmp =
                (dir.isEmpty ? "" : dir + "/")
                + ".fieldtest-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8)).tmp"
            if sweepingStale { removeStaleTemporaryFiles(in: dir.isEmpty ? "." : dir) }
            InterruptCleanup.installForWrites()
            Pending.shared.add(tmp)
            let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ?? 0o666)
            guard fd >= 0 else {
                Pending.shared.remove(tmp)
                throw .unwritable(file: name, reason: String(cString: strerror(errno)))
            }
            (self.fd, temporary) = (fd, tmp)
        }

        deinit { discard() }

        /// A descriptor of its own for stream `fd` (standard input refused); what `print` buffered
        /// goes out first, so the order of the bytes is kept.
        static func duplicate(_ fd: Int32, name: String) throws(DataError) -> Int32 {
            if fd == STDIN_FILENO {
                throw .unwritable(
                    file: name,
                    reason: "this is standard input, which cannot be an output; give a file, or - for standard output")
            }
            fflush(nil)
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else {
                throw .unwritable(
                    file: name, reason: "\(StreamPath.describe(fd)) is not open (\(String(cString: strerror(errno))))")
            }
            return copy
        }

        /// Appends `bytes`; a failure is thrown (and the write abandoned) at once.
        public func append(_ bytes: UnsafeRawBufferPointer) throws(DataError) {
            precondition(!finished, "AtomicFile.Writer.append after commit or discard")
            if let reason = writeAll(bytes, to: fd) {
                failure = reason
                discard()
                throw .unwritable(file: name, reason: reason)
            }
        }

        /// Appends `bytes`.
        public func append(_ bytes: [UInt8]) throws(DataError) {
            let failure: DataError? = bytes.withUnsafeBytes { raw in
                do throws(DataError) { try append(raw) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        }

        /// Ends the write: the temporary file (with the replaced file's permission bits) is renamed
        /// over the target. On failure the temporary file is removed and the target left as it was.
        public func commit() throws(DataError) {
            precondition(!finished, "AtomicFile.Writer.commit twice")
            finished = true
            var failure: String?
            if let mode, fchmod(fd, mode) != 0 { failure = String(cString: strerror(errno)) }
            if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
            if let temporary {
                defer { Pending.shared.remove(temporary) }
                if failure == nil { failure = Self.replace(target, with: temporary) }
                if failure != nil { unlink(temporary) }
            }
            if let failure { throw .unwritable(file: name, reason: failure) }
        }

        /// Puts the file `temporary` in place of `target` atomically; nil, or the system's reason.
        ///
        /// An existing target is exchanged with the temporary file, whose name then holds the old file
        /// and is removed: replacing it by rename(2) instead makes ext4 flush the new file's blocks
        /// first (its `auto_da_alloc` guard), milliseconds of waiting for a few megabytes. Where the
        /// exchange is not possible (no target, a file system or system without it), rename(2)
        /// replaces the target, atomically within one file system.
        static func replace(_ target: String, with temporary: String) -> String? {
            if fieldtest_exchange_files(temporary, target) == 0 {
                unlink(temporary)
                return nil
            }
            return rename(temporary, target) == 0 ? nil : String(cString: strerror(errno))
        }

        /// Abandons the write: the temporary file is removed, the target stays as it was.
        public func discard() {
            guard !finished else { return }
            finished = true
            close(fd)
            if let temporary {
                unlink(temporary)
                Pending.shared.remove(temporary)
            }
        }
    }

    /// Registers `temporary`, a file written outside `Writer` (the graph cache's), so that SIGINT
    /// and SIGTERM remove it too (installs the handler); `untrack` once it is renamed or removed.
    public static func track(temporary path: String) {
        InterruptCleanup.installForWrites()
        Pending.shared.add(path)
    }

    /// Ends `track(temporary:)`.
    public static func untrack(temporary path: String) { Pending.shared.remove(path) }

    /// Removes the temporary files of writes in progress: for SIGINT and SIGTERM handlers, so an
    /// interrupted command leaves no `.fieldtest-*.tmp` beside its target.
    public static func removePendingTemporaryFiles() {
        for path in Pending.shared.all() { unlink(path) }
    }

    /// Removes `.fieldtest-<pid>-*.tmp` files in `folder` whose process is gone (a write killed
    /// with SIGKILL, which no handler sees). Files of live processes are left alone.
    static func removeStaleTemporaryFiles(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".fieldtest-") && name.hasSuffix(".tmp") {
            let fields = name.dropFirst(".fieldtest-".count).split(separator: "-")
            guard fields.count == 2, let pid = Int32(fields[0]), pid > 0, kill(pid, 0) != 0, errno == ESRCH else {
                continue
            }
            unlink(folder + "/" + name)
        }
    }

    /// The temporary files of the writes in progress in this process.
    final class Pending: @unchecked Sendable {
        static let shared = Pending()
        private let lock = NSLock()
        private var paths = Set<String>()
        func add(_ path: String) { lock.withLock { _ = paths.insert(path) } }
        func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }
        func all() -> [String] { lock.withLock { Array(paths) } }
    }

    /// Writes `text` as UTF-8 to `url` atomically.
    public static func write(_ text: String, to url: URL) throws(DataError) {
        try write(Data(text.utf8), to: url)
    }

    /// `path` with symbolic links in its last component followed (relative links are
    /// relative to the link's folder); a path that does not exist is returned as it is.
    static func resolveLinks(_ path: String, displayName: String) throws(DataError) -> String {
        var current = path
        for _ in 0..<32 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                link.hasPrefix("/")
                ? link : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        throw .unwritable(file: displayName, reason: "too many levels of symbolic links")
    }

    /// The canonical path of an existing file (every symbolic link followed), or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes all of `raw` to `fd`; the reason it could not, or nil.
    static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32) -> String? {
        var offset = 0
        while offset < raw.count {
            let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += n
        }
        return nil
    }

    /// The POSIX reason inside a Foundation error, when there is one.
    static func posixReason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }
}

/// Builds RFC 4180 CSV text: fields holding `,` `"` CR or LF are quoted,
/// numbers are formatted without locale.
public struct CSVWriter: Sendable {
    /// The UTF-8 bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A writer; `capacity`: bytes to reserve (an estimate of the output's size spares regrowing).
    public init(capacity: Int = 0) {
        bytes.reserveCapacity(max(capacity, 0))
    }

    /// Whether the next field starts a record (no separator before it).
    private var atRecordStart = true

    /// Appends one record.
    public mutating func row(_ fields: [String]) {
        for field in fields { self.field(field) }
        endRecord()
    }

    /// Appends one field of the current record (quoted when it needs to be); `endRecord()` ends the record.
    public mutating func field(_ text: String) {
        separate()
        append(field: text)
    }

    /// Appends one field given as UTF-8 bytes, quoted as `field(_:)` quotes a string.
    public mutating func field(utf8: UnsafeBufferPointer<UInt8>) {
        separate()
        append(utf8: utf8)
    }

    /// Appends one field whose bytes `write` appends: bytes that never need quoting (no `,` `"` CR
    /// or LF), such as numbers and ISO 8601 times. Spares building a `String` per field.
    public mutating func field(unquotedBytes write: (inout [UInt8]) -> Void) {
        separate()
        write(&bytes)
    }

    /// Appends the records `other` wrote (between complete records: neither writer may be
    /// in the middle of one), as if they had been written here.
    public mutating func append(records other: CSVWriter) {
        precondition(atRecordStart && other.atRecordStart, "CSVWriter.append(records:) between records only")
        bytes.append(contentsOf: other.bytes)
    }

    /// Ends the current record.
    public mutating func endRecord() {
        bytes.append(UInt8(ascii: "\n"))
        atRecordStart = true
    }

    private mutating func separate() {
        if !atRecordStart { bytes.append(UInt8(ascii: ",")) }
        atRecordStart = false
    }

    /// Appends one field, quoted (inner quotes doubled) when it holds a separator, quote or line break.
    private mutating func append(field: String) {
        var field = field
        field.withUTF8 { append(utf8: $0) }  // contiguous bytes: a tight loop, then one copy
    }

    /// Appends one field's bytes, quoted (inner quotes doubled) when they hold a separator, quote or line break.
    private mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        let needsQuotes = utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(0x22)
        for b in utf8 {
            if b == 0x22 { bytes.append(0x22) }
            bytes.append(b)
        }
        bytes.append(0x22)
    }

    /// Quotes `field` when it holds a separator, quote or line break.
    public static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `fixed(value, decimals:)` without the sign of a value that rounds to zero: `0.0000`, never
    /// `-0.0000`, for a score a reader compares or sorts as text.
    public static func fixedUnsignedZero(_ value: Double, decimals: Int) -> String {
        let text = fixed(value, decimals: decimals)
        guard text.utf8.first == UInt8(ascii: "-"),
            text.utf8.dropFirst().allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") })
        else { return text }
        return String(text.dropFirst())
    }

    /// `String(format: "%.<decimals>f", value)`, the same text, without going through Foundation's
    /// formatter for the common case (|value| · 10^decimals below 10^9, up to 9 decimals), where
    /// it is built from an integer. Within 10^-6 of a rounding tie, where the scaled product may
    /// round differently from the exact decimal value, and for any other value, the formatter decides.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        let scale = decimals >= 0 && decimals < powersOfTen.count ? powersOfTen[decimals] : 0
        let scaled = value.magnitude * scale
        guard scale > 0, value.isFinite, scaled < 1e9 else { return String(format: "%.\(decimals)f", value) }
        let whole = scaled.rounded(.down)
        let fraction = scaled - whole
        if (fraction - 0.5).magnitude < 1e-6 { return String(format: "%.\(decimals)f", value) }
        let units = UInt64(whole) + (fraction > 0.5 ? 1 : 0)
        var digits = Array(String(units).utf8)
        if digits.count <= decimals {
            digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals + 1 - digits.count), at: 0)
        }
        var text: [UInt8] = value.sign == .minus ? [UInt8(ascii: "-")] : []  // as printf: "-0.0000" for small negatives
        text.reserveCapacity(digits.count + 2)
        text.append(contentsOf: digits[..<(digits.count - decimals)])
        if decimals > 0 {
            text.append(UInt8(ascii: "."))
            text.append(contentsOf: digits[(digits.count - decimals)...])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

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
        return roundedShortest(value, significantDigits: significantDigits)
            ?? printfNumber(value, significantDigits: significantDigits)
    }

    /// `number` through `printf`'s `%.<significantDigits>g` (the definition `roundedShortest` keeps to).
    static func printfNumber(_ value: Double, significantDigits: Int) -> String {
        var s = String(format: "%.\(significantDigits)g", value)
        if s.utf8.contains(UInt8(ascii: "e")) { return s }
        if s.utf8.contains(UInt8(ascii: ".")) {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }

    /// `printfNumber`'s text without the formatter, for 10⁻⁴ ≤ |value| < 10^(digits − 1) (fixed
    /// notation): the shortest round-trip digits of `value` rounded to `digits` significant ones.
    /// That equals rounding the exact binary value, because a shortest form lies on the same side of
    /// every shorter decimal as the value itself (a shorter decimal between them would round-trip
    /// and be chosen instead), except when the shortest form is itself the rounding tie (its digit
    /// after the last kept one is a final 5): then, and when rounding up adds a digit, nil.
    static func roundedShortest(_ value: Double, significantDigits p: Int) -> String? {
        let magnitude = value.magnitude
        guard p >= 1, p <= 15, magnitude >= 1e-4, magnitude < min(1e15, powersOfTenUpTo15[p - 1]) else { return nil }
        var digits: [UInt8] = []  // significant digits, the first non-zero
        digits.reserveCapacity(20)
        var wholeDigits = 0  // significant digits before the point
        var zerosAfterPoint = 0  // zeros between the point and the first significant digit
        var afterPoint = false
        for b in magnitude.description.utf8 {
            if b == UInt8(ascii: ".") {
                afterPoint = true
                continue
            }
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }  // an exponent
            if digits.isEmpty && b == UInt8(ascii: "0") {
                if afterPoint { zerosAfterPoint += 1 }
                continue
            }
            digits.append(b)
            if !afterPoint { wholeDigits += 1 }
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        guard !digits.isEmpty else { return nil }
        if digits.count > p {
            let next = digits[p]
            if next == UInt8(ascii: "5") && digits.count == p + 1 { return nil }
            digits.removeLast(digits.count - p)
            if next >= UInt8(ascii: "5") {
                var i = p - 1
                while i >= 0 && digits[i] == UInt8(ascii: "9") {
                    digits[i] = UInt8(ascii: "0")
                    i -= 1
                }
                guard i >= 0 else { return nil }
                digits[i] += 1
            }
            while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        }
        var out: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
        out.reserveCapacity(digits.count + zerosAfterPoint + 3)
        if wholeDigits > 0 {
            for k in 0..<wholeDigits { out.append(k < digits.count ? digits[k] : UInt8(ascii: "0")) }
            if digits.count > wholeDigits {
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: digits[wholeDigits...])
            }
        } else {
            out.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: ".")])
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: zerosAfterPoint))
            out.append(contentsOf: digits)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let powersOfTenUpTo15: [Double] = (0...15).map { pow(10, Double($0)) }
}

extension AtomicFile {
    /// Swaps what the paths `a` and `b` name (files or folders) in one atomic step (Linux `renameat2`
    /// with `RENAME_EXCHANGE`); false where either is missing or the system or file system cannot.
    public static func exchange(_ a: String, _ b: String) -> Bool {
        fieldtest_exchange_files(a, b) == 0
    }
}
