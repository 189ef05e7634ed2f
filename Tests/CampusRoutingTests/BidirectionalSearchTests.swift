import CampusRouting
import FieldtestData
import Foundation
import Testing

@Suite("Bidirectional A* returns routes as cheap as forward A*")
struct BidirectionalSearchTests {
    static let helsinki = RoutingFixtures.campus("helsinki_centre.osm")

    /// Routes `pairs` random vertex pairs with both algorithms and checks equal status, equal cost
    /// (duration, which is cost / speed) and length within 1e-9 relative, and that each bidirectional
    /// route starts at s, ends at t, is connected and uses only arcs the profile allows.
    func compare(_ graph: CampusGraph, profile: String, pairs: Int, seed: UInt64, slowdown: [Double]? = nil) throws
        -> Int
    {
        let p = try graph.profileIndex(named: profile)
        var rng = SeededGenerator(seed: seed)
        var forward = AStarRouter()
        var both = AStarRouter()
        forward.algorithm = .unidirectional
        both.algorithm = .bidirectional
        var ok = 0
        for _ in 0..<pairs {
            let s = Int32(Int.random(in: 0..<graph.vertices.count, using: &rng))
            let t = Int32(Int.random(in: 0..<graph.vertices.count, using: &rng))
            let a = forward.route(in: graph, fromVertex: s, toVertex: t, profile: p, slowdown: slowdown)
            let b = both.route(in: graph, fromVertex: s, toVertex: t, profile: p, slowdown: slowdown)
            #expect(a.status == b.status, "\(profile) \(s)→\(t)")
            guard a.status == .ok, b.status == .ok else { continue }
            ok += 1
            #expect(
                abs(a.durationSeconds - b.durationSeconds) <= 1e-9 * max(1, a.durationSeconds), "\(profile) \(s)→\(t)")
            #expect(
                abs(a.lengthMetres - b.lengthMetres) <= 1e-9 * max(1, a.lengthMetres) || slowdown != nil,
                "\(profile) \(s)→\(t)")
            var v = s
            for step in b.steps {
                let e = graph.edges[Int(step.edge)]
                #expect((step.forward ? e.from : e.to) == v, "\(profile) \(s)→\(t): route not connected")
                let bit = step.forward ? CampusGraph.forwardBit : CampusGraph.backwardBit
                #expect(graph.access[p][Int(step.edge)] & bit != 0, "\(profile) \(s)→\(t): arc not usable")
                v = step.forward ? e.to : e.from
            }
            #expect(v == t, "\(profile) \(s)→\(t): route ends at \(v)")
        }
        return ok
    }

    @Test(
        "bundled maps, walk and wheelchair, 300 seeded pairs each",
        arguments: [RoutingFixtures.montgomery, RoutingFixtures.quito, helsinki])
    func bundled(map: URL) throws {
        let graph = try RoutingFixtures.graph(map)
        for (i, profile) in ["walk", "wheelchair"].enumerated() {
            let ok = try compare(graph, profile: profile, pairs: 300, seed: 7 + UInt64(i))
            #expect(ok >= 10, "\(map.lastPathComponent) \(profile): only \(ok) routable pairs")
        }
    }

    @Test("congestion slowdowns in [1, 4] per edge", arguments: [RoutingFixtures.montgomery, helsinki])
    func congested(map: URL) throws {
        let graph = try RoutingFixtures.graph(map)
        var rng = SeededGenerator(seed: 99)
        let slowdown = graph.edges.map { _ in Double.random(in: 1...4, using: &rng) }
        let ok = try compare(graph, profile: "walk", pairs: 300, seed: 11, slowdown: slowdown)
        #expect(ok > 100)
    }

    /// The bundled maps carry no `oneway:foot`, so one-ways are imposed: a seeded 40 % of edges keep
    /// only one direction, which the backward search must follow against the arc (reverse adjacency).
    @Test("one-way edges", arguments: [RoutingFixtures.montgomery, helsinki])
    func oneWay(map: URL) throws {
        let base = try RoutingFixtures.graph(map)
        var rng = SeededGenerator(seed: 2026)
        let access = base.access.map { bits in
            bits.map { b -> UInt8 in
                let u = Double.random(in: 0..<1, using: &rng)
                return u < 0.2 ? b & CampusGraph.forwardBit : u < 0.4 ? b & CampusGraph.backwardBit : b
            }
        }
        let graph = CampusGraph(
            file: base.file, profiles: base.profiles, vertices: base.vertices, edges: base.edges, access: access)
        let oneWays = access[0].filter { $0 == CampusGraph.forwardBit || $0 == CampusGraph.backwardBit }.count
        #expect(oneWays > base.edges.count / 4)
        for profile in ["walk", "wheelchair"] {
            let ok = try compare(graph, profile: profile, pairs: 300, seed: 5)
            #expect(ok >= 10, "\(profile): only \(ok) routable pairs")
        }
    }
}
