import Crypto
import FieldtestData
import Foundation

/// A cache of prepared routing graphs: the per-profile adjacency (usable arcs, reverse arcs, weak
/// components) and the ALT landmark distances, which cost 2·L Dijkstra searches per profile to
/// build. One file per (map, profiles, profiles prepared) triple, named by a key: the SHA-256 of the
/// map file's bytes, of a canonical description of every profile field that shapes the graph, of the
/// names of the profiles prepared at load (`fieldtest route` prepares those its queries name), and of
/// the cache format version. A later run on the same map and profiles maps the file (`mmap`) instead
/// of computing the adjacency again.
///
/// Safe to share between processes: a file is written to a temporary name in the same folder and
/// renamed into place, so a reader sees a whole file or none. Safe when stale or damaged: the file
/// carries its key and a CRC-32 of its contents, and every arc is checked against the graph built from
/// the map; anything that does not match is rebuilt (and rewritten), never used. Safe when someone else
/// can write the folder: every file carries an HMAC-SHA256 of its header and contents under the user's
/// own secret (`userSecret`, a 0600 file outside the cache folder), so a file that this user's
/// Fieldtest did not write is rebuilt, never used, however consistent its arrays and checksum are. A
/// cache can cost time but never change an answer.
///
/// Where: `FIELDTEST_GRAPH_CACHE` names the folder, or `off` disables the cache; unset, the folder
/// is `$XDG_CACHE_HOME/fieldtest/graphs`, else `~/.cache/fieldtest/graphs`, created 0700. Nothing is
/// ever deleted but temporary files of writes whose process is gone: remove the folder to clear it.
public enum GraphCache {
    /// Version of the file layout and of the adjacency it stores; part of the key.
    static let formatVersion: UInt32 = 2
    /// First bytes of a cache file.
    static let magic: [UInt8] = Array("FTGRAPH\u{0}".utf8)
    /// Header: magic (8), version (4), profile count (4), key (32), payload length (8), CRC-32 of the payload
    /// (4), padding (4), then the HMAC-SHA256 (32) of those 64 bytes and the payload under the user's secret.
    static let headerBytes = 96
    /// Bytes of the header the HMAC covers (all before the HMAC itself).
    static let signedHeaderBytes = 64

    /// What happened to the cache on one load.
    public enum Outcome: Sendable, Equatable {
        /// The cache is off, or the map is not a regular file (a pipe cannot be hashed twice).
        case disabled
        /// The prepared graph was read from the cache file.
        case hit
        /// There was no usable file (the reason says why: none yet, damaged, another key, …); the
        /// graph was built and the file written.
        case rebuilt(String)
    }

    /// The cache folder from the environment (see the type's documentation), or nil when disabled.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let setting = environment["FIELDTEST_GRAPH_CACHE"], !setting.isEmpty {
            if ["off", "0", "no", "false"].contains(setting.lowercased()) { return nil }
            return URL(fileURLWithPath: setting, isDirectory: true)
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("fieldtest/graphs")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/fieldtest/graphs")
    }

    /// The graph of `source` (read from the file `map`) for `profiles`, with the profiles named in
    /// `preparing` (nil: all) prepared now and the others when first used (not cached). The prepared
    /// ones' adjacency comes from the cache in `directory` when a valid file is there, else it is built
    /// and stored. A cache that cannot be written (a read-only folder) only costs the time to build.
    /// Throws what `CampusGraph.init` throws.
    public static func graph(
        source: MapSource, map: URL, profiles: RoutingProfiles = .builtIn, preparing: Set<String>? = nil,
        directory: URL?, secret: SymmetricKey? = userSecret()
    ) throws(RoutingError) -> (graph: CampusGraph, outcome: Outcome) {
        let prepared = profiles.profiles.indices.filter { preparing?.contains(profiles.profiles[$0].name) ?? true }
        guard let directory, let secret, let key = key(map: map, profiles: profiles.profiles, prepared: prepared)
        else {
            return (try CampusGraph(source: source, profiles: profiles, preparing: prepared) { _, _ in [:] }, .disabled)
        }
        let file = directory.appendingPathComponent(key.map { String(format: "%02x", $0) }.joined() + ".graph")
        removeStaleTemporaryFiles(in: directory)
        var reason = "no cache file yet"
        var offered: [CampusGraph.ProfileAdjacency] = []
        let graph = try CampusGraph(source: source, profiles: profiles, preparing: prepared) { _, _ in
            switch read(file, key: key, profileCount: prepared.count, secret: secret) {
            case .success(let adjacency):
                offered = adjacency
                return Dictionary(uniqueKeysWithValues: zip(prepared, adjacency))
            case .failure(let why):
                reason = why.reason
                return [:]
            }
        }
        // The graph checks the offered adjacency against its own arcs and builds its own when it does not fit.
        let used = prepared.map { graph.adjacency($0) }
        if !offered.isEmpty, offered.count == used.count, zip(used, offered).allSatisfy({ $0 === $1 }) {
            return (graph, .hit)
        }
        if !offered.isEmpty { reason = "the cached arcs do not match the map's graph" }
        write(used, key: key, to: file, in: directory, secret: secret)
        return (graph, .rebuilt(reason))
    }

    /// The key of `map` under `profiles` with those at the indices `prepared` (nil: all) prepared, or
    /// nil when the map is not a regular file.
    static func key(map: URL, profiles: [RoutingProfile], prepared: [Int]? = nil) -> [UInt8]? {
        var info = stat()
        guard stat(map.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let mapped = try? MappedFile(url: map)
        else { return nil }
        var hasher = SHA256()
        hasher.update(data: Array("fieldtest graph cache \(formatVersion)\n".utf8))
        hasher.update(bufferPointer: mapped.bytes)
        hasher.update(data: Array(profiles.map(describe).joined(separator: "\n").utf8))
        let names = (prepared ?? Array(profiles.indices)).map { profiles[$0].name }
        hasher.update(data: Array("\nprepared: \(names.joined(separator: ","))".utf8))
        return Array(hasher.finalize())
    }

    /// Every field of `p` that decides which arcs it may use, in a fixed order (sets sorted).
    static func describe(_ p: RoutingProfile) -> String {
        func set(_ s: Set<String>) -> String { s.sorted().joined(separator: ",") }
        func map(_ m: [String: Set<String>]) -> String {
            m.keys.sorted().map { "\($0)=\(set(m[$0] ?? []))" }.joined(separator: ";")
        }
        return [
            p.name, String(p.speedMetresPerSecond.bitPattern), set(p.highways), p.modeKey, set(p.modeDenied),
            set(p.accessDenied), set(p.modeOverridesAccess), p.onewayKey ?? "-", map(p.excludeWays),
            map(p.excludeNodes), p.maxInclinePercent.map { String($0.bitPattern) } ?? "-", p.accessibilityKey,
            "\(p.unknownAccessibility)",
        ].joined(separator: "|")
    }

    struct Refusal: Error {
        var reason: String
    }

    /// The prepared adjacencies of `file`, or why they cannot be used.
    static func read(_ file: URL, key: [UInt8], profileCount: Int, secret: SymmetricKey) -> Result<
        [CampusGraph.ProfileAdjacency], Refusal
    > {
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
        guard b.count >= headerBytes, Array(b[0..<8]) == magic else {
            return .failure(Refusal(reason: "the cache file is not a Fieldtest graph cache or is truncated"))
        }
        guard b.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian == formatVersion else {
            return .failure(Refusal(reason: "the cache file has another format version"))
        }
        guard Int(b.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian) == profileCount,
            Array(b[16..<48]) == key
        else { return .failure(Refusal(reason: "the cache file holds another map or other profiles")) }
        let length = Int(b.loadUnaligned(fromByteOffset: 48, as: UInt64.self).littleEndian)
        guard length == b.count - headerBytes else {
            return .failure(Refusal(reason: "the cache file is truncated or has bytes past its end"))
        }
        let payload = UnsafeRawBufferPointer(rebasing: b[headerBytes...])
        guard Checksum.crc32(payload) == b.loadUnaligned(fromByteOffset: 56, as: UInt32.self).littleEndian else {
            return .failure(Refusal(reason: "the cache file is damaged (its checksum does not match)"))
        }
        var mac = HMAC<SHA256>(key: secret)
        mac.update(data: UnsafeRawBufferPointer(rebasing: b[0..<signedHeaderBytes]))
        mac.update(data: payload)
        guard mac.finalize() == UnsafeRawBufferPointer(rebasing: b[signedHeaderBytes..<headerBytes]) else {
            return .failure(
                Refusal(reason: "the cache file was not written by this user's Fieldtest (its HMAC does not match)"))
        }
        var reader = ArrayReader(bytes: payload)
        var out: [CampusGraph.ProfileAdjacency] = []
        for _ in 0..<profileCount {
            guard let a = reader.adjacency() else {
                return .failure(Refusal(reason: "the cache file's arrays are malformed"))
            }
            out.append(a)
        }
        guard reader.atEnd else { return .failure(Refusal(reason: "the cache file has bytes past its arrays")) }
        return .success(out)
    }

    /// Removes the temporary files (`.<key>.graph.<pid>.<n>.tmp`) of writes whose process is gone
    /// (killed with SIGKILL mid-write); those of live processes are left alone.
    static func removeStaleTemporaryFiles(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") && name.contains(".graph.") {
            let fields = name.split(separator: ".")  // key, graph, pid, n, tmp
            guard fields.count == 5, fields[1] == "graph", let pid = Int32(fields[2]), pid > 0,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// Writes `adjacency` under `key` to `file`, signed with `secret`, through a temporary file and a
    /// rename; failures are ignored.
    static func write(
        _ adjacency: [CampusGraph.ProfileAdjacency], key: [UInt8], to file: URL, in directory: URL, secret: SymmetricKey
    ) {
        var w = ArrayWriter()
        for a in adjacency { w.adjacency(a) }
        var header = magic
        func append<T: FixedWidthInteger>(_ v: T) {
            withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) }
        }
        append(formatVersion)
        append(UInt32(adjacency.count))
        header.append(contentsOf: key)
        append(UInt64(w.bytes.count))
        append(w.bytes.withUnsafeBytes { Checksum.crc32($0) })
        append(UInt32(0))
        var mac = HMAC<SHA256>(key: secret)
        mac.update(data: header)
        mac.update(data: w.bytes)
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
            try Data(header + w.bytes).write(to: temporary)
            if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            // A cache that cannot be written costs only time.
        }
    }
}

/// Appends arrays as a little-endian count followed by the elements' bytes, padded to 8 bytes.
private struct ArrayWriter {
    var bytes: [UInt8] = []

    mutating func array<T: BitwiseCopyable>(_ values: [T]) {
        withUnsafeBytes(of: UInt64(values.count).littleEndian) { bytes.append(contentsOf: $0) }
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        while bytes.count % 8 != 0 { bytes.append(0) }
    }

    mutating func adjacency(_ a: CampusGraph.ProfileAdjacency) {
        array(a.offsets)
        array(a.targets)
        array(a.lengths)
        array(a.arcs)
        array(a.edges)
        array(a.component)
        array(a.componentSizes)
        array([a.largestComponent])
        array(a.reverseOffsets)
        array(a.reverseTargets)
        array(a.reverseLengths)
        array(a.reverseArcs)
        array(a.reverseEdges)
        array([Int64(a.landmarks.count)])
        array([a.landmarks.component])
        array(a.landmarks.distances)
        array(a.landmarks.landmarks)
    }
}

/// Reads what `ArrayWriter` wrote, checking every count against the bytes left.
private struct ArrayReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var atEnd: Bool { offset == bytes.count }

    mutating func array<T: BitwiseCopyable>(_: T.Type) -> [T]? {
        guard offset + 8 <= bytes.count else { return nil }
        let count = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
        offset += 8
        let size = MemoryLayout<T>.stride
        guard count <= UInt64(bytes.count - offset) / UInt64(size) else { return nil }
        let n = Int(count)
        let values = [T](unsafeUninitializedCapacity: n) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(
                from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n * size]))
            initialized = n
        }
        offset += n * size
        offset = min(bytes.count, (offset + 7) / 8 * 8)
        return values
    }

    mutating func adjacency() -> CampusGraph.ProfileAdjacency? {
        guard let offsets = array(Int32.self), let targets = array(Int32.self), let lengths = array(Double.self),
            let arcs = array(Int32.self), let edges = array(Int32.self), let component = array(Int32.self),
            let sizes = array(Int32.self), let largest = array(Int32.self), largest.count == 1,
            let rOffsets = array(Int32.self), let rTargets = array(Int32.self), let rLengths = array(Double.self),
            let rArcs = array(Int32.self), let rEdges = array(Int32.self), let lCount = array(Int64.self),
            lCount.count == 1, lCount[0] >= 0, lCount[0] <= 1024, let lComponent = array(Int32.self),
            lComponent.count == 1, let distances = array(Double.self), let landmarks = array(Int32.self)
        else { return nil }
        return CampusGraph.ProfileAdjacency(
            offsets: offsets, targets: targets, lengths: lengths, arcs: arcs, edges: edges, component: component,
            componentSizes: sizes, largestComponent: largest[0], reverseOffsets: rOffsets, reverseTargets: rTargets,
            reverseLengths: rLengths, reverseArcs: rArcs, reverseEdges: rEdges,
            landmarks: LandmarkBounds(
                count: Int(lCount[0]), component: lComponent[0], distances: distances, landmarks: landmarks))
    }
}
