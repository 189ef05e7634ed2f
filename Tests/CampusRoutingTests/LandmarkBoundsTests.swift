import FieldtestData
import Foundation
import Testing

@testable import CampusRouting

@Suite("ALT landmark bounds")
struct LandmarkBoundsTests {
    /// A `side × side` grid of footways 30 m apart; with `oneWayShare` > 0 that share of edges is usable in
    /// one direction only (seeded), so some vertices cannot reach others.
    static func grid(side n: Int, oneWayShare: Double, seed: UInt64) -> CampusGraph {
        var rng = SeededGenerator(seed: seed)
        let metre = 180 / (Double.pi * Geodesy.earthRadiusMetres)
        var vertices: [CampusGraph.Vertex] = []
        for r in 0..<n {
            for c in 0..<n {
                let jitter = Double.random(in: -5...5, using: &rng)
                vertices.append(
                    CampusGraph.Vertex(
                        osmID: Int64(r * n + c),
                        location: GeoPoint(
                            latitude: 38.9 + (Double(r) * 30 + jitter) * metre,
                            longitude: -77.0 + Double(c) * 30 * metre / cos(38.9 * .pi / 180))))
            }
        }
        var edges: [CampusGraph.Edge] = []
        var access: [UInt8] = []
        func add(_ a: Int, _ b: Int) {
            let shape = [vertices[a].location, vertices[b].location]
            edges.append(
                CampusGraph.Edge(
                    from: Int32(a), to: Int32(b), wayID: nil, nodeIDs: [Int64(a), Int64(b)], shape: shape,
                    lengthMetres: Geodesy.pathLengthMetres(shape), tags: ["highway": "footway"], nodeTags: [:]))
            let oneWay = Double.random(in: 0..<1, using: &rng) < oneWayShare
            access.append(
                oneWay
                    ? (Bool.random(using: &rng) ? CampusGraph.forwardBit : CampusGraph.backwardBit)
                    : CampusGraph.forwardBit | CampusGraph.backwardBit)
        }
        for r in 0..<n {
            for c in 0..<n {
                if c + 1 < n { add(r * n + c, r * n + c + 1) }
                if r + 1 < n { add(r * n + c, (r + 1) * n + c) }
            }
        }
        let walk = RoutingProfiles.builtIn.profiles.filter { $0.name == "walk" }
        return CampusGraph(file: "grid", profiles: walk, vertices: vertices, edges: edges, access: [access])
    }

    static func arcs(_ a: CampusGraph.ProfileAdjacency, reverse: Bool) -> LandmarkBounds.Arcs {
        reverse
            ? .init(offsets: a.reverseOffsets, targets: a.reverseTargets, lengths: a.reverseLengths)
            : .init(offsets: a.offsets, targets: a.targets, lengths: a.lengths)
    }

    @Test(
        "arcs that all have a reverse of the same length are found symmetric, and their distances to each landmark are exactly those of a search over the reverse arcs",
        arguments: [0.0, 0.2])
    func symmetricProfilesShareTheirSearches(oneWayShare: Double) {
        let graph = Self.grid(side: 12, oneWayShare: oneWayShare, seed: 5)
        let adjacency = graph.profileAdjacency[0]
        let forward = Self.arcs(adjacency, reverse: false)
        let backward = Self.arcs(adjacency, reverse: true)
        #expect(LandmarkBounds.isSymmetric(forward, backward) == (oneWayShare == 0))
        let bounds = adjacency.landmarks
        #expect(bounds.count == 16)
        let n = graph.vertices.count
        for (k, landmark) in bounds.landmarks.enumerated() {
            let to = LandmarkBounds.dijkstra(from: Int(landmark), backward)
            let from = LandmarkBounds.dijkstra(from: Int(landmark), forward)
            for v in 0..<n {
                #expect(bounds.distances[2 * bounds.count * v + bounds.count + k] == to[v])
                #expect(bounds.distances[2 * bounds.count * v + k] == from[v])
            }
        }
    }

    @Test("on the Montgomery campus the bounds never exceed the true distance and are consistent along every arc")
    func admissibleAndConsistent() throws {
        let graph = try RoutingFixtures.graph(RoutingFixtures.montgomery)
        let p = try graph.profileIndex(named: "walk")
        let adjacency = graph.profileAdjacency[p]
        let landmarks = adjacency.landmarks
        #expect(landmarks.count == 16)
        #expect(Set(landmarks.landmarks).count == 16)
        #expect(landmarks.landmarks.allSatisfy { adjacency.component[Int($0)] == landmarks.component })
        let members = (0..<graph.vertices.count).filter { adjacency.component[$0] == landmarks.component }
        var tightened = 0
        for t in stride(from: 0, to: members.count, by: max(1, members.count / 25)).map({ members[$0] }) {
            // Exact distances to t: Dijkstra from t over the reverse arcs.
            let toT = LandmarkBounds.dijkstra(from: t, Self.arcs(adjacency, reverse: true))
            for v in members {
                let b = landmarks.bound(from: v, to: t)
                if toT[v].isFinite {
                    #expect(b <= toT[v], "bound \(b) > distance \(toT[v]) from \(v) to \(t)")
                } else {
                    #expect(b == .infinity || b >= 0)
                }
                if b > 0.9 * toT[v] { tightened += 1 }
            }
            for u in members {
                for a in Int(adjacency.offsets[u])..<Int(adjacency.offsets[u + 1]) {
                    let w = Int(adjacency.targets[a])
                    let bu = landmarks.bound(from: u, to: t)
                    let bw = landmarks.bound(from: w, to: t)
                    if bu.isFinite && bw.isFinite { #expect(bu <= adjacency.lengths[a] + bw + 1e-9) }
                }
            }
        }
        // The bounds are useful: most pairs are bounded within 10 % of their distance.
        #expect(tightened > members.count * 13)
    }

    @Test("with and without landmarks, A* returns routes of equal length, settling fewer vertices with them")
    func sameRoutesFewerSettled() throws {
        for graph in [
            try RoutingFixtures.graph(RoutingFixtures.montgomery), Self.grid(side: 20, oneWayShare: 0, seed: 1),
        ] {
            let p = try graph.profileIndex(named: "walk")
            var rng = SeededGenerator(seed: 7)
            var alt = AStarRouter()
            var chord = AStarRouter()
            chord.usesLandmarks = false
            var settledALT = 0
            var settledChord = 0
            var ok = 0
            for _ in 0..<300 {
                let s = Int32.random(in: 0..<Int32(graph.vertices.count), using: &rng)
                let t = Int32.random(in: 0..<Int32(graph.vertices.count), using: &rng)
                let a = alt.route(in: graph, fromVertex: s, toVertex: t, profile: p)
                settledALT += alt.settledCount
                let c = chord.route(in: graph, fromVertex: s, toVertex: t, profile: p)
                settledChord += chord.settledCount
                #expect(a.status == c.status)
                if a.status == .ok {
                    ok += 1
                    #expect(abs(a.lengthMetres - c.lengthMetres) <= 1e-9 * max(1, c.lengthMetres))
                }
            }
            #expect(ok > 150)
            #expect(Double(settledALT) < 0.7 * Double(settledChord))
        }
    }

    @Test("one-way arcs: every pair's route status and length match plain Dijkstra", arguments: [UInt64(3), 5])
    func directedGrid(seed: UInt64) throws {
        let graph = Self.grid(side: 9, oneWayShare: 0.5, seed: seed)
        let p = try graph.profileIndex(named: "walk")
        let adjacency = graph.profileAdjacency[p]
        #expect(adjacency.landmarks.count == 16)
        var router = AStarRouter()
        var unreachable = 0
        for s in 0..<graph.vertices.count {
            let exact = LandmarkBounds.dijkstra(from: s, Self.arcs(adjacency, reverse: false))
            for t in 0..<graph.vertices.count {
                let r = router.route(in: graph, fromVertex: Int32(s), toVertex: Int32(t), profile: p)
                if exact[t].isFinite {
                    #expect(r.status == .ok, "\(s) → \(t)")
                    #expect(abs(r.lengthMetres - exact[t]) <= 1e-9 * max(1, exact[t]), "\(s) → \(t)")
                } else {
                    unreachable += 1
                    #expect(r.status == .noRoute, "\(s) → \(t)")
                }
            }
        }
        // The one-way arcs really cut some pairs apart.
        #expect(unreachable > 0)
    }
}
