import Foundation

/// Output paths that name an open descriptor rather than a file: `-`, `/dev/stdout`, `/dev/stderr`,
/// `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N` (and `/proc/<own pid>/fd/N`), directly or through
/// symbolic links. Such an output is a stream: its bytes are written to the descriptor, never to a
/// temporary file renamed over what the descriptor points to (that would replace a redirected log,
/// or the file standard input reads).
public enum StreamPath {
    /// The descriptor `path` names (`-` is standard output, 1), or nil for an ordinary path.
    public static func descriptor(_ path: String) -> Int32? {
        if path == OutputText.standardStreamName { return STDOUT_FILENO }
        var current = path
        for _ in 0..<32 {
            if let fd = named(URL(fileURLWithPath: current).standardizedFileURL.path) { return fd }
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK,
                let link = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { return nil }
            current =
                link.hasPrefix("/")
                ? link : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        return nil
    }

    /// Whether `path` names standard output (`-`, `/dev/stdout`, `/dev/fd/1`, …).
    public static func isStandardOutput(_ path: String?) -> Bool {
        path.map { descriptor($0) == STDOUT_FILENO } ?? false
    }

    /// The descriptor an absolute, standardized path names by its text alone.
    static func named(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return STDIN_FILENO
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default: break
        }
        let pid = ProcessInfo.processInfo.processIdentifier
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(pid)/fd/"]
        where path.hasPrefix(prefix) {
            if let n = Int32(path.dropFirst(prefix.count)), n >= 0 { return n }
        }
        return nil
    }

    /// How a message names descriptor `fd`.
    public static func describe(_ fd: Int32) -> String {
        switch fd {
        case STDIN_FILENO: "standard input"
        case STDOUT_FILENO: "standard output"
        case STDERR_FILENO: "standard error"
        default: "descriptor \(fd)"
        }
    }
}

/// What kind of file a path names, found with `stat` (which never blocks, unlike opening a FIFO).
public enum SpecialFile {
    /// The kind of the file `path` names (links followed), as a message names it, or nil for a
    /// regular file, a folder or a path that does not exist.
    public static func kind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return nil
        }
    }

    /// Throws when `url` names a FIFO, a socket or a device: opening a FIFO nobody writes blocks
    /// forever, and a device has no end. `role` says what the file is for ("a dataset").
    public static func requireRegular(_ url: URL, displayName: String, role: String) throws(DataError) {
        guard let kind = kind(url.path) else { return }
        throw .unreadable(
            file: displayName, reason: "it is \(kind), not a regular file; \(role) must be a regular file")
    }
}
