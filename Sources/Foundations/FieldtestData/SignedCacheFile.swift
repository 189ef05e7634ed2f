import FieldtestCrypto
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A cache file of derived data that is safe to share between processes and safe when stale,
/// damaged or written by someone else: a header (magic, format version, entry count, the 32-byte key
/// of what the payload was derived from, payload length, CRC-32 of the payload) and an HMAC-SHA256
/// of header and payload under the user's own secret (`userSecret(file:)`), then the payload.
///
/// A file is written to a temporary name in the same folder and renamed into place, so a reader sees
/// a whole file or none; a reader refuses (with the reason) a file whose key, count, length,
/// checksum or HMAC does not match, so a cache can cost time but never change an answer. What the
/// payload means is the caller's (e.g. `GraphCache` of the `Capabilities` module).
public enum SignedCacheFile {
    /// What tells one kind of cache file from another.
    public struct Format: Sendable, Equatable {
        /// The first 8 bytes of a file.
        public var magic: [UInt8]
        /// Version of the layout and of what the payload holds.
        public var version: UInt32
        /// Extension of the files (e.g. `graph`), also in the names of their temporary files.
        public var fileExtension: String
        /// What a file of this format is, in refusals (e.g. `a Fieldtest graph cache`).
        public var kind: String
        /// What a file under another key holds, in refusals (e.g. `another map or other profiles`).
        public var otherKey: String

        /// A format; `magic` must be 8 bytes.
        public init(magic: [UInt8], version: UInt32, fileExtension: String, kind: String, otherKey: String) {
            precondition(magic.count == 8, "a cache file's magic is 8 bytes")
            self.magic = magic
            self.version = version
            self.fileExtension = fileExtension
            self.kind = kind
            self.otherKey = otherKey
        }
    }

    /// Header: magic (8), version (4), entry count (4), key (32), payload length (8), CRC-32 of the
    /// payload (4), padding (4), then the HMAC-SHA256 (32) of those 64 bytes and the payload.
    public static let headerBytes = 96
    /// Bytes of the header the HMAC covers (all before the HMAC itself).
    static let signedHeaderBytes = 64

    /// Why a cache file cannot be used.
    public struct Refusal: Error, Sendable, Equatable {
        /// Said to the user (e.g. "no cache file yet").
        public var reason: String

        /// A refusal for `reason`.
        public init(reason: String) { self.reason = reason }
    }

    /// The file of `key` in `directory`: the key in hexadecimal with the format's extension.
    public static func file(key: [UInt8], in directory: URL, format: Format) -> URL {
        directory.appendingPathComponent(key.map { String(format: "%02x", $0) }.joined() + "." + format.fileExtension)
    }

    /// The payload of `file` given to `decode` while the file is mapped, when the file is a regular
    /// file of `format` holding `entries` entries under `key`, signed with `secret`; else why not.
    public static func read<T>(
        _ file: URL, format: Format, key: [UInt8], entries: Int, secret: SymmetricKey,
        decode: (UnsafeRawBufferPointer) -> Result<T, Refusal>
    ) -> Result<T, Refusal> {
        guard FileManager.default.fileExists(atPath: file.path) else {
            return .failure(Refusal(reason: "no cache file yet"))
        }
        if let kind = SpecialFile.kind(file.path) {  // opening a FIFO would block forever
            return .failure(Refusal(reason: "the cache file is \(kind), not a regular file"))
        }
        guard let mapped = try? MappedFile(url: file) else {
            return .failure(Refusal(reason: "the cache file cannot be read"))
        }
        let b = mapped.bytes
        guard b.count >= headerBytes, Array(b[0..<8]) == format.magic else {
            return .failure(Refusal(reason: "the cache file is not \(format.kind) or is truncated"))
        }
        guard b.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian == format.version else {
            return .failure(Refusal(reason: "the cache file has another format version"))
        }
        guard Int(b.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian) == entries,
            Array(b[16..<48]) == key
        else { return .failure(Refusal(reason: "the cache file holds \(format.otherKey)")) }
        let length = Int(b.loadUnaligned(fromByteOffset: 48, as: UInt64.self).littleEndian)
        guard length == b.count - headerBytes else {
            return .failure(Refusal(reason: "the cache file is truncated or has bytes past its end"))
        }
        let payload = UnsafeRawBufferPointer(rebasing: b[headerBytes...])
        guard Checksum.crc32(payload) == b.loadUnaligned(fromByteOffset: 56, as: UInt32.self).littleEndian else {
            return .failure(Refusal(reason: "the cache file is damaged (its checksum does not match)"))
        }
        var mac = HMACSHA256(key: secret)
        mac.update(bufferPointer: UnsafeRawBufferPointer(rebasing: b[0..<signedHeaderBytes]))
        mac.update(bufferPointer: payload)
        guard mac.verify(UnsafeRawBufferPointer(rebasing: b[signedHeaderBytes..<headerBytes])) else {
            return .failure(
                Refusal(reason: "the cache file was not written by this user's Fieldtest (its HMAC does not match)"))
        }
        return withExtendedLifetime(mapped) { decode(payload) }
    }

    /// Writes `payload` of `entries` entries under `key` to `file` in `directory` (created 0700),
    /// signed with `secret`, through a temporary file and a rename; failures are ignored (a cache
    /// that cannot be written costs only time).
    public static func write(
        _ payload: [UInt8], entries: Int, key: [UInt8], format: Format, to file: URL, in directory: URL,
        secret: SymmetricKey
    ) {
        var header = format.magic
        func append<T: FixedWidthInteger>(_ v: T) {
            withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) }
        }
        append(format.version)
        append(UInt32(entries))
        header.append(contentsOf: key)
        append(UInt64(payload.count))
        append(payload.withUnsafeBytes { Checksum.crc32($0) })
        append(UInt32(0))
        var mac = HMACSHA256(key: secret)
        mac.update(data: header)
        mac.update(data: payload)
        header.append(contentsOf: mac.finalize())
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = directory.appendingPathComponent(
                ".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt64.random(in: 0...UInt64.max)).tmp"
            )
            // SIGINT and SIGTERM remove it (`InterruptCleanup`); after SIGKILL, the next use of the cache does.
            AtomicFile.track(temporary: temporary.path)
            defer { AtomicFile.untrack(temporary: temporary.path) }
            try Data(header + payload).write(to: temporary)
            if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            // A cache that cannot be written costs only time.
        }
    }

    /// Removes the temporary files (`.<key>.<extension>.<pid>.<n>.tmp`) of writes whose process is
    /// gone (killed with SIGKILL mid-write); those of live processes are left alone.
    public static func removeStaleTemporaryFiles(in directory: URL, format: Format) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let ext = format.fileExtension
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") && name.contains(".\(ext).") {
            let fields = name.split(separator: ".")  // key, extension, pid, n, tmp
            guard fields.count == 5, fields[1] == ext, let pid = Int32(fields[2]), pid > 0,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }
}

extension SignedCacheFile {
    /// Bytes of a user secret.
    static let secretBytes = 32

    /// The key that signs this user's cache files (HMAC-SHA256): 32 random bytes in `file`, created
    /// 0600 on first use. nil, and so no cache, when there is no such file and it cannot be made, or
    /// when the file is not this user's own regular file of 32 bytes that no one else may read or
    /// write (a secret others can read signs nothing).
    public static func userSecret(file: URL) -> SymmetricKey? {
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
