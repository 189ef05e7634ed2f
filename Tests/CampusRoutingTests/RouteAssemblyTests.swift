import CampusRouting
import FieldtestData
import Foundation
import Testing

@Suite("Route assembly expands steps into every shape point and node id")
struct RouteAssemblyTests {
    /// Rebuilds a route's points, node ids, length and duration from the graph's edge records along its
    /// steps and checks the router's output matches exactly (points and ids) or within 1e-12 relative
    /// (sums), for A* (which assembles from its parent arcs), with and without congestion.
    @Test(
        "routes match an edge-by-edge expansion",
        arguments: [RoutingFixtures.montgomery, RoutingFixtures.quito])
    func expansion(map: URL) throws {
        let graph = try RoutingFixtures.graph(map)
        let p = try graph.profileIndex(named: "walk")
        let speed = graph.profiles[p].speedMetresPerSecond
        var rng = SeededGenerator(seed: 11)
        let slowdown = (0..<graph.edges.count).map { _ in Double.random(in: 1...3, using: &rng) }
        var checked = 0
        do {
            var router = AStarRouter()
            for i in 0..<200 {
                let s = Int32(Int.random(in: 0..<graph.vertices.count, using: &rng))
                let t = Int32(Int.random(in: 0..<graph.vertices.count, using: &rng))
                let factors: [Double]? = i % 2 == 0 ? nil : slowdown
                let r = router.route(in: graph, fromVertex: s, toVertex: t, profile: p, slowdown: factors)
                guard r.status == .ok else { continue }
                checked += 1
                var pts = [graph.vertices[Int(s)].location]
                var ids = graph.vertices[Int(s)].osmID.map { [$0] } ?? []
                var length = 0.0
                var duration = 0.0
                for step in r.steps {
                    let e = graph.edges[Int(step.edge)]
                    pts += step.forward ? Array(e.shape.dropFirst()) : Array(e.shape.reversed().dropFirst())
                    ids += step.forward ? Array(e.nodeIDs.dropFirst()) : Array(e.nodeIDs.reversed().dropFirst())
                    length += e.lengthMetres
                    duration += e.lengthMetres * (factors?[Int(step.edge)] ?? 1) / speed
                }
                #expect(r.points == pts, "\(s)→\(t)")
                #expect(r.nodeIDs == ids, "\(s)→\(t)")
                #expect(
                    r.points.first == graph.vertices[Int(s)].location
                        && r.points.last == graph.vertices[Int(t)].location)
                #expect(abs(r.lengthMetres - length) <= 1e-12 * max(1, length), "\(s)→\(t)")
                #expect(abs(r.durationSeconds - duration) <= 1e-12 * max(1, duration), "\(s)→\(t)")
                #expect(r.profile == "walk")
            }
        }
        #expect(checked >= 20, "only \(checked) routable pairs")
    }
}
