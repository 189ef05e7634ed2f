import CampusRouting
import FieldtestData
import Foundation
import Testing

@Suite("Campus graph, snapping and routing")
struct CampusGraphTests {
    @Test("GeoJSON vertices are line ends and shared positions; shapes kept")
    func structure() throws {
        let g = try SmallMap.graph()
        #expect(g.vertices.count == 5)  // A, B, C, E, F (D is a shape point)
        #expect(g.edges.count == 4)
        let long = try #require(g.edges.first { $0.shape.count == 3 })
        #expect(long.nodeIDs.isEmpty)
        #expect(long.tags["wheelchair"] == "yes")
        let south = try #require(g.edges.first { $0.name == "South Walk" })
        #expect(abs(south.lengthMetres - SmallMap.milliDegree) < 1e-6)
    }

    @Test("walk takes the short way over the steps; wheelchair the long way round")
    func profiles() throws {
        let g = try SmallMap.graph()
        var router = AStarRouter()
        let walk = router.route(in: g, from: SmallMap.a, to: SmallMap.c, profile: try g.profileIndex(named: "walk"))
        #expect(walk.status == .ok)
        #expect(abs(walk.lengthMetres - 2 * SmallMap.milliDegree) < 1e-6)
        #expect(abs(walk.durationSeconds - walk.lengthMetres / 1.4) < 1e-9)
        #expect(walk.points.count == 3)
        let wc = router.route(in: g, from: SmallMap.a, to: SmallMap.c, profile: try g.profileIndex(named: "wheelchair"))
        #expect(wc.status == .ok)
        #expect(wc.points == [SmallMap.a, SmallMap.d, SmallMap.c])
        let expected = Geodesy.haversineMetres(SmallMap.a, SmallMap.d) + Geodesy.haversineMetres(SmallMap.d, SmallMap.c)
        #expect(abs(wc.lengthMetres - expected) < 1e-6)
        #expect(wc.lengthMetres > walk.lengthMetres)
    }

    @Test("snapping within 200 m, no_snap beyond, no_route across components")
    func statuses() throws {
        let g = try SmallMap.graph()
        let walk = try g.profileIndex(named: "walk")
        var router = AStarRouter()
        // 150 m north of B still snaps to B or C (C is 111 m from B's north point).
        let near = GeoPoint(latitude: 0.00135, longitude: 0.001)
        let snapped = try #require(g.snap(near, profile: walk))
        #expect(g.vertices[Int(snapped.vertex)].location == SmallMap.c)
        // 250 m from every vertex: no_snap.
        let far = GeoPoint(latitude: -0.00225, longitude: 0.0)
        #expect(g.snap(far, profile: walk) == nil)
        #expect(router.route(in: g, from: far, to: SmallMap.c, profile: walk).status == .noSnap)
        #expect(router.route(in: g, from: SmallMap.a, to: SmallMap.e, profile: walk).status == .noRoute)
        let same = router.route(in: g, from: SmallMap.a, to: SmallMap.a, profile: walk)
        #expect(same.status == .ok)
        #expect(same.lengthMetres < 1e-12)
    }

    @Test("OSM campus: shape nodes are kept and raised kerbs cut wheelchair edges")
    func campus() throws {
        let osm = try OSMXMLLoader.load(url: RoutingFixtures.quito)
        let g = try CampusGraph(source: MapSource(osm: osm, file: "quito"))
        let wc = try g.profileIndex(named: "wheelchair")
        let raised = Set(osm.nodes.filter { $0.tags["kerb"] == "raised" }.map(\.id))
        #expect(!raised.isEmpty)
        for (i, e) in g.edges.enumerated() where e.nodeIDs.contains(where: raised.contains) {
            #expect(g.access[wc][i] == 0)
        }
        for (i, e) in g.edges.enumerated() where e.tags["highway"] == "steps" { #expect(g.access[wc][i] == 0) }
        #expect(g.edges.allSatisfy { $0.nodeIDs.count == $0.shape.count })
    }
}
