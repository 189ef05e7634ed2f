import CampusRouting
import FieldtestCrypto
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
/// cache can cost time but never change an answer. The file mechanics are `SignedCacheFile`'s; the
/// bytes are `CampusGraph.preparedBytes(profiles:)`.
///
/// Where: `FIELDTEST_GRAPH_CACHE` names the folder, or `off` disables the cache; unset, the folder
/// is `$XDG_CACHE_HOME/fieldtest/graphs`, else `~/.cache/fieldtest/graphs`, created 0700. Nothing is
/// ever deleted but temporary files of writes whose process is gone: remove the folder to clear it.
public enum GraphCache {
    /// The cache files' format (the version is the prepared adjacency's); part of the key.
    static let format = SignedCacheFile.Format(
        magic: Array("FTGRAPH\u{0}".utf8), version: CampusGraph.preparedFormatVersion, fileExtension: "graph",
        kind: "a Fieldtest graph cache", otherKey: "another map or other profiles")

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

    /// The key that signs this user's cache files (`SignedCacheFile.userSecret(file:)` of
    /// `secretFile`): nil, and so no cache, without a home folder or a usable secret file.
    public static func userSecret(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> SymmetricKey?
    {
        secretFile(environment: environment).flatMap { SignedCacheFile.userSecret(file: $0) }
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
            return (try CampusGraph(source: source, profiles: profiles, preparing: prepared) { nil }, .disabled)
        }
        let file = SignedCacheFile.file(key: key, in: directory, format: format)
        SignedCacheFile.removeStaleTemporaryFiles(in: directory, format: format)
        var reason = "no cache file yet"
        var offered: CampusGraph.PreparedAdjacency?
        let graph = try CampusGraph(source: source, profiles: profiles, preparing: prepared) {
            switch read(file, key: key, profileCount: prepared.count, secret: secret) {
            case .success(let adjacency):
                offered = adjacency
                return adjacency
            case .failure(let why):
                reason = why.reason
                return nil
            }
        }
        // The graph checks the offered adjacency against its own arcs and builds its own when it does not fit.
        if let offered, offered.count > 0, graph.uses(offered, for: prepared) { return (graph, .hit) }
        if let offered, offered.count > 0 { reason = "the cached arcs do not match the map's graph" }
        write(
            graph.preparedBytes(profiles: prepared), entries: prepared.count, key: key, to: file, in: directory,
            secret: secret)
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
        hasher.update(data: Array("fieldtest graph cache \(format.version)\n".utf8))
        hasher.update(bufferPointer: mapped.bytes)
        hasher.update(data: Array(profiles.map(CampusGraph.preparedDescription).joined(separator: "\n").utf8))
        let names = (prepared ?? Array(profiles.indices)).map { profiles[$0].name }
        hasher.update(data: Array("\nprepared: \(names.joined(separator: ","))".utf8))
        return hasher.finalize()
    }

    /// The prepared adjacencies of `file`, or why they cannot be used.
    static func read(_ file: URL, key: [UInt8], profileCount: Int, secret: SymmetricKey) -> Result<
        CampusGraph.PreparedAdjacency, SignedCacheFile.Refusal
    > {
        SignedCacheFile.read(file, format: format, key: key, entries: profileCount, secret: secret) { payload in
            CampusGraph.preparedAdjacency(decoding: payload, count: profileCount).mapError {
                SignedCacheFile.Refusal(reason: $0.reason)
            }
        }
    }

    /// Writes the prepared adjacency `payload` of `entries` profiles under `key` to `file`, signed with
    /// `secret`, through a temporary file and a rename; failures are ignored.
    static func write(
        _ payload: [UInt8], entries: Int, key: [UInt8], to file: URL, in directory: URL, secret: SymmetricKey
    ) {
        SignedCacheFile.write(
            payload, entries: entries, key: key, format: format, to: file, in: directory, secret: secret)
    }
}
