import Foundation

/// A file's bytes, mapped read-only into memory (`mmap`) so a parser reads them in place without a
/// copy. A file that is not a regular file (a pipe, a device) is read by streaming instead. Either
/// way the size is checked against `InputLimits` before anything is held.
public final class MappedFile: @unchecked Sendable {
    /// The file's bytes; valid while the object lives.
    public let bytes: UnsafeRawBufferPointer
    /// Whether `bytes` is a mapping to unmap, rather than a buffer to free.
    private let mapped: Bool

    /// Maps `url`; errors name `displayName` (default: the path) and say what to fix.
    public init(url: URL, displayName: String? = nil, limit: Int = InputLimits.dataBytes) throws(DataError) {
        let name = displayName ?? url.path
        if fileIsDirectory(url) { throw .unreadable(file: name, reason: "it is a directory; give the path of a file") }
        var info = stat()
        if stat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            let streamed = try readStreamBytes(path: url.path, displayName: name, limit: limit)
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, streamed.count), alignment: 16)
            copy.copyBytes(from: streamed)
            bytes = UnsafeRawBufferPointer(rebasing: copy[0..<streamed.count])
            mapped = false
            return
        }
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { throw .unreadable(file: name, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { throw .unreadable(file: name, reason: String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        if size > limit { throw InputLimits.exceeded(name, bytes: size, limit: limit) }
        if size == 0 {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            mapped = false
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw .unreadable(file: name, reason: String(cString: strerror(errno)))
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
        mapped = true
    }

    deinit {
        guard let address = bytes.baseAddress else { return }
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: address), bytes.count)
        } else {
            UnsafeMutableRawPointer(mutating: address).deallocate()
        }
    }
}
