import CampusRouting
import FieldtestData
import Foundation
import Testing

/// Paths of the bundled maps and committed fixtures, from this file's location.
enum RoutingFixtures {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let datasets = here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "Datasets")
    static func campus(_ name: String) -> URL { datasets.appendingPathComponent("maps/\(name)") }
    static let montgomery = campus("montgomery_college_rockville_campus.osm")
    static let quito = campus("universidad_central_del_ecuador_campus.osm")
    static func fixture(_ name: String) -> URL { here.appendingPathComponent("Fixtures/\(name)") }

    /// The map in the file `url`, parsed as its extension says (`.pbf`, `.geojson`, else OSM XML).
    static func map(_ url: URL, policy: LoadPolicy = .strict) throws -> MapFile {
        let ext = url.pathExtension.lowercased()
        let format: MapFile.Format = ext == "pbf" ? .osmPBF : ["geojson", "json"].contains(ext) ? .geoJSON : .osmXML
        return try MapFile.parse(try Data(contentsOf: url), format: format, file: url.path, policy: policy)
    }

    static func graph(_ url: URL) throws -> CampusGraph {
        try CampusGraph(source: try map(url).source)
    }

    /// A reference query: its id, ends and profile.
    struct Query {
        var id: String
        var from: GeoPoint
        var to: GeoPoint
        var profile: String
    }

    /// The queries of a reference CSV (`id,from_lat,from_lon,to_lat,to_lon,profile,…`).
    static func queries(_ url: URL) throws -> [Query] {
        try CSVTable(url: url).load(policy: .strict) { (row: CSVRow) throws(DataError) -> Query in
            Query(
                id: try row.string("id"),
                from: GeoPoint(latitude: try row.double("from_lat"), longitude: try row.double("from_lon")),
                to: GeoPoint(latitude: try row.double("to_lat"), longitude: try row.double("to_lon")),
                profile: try row.string("profile"))
        }.records
    }

    /// A seeded uniform point in `g`'s vertex bounding box widened by `marginDegrees` on each side.
    static func randomPoint(in g: CampusGraph, marginDegrees: Double = 0, using rng: inout SeededGenerator)
        -> GeoPoint
    {
        let lats = g.vertices.map(\.location.latitude)
        let lons = g.vertices.map(\.location.longitude)
        return GeoPoint(
            latitude: Double.random(in: (lats.min()! - marginDegrees)...(lats.max()! + marginDegrees), using: &rng),
            longitude: Double.random(in: (lons.min()! - marginDegrees)...(lons.max()! + marginDegrees), using: &rng))
    }
}

/// The reference snaps each query end to its nearest routable vertex (the router's former rule); the
/// router's vertex-to-vertex search is compared on those vertices. Edge snapping is checked against a
/// brute-force split graph in `EdgeSnapTests`.
@Suite("Routes match networkx Dijkstra exactly")
struct NetworkxReferenceTests {
    @Test(
        "reference queries between the nearest vertices",
        arguments: [("montgomery", RoutingFixtures.montgomery), ("quito", RoutingFixtures.quito)])
    func reference(name: String, map: URL) throws {
        let graph = try RoutingFixtures.graph(map)
        let table = try CSVTable(url: RoutingFixtures.fixture("reference_\(name).csv"))
        let expected = try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> (String, Double?) in
            (try row.string("status"), try row.optionalDouble("length_m"))
        }.records
        let queries = try RoutingFixtures.queries(RoutingFixtures.fixture("reference_\(name).csv"))
        #expect(queries.count == 200)
        var router = AStarRouter()
        let routes = try queries.map { q in
            let p = try graph.profileIndex(named: q.profile)
            guard let s = graph.snap(q.from, profile: p), let t = graph.snap(q.to, profile: p) else {
                return Route.failed(.noSnap, profile: q.profile)
            }
            return router.route(in: graph, fromVertex: s.vertex, toVertex: t.vertex, profile: p)
        }
        var okCount = 0
        for (q, (r, e)) in zip(queries, zip(routes, expected)) {
            #expect(r.status.rawValue == e.0, "query \(q.id)")
            if r.status == .ok, let want = e.1 {
                okCount += 1
                // networkx sums the same haversine terms in a different order: relative 1e-6 is generous.
                #expect(
                    abs(r.lengthMetres - want) <= 1e-6 * max(1, want), "query \(q.id): \(r.lengthMetres) vs \(want)")
                // The path is continuous and node ids match the points.
                #expect(r.nodeIDs.count == r.points.count)
                // A profile's duration is its length at its speed when there is no congestion (1e-9 relative).
                let speed = q.profile == "walk" ? 1.4 : 1.0
                #expect(abs(r.durationSeconds - r.lengthMetres / speed) <= 1e-9 * max(1, r.durationSeconds))
            }
        }
        #expect(okCount > 100)
    }
}
