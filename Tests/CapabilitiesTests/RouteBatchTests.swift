import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import CampusRouting
@testable import Capabilities

/// The maps and reference queries of `Tests/CampusRoutingTests`, read by path.
enum RouteFixtures {
    static let repo = ServedCoreTests.repo
    static func fixture(_ name: String) -> URL {
        repo.appendingPathComponent("Tests/CampusRoutingTests/Fixtures/\(name)")
    }
    static let smallMap = fixture("small.geojson")
    static let montgomery = repo.appendingPathComponent("Datasets/maps/montgomery_college_rockville_campus.osm")
    static let quito = repo.appendingPathComponent("Datasets/maps/universidad_central_del_ecuador_campus.osm")

    static func graph(_ url: URL) throws -> CampusGraph {
        try CampusGraph(source: try MapFile.load(url: url).source)
    }

    /// The hand-made map of `CampusRoutingTests.SmallMap`.
    static func smallGraph() throws -> CampusGraph { try graph(smallMap) }
}

/// `RouteBatch`: queries in, routes and CSV out, as `fieldtest route` runs them.
@Suite("Route batch")
struct RouteBatchTests {
    @Test("the batch CSV has the exact columns")
    func batchCSV() throws {
        let g = try RouteFixtures.smallGraph()
        let q = "id,from_lat,from_lon,to_lat,to_lon,profile\nq1,0,0,0.001,0.001,walk\nq2,5,5,0,0,walk\n"
        let queries = try RouteBatch.parseQueries(Array(q.utf8), file: "q.csv")
        let out = RouteBatch.csv(queries: queries, routes: try RouteBatch.run(graph: g, queries: queries))
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines[0] == "id,status,length_m,duration_s,node_ids,path,from_snap_m,to_snap_m")
        #expect(lines[1] == "q1,ok,222.390160467,158.850114619,,0.0 0.0;0.0 0.001;0.001 0.001,0,0")
        #expect(lines[2] == "q2,no_snap,,,,,,0")
    }

    @Test("bad queries are located; unknown profiles named")
    func badQueries() throws {
        let g = try RouteFixtures.smallGraph()
        #expect(
            throws: RoutingError.data(
                .invalidField(file: "q.csv", line: 2, field: "from_lat", value: "95", reason: "outside -90…90"))
        ) {
            try RouteBatch.parseQueries(
                Array("id,from_lat,from_lon,to_lat,to_lon,profile\n1,95,0,0,0,walk\n".utf8), file: "q.csv")
        }
        let queries = try RouteBatch.parseQueries(
            Array("id,from_lat,from_lon,to_lat,to_lon,profile\n1,0,0,0,0,bike\n".utf8), file: "q.csv")
        #expect(throws: RoutingError.self) { try RouteBatch.run(graph: g, queries: queries, queriesFile: "q.csv") }
    }

    @Test("a profile file with invalid UTF-8 is refused with its line, not decoded to U+FFFD")
    func invalidUTF8() throws {
        let dir = TemporaryFiles.url("profiles")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = Array("version: 1\nprofiles:\n  walk:\n    description: caf".utf8)
        bytes += [0xC3, 0x28]  // a lead byte followed by a non-continuation byte
        bytes += Array("\n    speed_mps: 1.4\n    highways: [footway]\n".utf8)
        let profiles = dir.appendingPathComponent("p.yaml")
        try Data(bytes).write(to: profiles)
        #expect {
            _ = try RouteBatch.run(graph: "unused.osm", queries: "unused.csv", congestion: nil, profiles: profiles.path)
        } throws: { error in
            guard case RoutingError.data(.invalidUTF8(_, let line, _)) = error else { return false }
            return line == 4
        }
    }

    @Test(
        "no wheelchair route on a campus uses a forbidden edge or node",
        arguments: [RouteFixtures.montgomery, RouteFixtures.quito])
    func forbidden(map: URL) throws {
        let g = try RouteFixtures.graph(map)
        let bytes = try readFileBytes(
            RouteFixtures.fixture(map == RouteFixtures.quito ? "reference_quito.csv" : "reference_montgomery.csv"))
        let qs = try RouteBatch.parseQueries(bytes, file: "ref").filter { $0.profile == "wheelchair" }
        for r in try RouteBatch.run(graph: g, queries: qs) where r.status == .ok {
            let audit = RouteAudit(route: r, graph: g)
            #expect(audit.isWheelchairPassable)
            #expect(audit.impassableEdges == 0)
        }
    }
}

/// `MapFile.load(url:)`: the format from the name and the first bytes.
@Suite("Map files")
struct MapFileLoadTests {
    @Test("a PBF named .osm is told by its header")
    func sniffed() throws {
        let dir = TemporaryFiles.url("pbf-sniff")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let misnamed = dir.appendingPathComponent("campus.osm")
        try FileManager.default.copyItem(
            at: RouteFixtures.fixture("universidad_central_del_ecuador_campus.osm.pbf"), to: misnamed)
        #expect(try MapFile.load(url: misnamed).osm?.nodes.count == 1680)
        guard case .detected(let format, _) = DatasetFormatDetection.detect(url: misnamed) else {
            Issue.record("not detected")
            return
        }
        #expect(format == .osmPBF)
    }
}

@Suite("Route batches on several threads")
struct RouteBatchThreadsTests {
    @Test("the same routes in the same order on any number of threads", arguments: [2, 3])
    func sameRoutes(jobs: Int) throws {
        let g = try RouteFixtures.graph(RouteFixtures.montgomery)
        var rng = SeededGenerator(seed: 17)
        let lats = g.vertices.map(\.location.latitude)
        let lons = g.vertices.map(\.location.longitude)
        func point() -> GeoPoint {
            GeoPoint(
                latitude: Double.random(in: lats.min()!...lats.max()!, using: &rng),
                longitude: Double.random(in: lons.min()!...lons.max()!, using: &rng))
        }
        let queries = (0..<700).map { i in
            RouteBatch.Query(
                id: "q\(i)", from: point(), to: point(), profile: i % 4 == 0 ? "wheelchair" : "walk", line: i + 2)
        }
        let one = try RouteBatch.run(graph: g, queries: queries, jobs: 1)
        let many = try RouteBatch.run(graph: g, queries: queries, jobs: jobs)
        #expect(one.count == queries.count)
        #expect(one == many)
        #expect(
            RouteBatch.rows(queries: queries, routes: one).bytes
                == RouteBatch.rows(queries: queries, routes: many).bytes)
        #expect(
            try RouteBatch.routedRows(graph: g, queries: queries, jobs: jobs).bytes
                == RouteBatch.rows(queries: queries, routes: one).bytes)
        #expect(one.filter { $0.status == .ok }.count > 100)
    }
}
