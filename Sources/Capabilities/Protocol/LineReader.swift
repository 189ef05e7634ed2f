import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a read ended when it returned no line.
enum LineReadFailure: Error {
    /// End of file: the other side closed its end (it exited or crashed).
    case closed
    /// The deadline passed.
    case timedOut
    /// The line grew past the reader's `maxLineBytes` without a newline; what was read of it is
    /// dropped, and the next read skips the rest of it.
    case tooLong
}

/// Lines read from a pipe, each waited for until a deadline, with a short spin before sleeping
/// while spinning pays.
///
/// On a virtual machine an idle core halts, and waking the thread that sleeps on it costs tens of
/// microseconds, more than a whole round trip to a fast system. So a read first polls without
/// blocking for up to `spinNanoseconds` (an answer that comes that soon is taken with no sleep),
/// and only then sleeps in `poll` until data or the deadline. A spin that runs out without data
/// only burnt CPU: the system is slow, or the machine is loaded and the spinner may even be keeping
/// the other side off its core. So after a failed spin the next reads sleep at once, for twice as
/// many reads after each further failure (up to 1,024), and a successful spin resets that. The spin
/// is bounded, so it costs at most that much CPU a read, and the deadline is checked on every turn.
final class LineReader {
    /// The longest line taken when none is given: 16 MiB (a batch answer of 1,000 rows is about 100 KB).
    static let defaultMaxLineBytes = 16 << 20
    /// The descriptor read.
    let fd: Int32
    /// The longest line, in bytes without its newline; a longer one is `LineReadFailure.tooLong`,
    /// so memory stays bounded whatever the other side writes.
    let maxLineBytes: Int
    /// Whether the rest of a line that was too long is still to be skipped.
    private var discarding = false
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes of `buffer` already searched for a newline, so a long line is scanned once.
    private var scanned = 0
    /// What one `read` fills: 256 KiB, so a batch answer of 1,000 rows takes one read.
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 262_144, alignment: 16)

    /// Reads left that sleep at once, after a failed spin.
    private var skip = 0
    /// Reads to skip after the next failed spin: 1, doubled by each failure, reset by a success.
    private var backoff = 1

    /// A reader of `fd` (which stays open; the caller closes it) of lines up to `maxLineBytes`.
    init(fd: Int32, maxLineBytes: Int = defaultMaxLineBytes) {
        self.fd = fd
        self.maxLineBytes = max(1, maxLineBytes)
    }

    deinit { scratch.deallocate() }

    /// The next line (without its newline). `deadline` is in `DispatchTime` uptime nanoseconds;
    /// nil waits as long as it takes (a served core waits for its next request until end of input).
    func next(deadline: UInt64?, spinNanoseconds: UInt64) throws(LineReadFailure) -> ArraySlice<UInt8> {
        var spinEnd: UInt64 = 0
        var waited = false
        var spun = false
        var slept = false
        while true {
            if discarding { skipDiscarded() }
            if !discarding, let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                guard newline - start <= maxLineBytes else {
                    dropLine(through: newline)
                    throw .tooLong
                }
                let line = buffer[start..<newline]
                start = newline + 1
                scanned = start
                if spun {
                    if slept {
                        skip = backoff
                        backoff = min(backoff * 2, 1_024)
                    } else {
                        backoff = 1
                    }
                }
                return line
            }
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            scanned = buffer.count
            if !discarding && buffer.count > maxLineBytes {
                discarding = true
                buffer.removeAll(keepingCapacity: false)
                (start, scanned) = (0, 0)
                throw .tooLong
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if let deadline, now >= deadline { throw .timedOut }
            if !waited {
                waited = true
                if spinNanoseconds > 0 && skip == 0 {
                    spun = true
                    spinEnd = now + spinNanoseconds
                } else if skip > 0 {
                    skip -= 1
                }
            }
            let timeout: Int32
            if now < spinEnd {
                timeout = 0
            } else if let deadline {
                timeout = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
            } else {
                timeout = -1
            }
            slept = slept || timeout != 0
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .closed
            }
            if ready == 0 { continue }
            let n = read(fd, scratch.baseAddress!, scratch.count)
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 { throw .closed }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
        }
    }

    /// Drops what is buffered of a line that was too long, up to and with its newline if read.
    private func skipDiscarded() {
        if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
            start = newline + 1
            scanned = start
            discarding = false
        } else {
            buffer.removeAll(keepingCapacity: true)
            (start, scanned) = (0, 0)
        }
    }

    /// Drops a complete line that is too long, up to and with its newline.
    private func dropLine(through newline: Int) {
        start = newline + 1
        scanned = start
    }

    /// Writes all of `bytes` to `fd`; false when the other side no longer reads (EPIPE).
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }

    /// Asks for a 1 MiB pipe buffer (Linux's unprivileged limit), so a batch request of 1,000
    /// rows fits in one write rather than waking the reader for every 64 KiB; harmless where the
    /// call is refused.
    static func enlargePipe(_ fd: Int32) {
        #if os(Linux)
            _ = fcntl(fd, 1031 /* F_SETPIPE_SZ */, 1 << 20)
        #endif
    }
}
