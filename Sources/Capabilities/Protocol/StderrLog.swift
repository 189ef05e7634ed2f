import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system's standard error kept in a file of bounded size: the first `headBytes` bytes as they
/// come, then only the last `tailBytes` bytes in memory, written after a line saying how many bytes
/// were dropped between them when the log is closed. A system that floods its standard error
/// costs at most `headBytes + tailBytes` of disk and `2 × tailBytes` of memory, across restarts.
public final class StderrLog: @unchecked Sendable {
    /// Bytes kept from the start: 1 MiB.
    public static let defaultHeadBytes = 1 << 20
    /// Bytes kept from the end: 1 MiB.
    public static let defaultTailBytes = 1 << 20

    /// The file.
    public let path: String
    private let headBytes: Int
    private let tailBytes: Int
    private let lock = NSLock()
    private var fd: Int32
    private var written = 0
    private var tail: [UInt8] = []
    private var dropped = 0

    /// Creates (or empties) the file at `path`; nil when it cannot be written.
    init?(path: String, headBytes: Int = defaultHeadBytes, tailBytes: Int = defaultTailBytes) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        self.path = path
        self.headBytes = max(0, headBytes)
        self.tailBytes = max(0, tailBytes)
    }

    deinit { close() }

    /// Takes bytes the system wrote.
    func append(_ bytes: UnsafeRawBufferPointer) {
        lock.withLock {
            guard fd >= 0 else { return }
            var rest = bytes[...]
            if written < headBytes {
                let n = min(headBytes - written, rest.count)
                writeAll(UnsafeRawBufferPointer(rebasing: rest.prefix(n)))
                written += n
                rest = rest.dropFirst(n)
            }
            guard !rest.isEmpty else { return }
            tail.append(contentsOf: rest)
            // Trimmed in halves, so each byte is moved at most once more on average.
            if tail.count > 2 * max(tailBytes, 4096) { trimTail() }
        }
    }

    /// Writes the kept tail (after the note of what was dropped) and closes the file; idempotent.
    func close() {
        lock.withLock {
            guard fd >= 0 else { return }
            trimTail()
            if dropped > 0 {
                let note =
                    "\n[fieldtest: \(dropped) bytes of standard error dropped here; the first \(headBytes) "
                    + "and the last \(tailBytes) bytes are kept]\n"
                Array(note.utf8).withUnsafeBytes { writeAll($0) }
            }
            tail.withUnsafeBytes { writeAll($0) }
            tail = []
            closeDescriptor(fd)
            fd = -1
        }
    }

    /// What the log holds so far, the tail included.
    var text: String {
        lock.withLock {
            let head = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            guard fd >= 0, !tail.isEmpty else { return head }
            let skipped = dropped + max(0, tail.count - tailBytes)
            return head + (skipped > 0 ? "\n[fieldtest: \(skipped) bytes dropped]\n" : "")
                + String(decoding: tail.suffix(tailBytes), as: UTF8.self)
        }
    }

    private func trimTail() {
        let excess = tail.count - tailBytes
        if excess > 0 {
            tail.removeFirst(excess)
            dropped += excess
        }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads `fd` on a thread of its own until end of file, into `log`, then closes `fd`;
    /// `finished` is signalled at the end.
    static func drain(_ fd: Int32, into log: StderrLog, finished: DispatchSemaphore) {
        let thread = Thread {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let n = read(fd, buffer.baseAddress!, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                log.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
            closeDescriptor(fd)
            finished.signal()
        }
        thread.name = "fieldtest-system-stderr"
        thread.start()
    }
}
