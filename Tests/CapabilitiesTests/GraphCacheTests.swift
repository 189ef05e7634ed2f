import FieldtestCrypto
import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import CampusRouting
@testable import Capabilities

/// The prepared-graph cache: a second load reads it, and a damaged, truncated or foreign file is
/// noticed and rebuilt with the same answers.
@Suite("Prepared graph cache")
struct GraphCacheTests {
    static let map = RouteFixtures.quito

    /// A fresh cache folder, removed by the caller.
    static func folder() throws -> URL {
        let dir = TemporaryFiles.url("graph-cache")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func load(_ dir: URL?, profiles: RoutingProfiles = .builtIn) throws -> (
        graph: CampusGraph, outcome: GraphCache.Outcome
    ) {
        try GraphCache.graph(source: try MapFile.load(url: map).source, map: map, profiles: profiles, directory: dir)
    }

    /// Route lengths and node ids between seeded vertex pairs, for every profile.
    static func answers(_ g: CampusGraph) -> [String] {
        var rng = SeededGenerator(seed: 11)
        var router = AStarRouter()
        var out: [String] = []
        for p in g.profiles.indices {
            for _ in 0..<100 {
                let s = Int32.random(in: 0..<Int32(g.vertices.count), using: &rng)
                let t = Int32.random(in: 0..<Int32(g.vertices.count), using: &rng)
                let r = router.route(in: g, fromVertex: s, toVertex: t, profile: p)
                out.append("\(p) \(s) \(t) \(r.status) \(r.lengthMetres.bitPattern) \(r.nodeIDs)")
            }
        }
        return out
    }

    static func sameAdjacency(_ a: CampusGraph, _ b: CampusGraph) -> Bool {
        zip(a.profileAdjacency, b.profileAdjacency).allSatisfy { x, y in
            x.offsets == y.offsets && x.targets == y.targets && x.arcs == y.arcs && x.edges == y.edges
                && x.lengths.map(\.bitPattern) == y.lengths.map(\.bitPattern) && x.component == y.component
                && x.componentSizes == y.componentSizes && x.largestComponent == y.largestComponent
                && x.reverseOffsets == y.reverseOffsets && x.reverseTargets == y.reverseTargets
                && x.reverseArcs == y.reverseArcs && x.reverseEdges == y.reverseEdges
                && x.landmarks.landmarks == y.landmarks.landmarks
                && x.landmarks.distances.map(\.bitPattern) == y.landmarks.distances.map(\.bitPattern)
        }
    }

    static func cacheFile(in dir: URL) throws -> URL {
        let files = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "graph" }
        #expect(files.count == 1, "\(files)")
        return try #require(files.first)
    }

    @Test("the second load reads the cache and answers as a graph built from scratch")
    func hit() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let built = try CampusGraph(source: try MapFile.load(url: Self.map).source)
        let first = try Self.load(dir)
        #expect(first.outcome == .rebuilt("no cache file yet"))
        let second = try Self.load(dir)
        #expect(second.outcome == .hit)
        #expect(Self.sameAdjacency(second.graph, built))
        #expect(second.graph.profileAdjacency.contains { $0.landmarks.count > 0 })
        #expect(Self.answers(second.graph) == Self.answers(built))
    }

    enum Damage: String, CaseIterable, Sendable {
        case flippedPayloadByte, flippedHeaderByte, truncated, extended, empty
    }

    @Test("a damaged cache file is noticed, rebuilt and rewritten", arguments: Damage.allCases)
    func damaged(_ damage: Damage) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let built = try CampusGraph(source: try MapFile.load(url: Self.map).source)
        _ = try Self.load(dir)
        let file = try Self.cacheFile(in: dir)
        var bytes = [UInt8](try Data(contentsOf: file))
        switch damage {
        case .flippedPayloadByte: bytes[bytes.count / 2] ^= 0x04
        case .flippedHeaderByte: bytes[2] ^= 0x01
        case .truncated: bytes.removeLast(bytes.count / 3)
        case .extended: bytes += [0, 0, 0, 0, 0, 0, 0, 0]
        case .empty: bytes = []
        }
        try Data(bytes).write(to: file)
        let reloaded = try Self.load(dir)
        guard case .rebuilt(let reason) = reloaded.outcome else {
            Issue.record("a \(damage) cache file was used")
            return
        }
        #expect(reason != "no cache file yet", "\(reason)")
        #expect(Self.sameAdjacency(reloaded.graph, built))
        #expect(Self.answers(reloaded.graph) == Self.answers(built))
        #expect(try Self.load(dir).outcome == .hit)
    }

    @Test("a file of other profiles or another map under this key is not used")
    func foreignFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let walkOnly = RoutingProfiles(RoutingProfiles.builtIn.profiles.filter { $0.name == "walk" })
        _ = try Self.load(dir, profiles: walkOnly)
        let other = try Self.cacheFile(in: dir)
        // The walk-only file copied to the name of the full profile set's key: its header names other profiles.
        let key = try #require(GraphCache.key(map: Self.map, profiles: RoutingProfiles.builtIn.profiles))
        let name = key.map { String(format: "%02x", $0) }.joined() + ".graph"
        try FileManager.default.removeItem(at: other)
        _ = try Self.load(dir)
        let file = dir.appendingPathComponent(name)
        #expect(FileManager.default.fileExists(atPath: file.path))
        // Another map's adjacency written under this key, with a valid checksum: the arcs do not fit.
        let montgomery = try CampusGraph(source: try MapFile.load(url: RouteFixtures.montgomery).source)
        GraphCache.write(
            CampusGraph.preparedBytes(of: montgomery.profileAdjacency), entries: montgomery.profiles.count, key: key,
            to: file, in: dir, secret: try #require(GraphCache.userSecret()))
        let reloaded = try Self.load(dir)
        #expect(reloaded.outcome == .rebuilt("the cached arcs do not match the map's graph"))
        #expect(
            Self.answers(reloaded.graph)
                == Self.answers(try CampusGraph(source: try MapFile.load(url: Self.map).source)))
        // Other profiles: another key, so another file.
        #expect(try Self.load(dir, profiles: walkOnly).outcome == .rebuilt("no cache file yet"))
    }

    @Test("a graph prepared for some profiles prepares the others on first use, once, with the same answers")
    func partlyPrepared() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try MapFile.load(url: Self.map).source
        let built = try CampusGraph(source: source)
        let walk = try built.profileIndex(named: "walk")
        func prepared(_ g: CampusGraph) -> [Int] {
            g.profiles.indices.filter { g.preparedProfiles.preparedAdjacency($0) != nil }
        }
        let first = try GraphCache.graph(source: source, map: Self.map, preparing: ["walk"], directory: dir)
        #expect(first.outcome == .rebuilt("no cache file yet"))
        #expect(prepared(first.graph) == [walk])
        let second = try GraphCache.graph(source: source, map: Self.map, preparing: ["walk"], directory: dir)
        #expect(second.outcome == .hit)
        #expect(prepared(second.graph) == [walk])
        #expect(Self.answers(second.graph) == Self.answers(built))
        #expect(prepared(second.graph) == Array(built.profiles.indices))
        #expect(Self.sameAdjacency(second.graph, built))
        // All profiles prepared: another key, so another file.
        #expect(try Self.load(dir).outcome == .rebuilt("no cache file yet"))
        // Without a cache, several threads asking at once for an unprepared profile share one build.
        let lazy = try GraphCache.graph(source: source, map: Self.map, preparing: [], directory: nil).graph
        #expect(prepared(lazy).isEmpty)
        let cane = try built.profileIndex(named: "cane")
        let seen = ParallelSlices.map(count: 8, jobs: 8) { _ in ObjectIdentifier(lazy.adjacency(cane)) }
        #expect(Set(seen).count == 1)
        #expect(prepared(lazy) == [cane])
        #expect(Self.answers(lazy) == Self.answers(built))
    }

    @Test("the folder comes from FIELDTEST_GRAPH_CACHE, XDG_CACHE_HOME or HOME; off disables it")
    func location() throws {
        #expect(GraphCache.directory(environment: ["FIELDTEST_GRAPH_CACHE": "off", "HOME": "/h"]) == nil)
        #expect(GraphCache.directory(environment: ["FIELDTEST_GRAPH_CACHE": "/tmp/c"])?.path == "/tmp/c")
        #expect(
            GraphCache.directory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.path == "/x/fieldtest/graphs")
        #expect(GraphCache.directory(environment: ["HOME": "/h"])?.path == "/h/.cache/fieldtest/graphs")
        #expect(try Self.load(nil).outcome == .disabled)
    }

    /// `a` with every vertex in a component of its own: arrays consistent in size and range, so only
    /// their provenance can tell them from the real ones.
    static func isolated(_ a: CampusGraph.ProfileAdjacency) -> CampusGraph.ProfileAdjacency {
        let n = Int32(a.component.count)
        return CampusGraph.ProfileAdjacency(
            offsets: a.offsets, targets: a.targets, lengths: a.lengths, arcs: a.arcs, edges: a.edges,
            component: Array(0..<n), componentSizes: [Int32](repeating: 1, count: Int(n)), largestComponent: 0,
            reverseOffsets: a.reverseOffsets, reverseTargets: a.reverseTargets, reverseLengths: a.reverseLengths,
            reverseArcs: a.reverseArcs, reverseEdges: a.reverseEdges, landmarks: a.landmarks)
    }

    @Test("N17: a cache file forged by someone without the user's secret is rebuilt, never changes a route")
    func n17ForgedCacheIsNotTrusted() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let built = try CampusGraph(source: try MapFile.load(url: Self.map).source)
        _ = try Self.load(dir)
        let file = try Self.cacheFile(in: dir)
        let key = try #require(GraphCache.key(map: Self.map, profiles: RoutingProfiles.builtIn.profiles))
        // Tampered component ids, written whole with a valid CRC-32, under another secret: a writer of the
        // cache folder who cannot read the user's secret file.
        let forged = built.profileAdjacency.map(Self.isolated)
        GraphCache.write(
            CampusGraph.preparedBytes(of: forged), entries: forged.count, key: key, to: file, in: dir,
            secret: SymmetricKey.random())
        let reloaded = try Self.load(dir)
        guard case .rebuilt(let reason) = reloaded.outcome else {
            Issue.record("a forged cache file was used")
            return
        }
        #expect(reason.contains("HMAC"), "\(reason)")
        #expect(Self.answers(reloaded.graph) == Self.answers(built))
        #expect(try Self.load(dir).outcome == .hit)
        // Signed with the user's own secret, the same tampering is taken as the user's own file (the arcs
        // fit): the secret, not the arrays, is what a shared folder's files are trusted by.
        #expect(GraphCache.userSecret() != nil)
    }

    @Test("N17: the secret is the user's own 0600 file; one others may read or write is not used")
    func n17SecretFileMustBePrivate() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("config/graph-cache.key")
        let environment = ["FIELDTEST_GRAPH_CACHE_KEY": file.path]
        let first = try #require(GraphCache.userSecret(environment: environment))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        func bytes(_ k: SymmetricKey?) -> [UInt8]? { k?.withUnsafeBytes { Array($0) } }
        #expect(bytes(GraphCache.userSecret(environment: environment)) == bytes(first))
        chmod(file.path, 0o644)
        #expect(bytes(GraphCache.userSecret(environment: environment)) == nil)
        chmod(file.path, 0o600)
        try Data([1, 2, 3]).write(to: file)
        chmod(file.path, 0o600)
        #expect(bytes(GraphCache.userSecret(environment: environment)) == nil)
        // Without a usable secret the cache is not used at all.
        let map = try MapFile.load(url: Self.map).source
        let cacheDir = dir.appendingPathComponent("cache")
        let outcome = try GraphCache.graph(source: map, map: Self.map, directory: cacheDir, secret: nil).outcome
        #expect(outcome == .disabled)
        #expect(!FileManager.default.fileExists(atPath: cacheDir.path))
        #expect(
            GraphCache.secretFile(environment: ["HOME": "/h"])?.path == "/h/.config/fieldtest/graph-cache.key")
        #expect(
            GraphCache.secretFile(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])?.path
                == "/x/fieldtest/graph-cache.key")
    }
}
