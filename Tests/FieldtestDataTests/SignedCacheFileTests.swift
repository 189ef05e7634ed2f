import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// `SignedCacheFile`: what is written is read back; a file under another key, of another count or
/// version, damaged, or signed with another secret is refused with the reason.
@Suite("Signed cache files")
struct SignedCacheFileTests {
    static let format = SignedCacheFile.Format(
        magic: Array("FTTEST\u{0}\u{0}".utf8), version: 3, fileExtension: "cache", kind: "a test cache",
        otherKey: "other data")

    static func folder() throws -> URL {
        let dir = TemporaryFiles.url("signed-cache")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("a written file reads back; every mismatch is refused with its reason")
    func roundTripAndRefusals() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = try #require(SignedCacheFile.userSecret(file: dir.appendingPathComponent("config/one.key")))
        let other = try #require(SignedCacheFile.userSecret(file: dir.appendingPathComponent("config/two.key")))
        let attributes = try FileManager.default.attributesOfItem(
            atPath: dir.appendingPathComponent("config/one.key").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let key = [UInt8](repeating: 7, count: 32)
        let cache = dir.appendingPathComponent("cache")
        let file = SignedCacheFile.file(key: key, in: cache, format: Self.format)
        #expect(file.lastPathComponent == String(repeating: "07", count: 32) + ".cache")
        func read(
            _ format: SignedCacheFile.Format = Self.format, key: [UInt8] = key, entries: Int = 2,
            otherSecret: Bool = false
        ) -> Result<[UInt8], SignedCacheFile.Refusal> {
            SignedCacheFile.read(
                file, format: format, key: key, entries: entries, secret: otherSecret ? other : secret
            ) { .success(Array($0)) }
        }
        #expect(read() == .failure(SignedCacheFile.Refusal(reason: "no cache file yet")))
        let payload = (0..<200).map { UInt8($0 % 251) }
        SignedCacheFile.write(payload, entries: 2, key: key, format: Self.format, to: file, in: cache, secret: secret)
        #expect(read() == .success(payload))
        let otherData = SignedCacheFile.Refusal(reason: "the cache file holds other data")
        #expect(read(key: [UInt8](repeating: 8, count: 32)) == .failure(otherData))
        #expect(read(entries: 3) == .failure(otherData))
        var newer = Self.format
        newer.version = 4
        #expect(read(newer) == .failure(SignedCacheFile.Refusal(reason: "the cache file has another format version")))
        guard case .failure(let forged) = read(otherSecret: true) else {
            Issue.record("a file signed with another secret was read")
            return
        }
        #expect(forged.reason.contains("HMAC"))
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[bytes.count - 1] ^= 1
        try Data(bytes).write(to: file)
        #expect(
            read()
                == .failure(SignedCacheFile.Refusal(reason: "the cache file is damaged (its checksum does not match)")))
        try Data("not a cache".utf8).write(to: file)
        #expect(
            read() == .failure(SignedCacheFile.Refusal(reason: "the cache file is not a test cache or is truncated")))
    }

    @Test("temporary files of writes whose process is gone are removed; a live process's are kept")
    func staleTemporaries() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mine = ".k.cache.\(ProcessInfo.processInfo.processIdentifier).1.tmp"
        let gone = ".k.cache.\(Int32.max - 1).1.tmp"
        let unrelated = ".k.other.\(Int32.max - 1).1.tmp"
        for name in [mine, gone, unrelated] {
            try Data().write(to: dir.appendingPathComponent(name))
        }
        SignedCacheFile.removeStaleTemporaryFiles(in: dir, format: Self.format)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        #expect(left == [mine, unrelated])
    }
}
