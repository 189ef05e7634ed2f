import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension GraphCache {
    /// Bytes of the secret.
    static let secretBytes = 32

    /// Where the per-user secret lives: `FIELDTEST_GRAPH_CACHE_KEY` (a file path), else
    /// `$XDG_CONFIG_HOME/fieldtest/graph-cache.key`, else `~/.config/fieldtest/graph-cache.key`; nil
    /// without a home folder. It is kept apart from the cache folder, which others may be able to write.
    public static func secretFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let setting = environment["FIELDTEST_GRAPH_CACHE_KEY"], !setting.isEmpty {
            return URL(fileURLWithPath: setting)
        }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("fieldtest/graph-cache.key")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config/fieldtest/graph-cache.key")
    }

    /// The key that signs this user's cache files (HMAC-SHA256): 32 random bytes in `secretFile`,
    /// created 0600 on first use. nil, and so no cache, when there is no such file and it cannot be
    /// made, or when the file is not this user's own regular file of 32 bytes that no one else may
    /// read or write (a secret others can read signs nothing).
    public static func userSecret(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> SymmetricKey?
    {
        guard let file = secretFile(environment: environment) else { return nil }
        if let key = readSecret(file) { return key }
        guard !FileManager.default.fileExists(atPath: file.path) else { return nil }
        createSecret(file)
        return readSecret(file)
    }

    /// The secret in `file` when it is this user's own 0600 (or stricter) regular file of 32 bytes.
    static func readSecret(_ file: URL) -> SymmetricKey? {
        let fd = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            info.st_mode & 0o077 == 0, info.st_size == off_t(secretBytes)
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: secretBytes)
        guard Glibc.read(fd, &bytes, secretBytes) == secretBytes else { return nil }
        return SymmetricKey(data: bytes)
    }

    /// Writes 32 random bytes to a 0600 temporary file beside `file` and links it into place, so a
    /// reader never sees half a secret and two processes creating it at once agree on one.
    static func createSecret(_ file: URL) {
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<secretBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let written = Glibc.write(fd, bytes, bytes.count)
        close(fd)
        if written == bytes.count { _ = link(temporary.path, file.path) }
        unlink(temporary.path)
    }
}
