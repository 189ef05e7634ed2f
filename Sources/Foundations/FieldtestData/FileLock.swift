import Foundation

/// An exclusive advisory lock (`flock`) on a lock file, held until `release()` or the process
/// ends (a kill releases it too, so a lock never outlives its process). The holder's pid is
/// written into the file, so a refusal can name the other process.
public final class FileLock: @unchecked Sendable {
    /// The lock is held by another process.
    public struct Busy: Error, Sendable, Equatable, CustomStringConvertible {
        /// The lock file.
        public var file: String
        /// The holder's pid, when the file names one.
        public var pid: Int32?
        /// What the lock guards, e.g. "a run writing into --out scratch/o".
        public var what: String

        public var description: String {
            let holder = pid.map { "process \($0)" } ?? "another process"
            return
                "error: \(what) is already in progress (\(holder) holds \(file)); wait for it to end, or choose another folder"
        }
    }

    /// The lock file.
    public let url: URL
    private var fd: Int32

    /// Takes the lock on `url` (created if missing, its folder too): waits for it when `wait`,
    /// else throws `Busy` at once. `what` is what a `Busy` message says is in progress.
    public init(_ url: URL, what: String, wait: Bool) throws {
        self.url = url
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        fd = -1
        // A lock file removed (by a tidy-up) between our open and our flock is not the lock any
        // more: take the lock again on the file the path now names.
        for _ in 0..<100 {
            fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw DataError.unwritable(
                    file: url.path, reason: "cannot create the lock file (\(String(cString: strerror(errno))))")
            }
            while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
                if errno == EINTR { continue }
                let holder = Self.pid(in: fd)
                close(fd)
                throw Busy(file: url.path, pid: holder, what: what)
            }
            var held = stat()
            var named = stat()
            if fstat(fd, &held) == 0, stat(url.path, &named) == 0, held.st_ino == named.st_ino,
                held.st_dev == named.st_dev
            {
                break
            }
            close(fd)
            fd = -1
        }
        guard fd >= 0 else {
            throw DataError.unwritable(file: url.path, reason: "the lock file keeps being removed")
        }
        let text = Array("\(ProcessInfo.processInfo.processIdentifier)\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Whether the lock on `url` is free now (no live process holds it); a missing file is free.
    public static func isFree(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    /// Releases the lock (idempotent); `removing` also deletes the lock file first (safe: a process
    /// that opened the file meanwhile sees that its lock no longer names the path, and starts again).
    public func release(removing: Bool = false) {
        guard fd >= 0 else { return }
        if removing { unlink(url.path) }
        close(fd)
        fd = -1
    }

    deinit { release() }

    /// The pid written in the lock file open at `fd`, if any.
    static func pid(in fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
