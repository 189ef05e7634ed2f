import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files and folders that only the user running Fieldtest may read: the emulated apps' SQLite
/// databases (accounts, journals, caches) hold hashes and ciphertext, and must not be readable by
/// other users of the machine while a run goes on, or after a kill leaves them behind.
public enum PrivateFiles {
    /// Creates `url` as a folder with mode 0700 (parents as needed) and tightens it to 0700 if it
    /// already exists.
    public static func makeFolder(_ url: URL) throws {
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard chmod(url.path, 0o700) == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    /// Makes sure the file at `path` exists with mode 0600 before a database engine opens it.
    /// SQLite then gives its journal, WAL and shared-memory files the same mode.
    public static func prepareFile(atPath path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(fd) }
        guard fchmod(fd, 0o600) == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    /// Removes the folders in `directory` named `<prefix><pid>-…` whose process no longer runs
    /// (stale ones of runs that were killed); returns what it removed. Folders of live processes,
    /// and names of any other shape, are left alone.
    @discardableResult
    public static func removeStaleFolders(in directory: URL, prefix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed: [URL] = []
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                rest[rest.index(after: dash)...].count == 36  // a UUID follows
            else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let url = directory.appendingPathComponent(name)
            if (try? FileManager.default.removeItem(at: url)) != nil { removed.append(url) }
        }
        return removed
    }
}
