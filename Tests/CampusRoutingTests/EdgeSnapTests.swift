import FieldtestData
import Foundation
import Testing

@testable import CampusRouting

/// Small maps for edge snapping, near (0°, 0°) where 0.001° ≈ 111.195 m.
enum SnapMaps {
    /// A main walk along the equator (vertices only at its ends, 0° and 0.002° E, and a branch north
    /// from its east end) and, beside its middle, an isolated two-node footway 10 m north of it.
    static let fragment = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"highway": "footway", "name": "Main Walk"},
           "geometry": {"type": "LineString", "coordinates": [[0, 0], [0.002, 0]]}},
          {"type": "Feature", "properties": {"highway": "footway", "name": "Branch"},
           "geometry": {"type": "LineString", "coordinates": [[0.002, 0], [0.002, 0.001]]}},
          {"type": "Feature", "properties": {"highway": "footway", "name": "Stub"},
           "geometry": {"type": "LineString", "coordinates": [[0.00095, 0.00009], [0.00105, 0.00009]]}}
        ]}
        """

    static func graph(_ text: String, file: String) throws -> CampusGraph {
        try CampusGraph(source: try MapSource(geoJSON: Data(text.utf8), file: file))
    }

    /// A seeded random grid of 7 × 7 junctions 0.0003° apart: each link present with probability 0.8,
    /// half of them bent through a jittered shape point, some `steps` (closed to wheelchairs) and some
    /// one-way for pedestrians.
    static func grid(seed: UInt64) -> String {
        var rng = SeededGenerator(seed: seed)
        var features: [String] = []
        func node(_ r: Int, _ c: Int) -> (Double, Double) { (Double(c) * 0.0003, Double(r) * 0.0003) }
        for r in 0..<7 {
            for c in 0..<7 {
                for (dr, dc) in [(0, 1), (1, 0)] where r + dr < 7 && c + dc < 7 {
                    guard Double.random(in: 0..<1, using: &rng) < 0.8 else { continue }
                    let a = node(r, c)
                    let b = node(r + dr, c + dc)
                    var coords = [a]
                    if Bool.random(using: &rng) {
                        coords.append(
                            (
                                (a.0 + b.0) / 2 + Double.random(in: -0.0001...0.0001, using: &rng),
                                (a.1 + b.1) / 2 + Double.random(in: -0.0001...0.0001, using: &rng)
                            ))
                    }
                    coords.append(b)
                    let roll = Double.random(in: 0..<1, using: &rng)
                    let tags =
                        roll < 0.15
                        ? "\"highway\": \"steps\""
                        : roll < 0.25
                            ? "\"highway\": \"footway\", \"oneway:foot\": \"yes\""
                            : "\"highway\": \"footway\""
                    let line = coords.map { "[\($0.0), \($0.1)]" }.joined(separator: ", ")
                    features.append(
                        "{\"type\": \"Feature\", \"properties\": {\(tags)}, \"geometry\": {\"type\": \"LineString\", \"coordinates\": [\(line)]}}"
                    )
                }
            }
        }
        return "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ",\n"))]}"
    }
}

/// Brute-force references: the graph split explicitly at both projected points, and Dijkstra on it.
enum SplitGraphReference {
    /// Cheapest cost (length × slowdown) from `s` to `t` under profile `p` over the graph in which the
    /// edges of `s` and `t` are cut at the projected points into real pieces, each piece's length
    /// the haversine sum through the points it spans; +∞ when unreachable. O(V² + E) per call.
    static func cost(_ g: CampusGraph, profile p: Int, from s: EdgeSnap, to t: EdgeSnap, slowdown: [Double]?) -> Double
    {
        let n = g.vertices.count
        let source = n
        let target = n + 1
        var arcs = [[(to: Int, cost: Double)]](repeating: [], count: n + 2)
        for (i, e) in g.edges.enumerated() {
            let bits = g.access[p][i]
            guard bits != 0 else { continue }
            let last = Double(e.shape.count - 1)
            var cuts: [(position: Double, point: GeoPoint, node: Int)] = [
                (0, e.shape[0], Int(e.from)), (last, e.shape[e.shape.count - 1], Int(e.to)),
            ]
            if i == Int(s.edge) { cuts.append((s.position, s.point, source)) }
            if i == Int(t.edge) { cuts.append((t.position, t.point, target)) }
            cuts.sort { $0.position < $1.position }
            let factor = slowdown?[i] ?? 1
            for k in 1..<cuts.count {
                let a = cuts[k - 1]
                let b = cuts[k]
                var points = [a.point]
                for j in 0..<e.shape.count where Double(j) > a.position && Double(j) < b.position {
                    points.append(e.shape[j])
                }
                points.append(b.point)
                let c = Geodesy.pathLengthMetres(points) * factor
                if bits & CampusGraph.forwardBit != 0 { arcs[a.node].append((b.node, c)) }
                if bits & CampusGraph.backwardBit != 0 { arcs[b.node].append((a.node, c)) }
            }
        }
        // An end on a vertex is that vertex, whatever its edge's direction.
        for (end, snap) in [(source, s), (target, t)] {
            let e = g.edges[Int(snap.edge)]
            let v = snap.position == 0 ? Int(e.from) : snap.position == Double(e.shape.count - 1) ? Int(e.to) : -1
            if v >= 0 {
                arcs[end].append((v, 0))
                arcs[v].append((end, 0))
            }
        }
        // Two ends at one point of a usable edge are joined whatever the edge's direction.
        if s.edge == t.edge && s.position == t.position && g.access[p][Int(s.edge)] != 0 {
            arcs[source].append((target, 0))
        }
        // Dijkstra by linear scans: simple enough to be obviously right.
        var dist = [Double](repeating: .infinity, count: n + 2)
        var done = [Bool](repeating: false, count: n + 2)
        dist[source] = 0
        var frontier: Set<Int> = [source]
        while let v = frontier.min(by: { (dist[$0], $0) < (dist[$1], $1) }) {
            frontier.remove(v)
            if v == target { return dist[v] }
            done[v] = true
            for a in arcs[v] where !done[a.to] && dist[v] + a.cost < dist[a.to] {
                dist[a.to] = dist[v] + a.cost
                frontier.insert(a.to)
            }
        }
        return .infinity
    }

    /// The snap the documented rule picks, found by scanning every usable edge: nearest in a large
    /// component unless a fragment is under a quarter of that distance. Returns its distance in metres.
    static func ruleDistance(_ g: CampusGraph, profile p: Int, point: GeoPoint, maxMetres: Double) -> Double? {
        var sizes: [Int: Int] = [:]
        var root = Array(0..<g.vertices.count)
        func find(_ x: Int) -> Int {
            var x = x
            while root[x] != x { x = root[x] }
            return x
        }
        for (i, e) in g.edges.enumerated() where g.access[p][i] != 0 {
            let a = find(Int(e.from))
            let b = find(Int(e.to))
            if a != b { root[max(a, b)] = min(a, b) }
        }
        for v in 0..<g.vertices.count { sizes[find(v), default: 0] += 1 }
        let largest = sizes.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
        var large = Double.infinity
        var small = Double.infinity
        for (i, e) in g.edges.enumerated() where g.access[p][i] != 0 {
            // The foot of the perpendicular in the local projection, measured back on the sphere.
            let foot = Geodesy.distanceToPolyline(point, e.shape)
            let a = e.shape[foot.segment]
            let b = e.shape[min(foot.segment + 1, e.shape.count - 1)]
            let d = Geodesy.haversineMetres(
                point,
                GeoPoint(
                    latitude: a.latitude + foot.fraction * (b.latitude - a.latitude),
                    longitude: a.longitude + foot.fraction * (b.longitude - a.longitude)))
            guard d <= maxMetres else { continue }
            let r = find(Int(e.from))
            if sizes[r, default: 0] < SnapRule.standard.smallComponentVertices && r != largest {
                small = min(small, d)
            } else {
                large = min(large, d)
            }
        }
        let chosen = small < SnapRule.standard.fragmentDistanceRatio * large || !large.isFinite ? small : large
        return chosen.isFinite ? chosen : nil
    }
}

@Suite("Route ends snap onto edges")
struct EdgeSnapTests {
    @Test("a query on a shape node starts and ends at that node")
    func shapeNodes() throws {
        let g = try SmallMap.graph()
        let wc = try g.profileIndex(named: "wheelchair")
        var router = AStarRouter()
        // D is a shape point of the long footway A–D–C, not a vertex.
        let r = router.route(in: g, from: SmallMap.d, to: SmallMap.c, profile: wc)
        #expect(r.status == .ok)
        #expect(r.points == [SmallMap.d, SmallMap.c])
        #expect(r.fromSnap?.metres == 0 && r.fromSnap?.isOnNode == true)
        #expect(abs(r.lengthMetres - Geodesy.haversineMetres(SmallMap.d, SmallMap.c)) < 1e-9)
        let back = router.route(in: g, from: SmallMap.a, to: SmallMap.d, profile: wc)
        #expect(back.points == [SmallMap.a, SmallMap.d])
    }

    @Test(
        "on an OSM campus, node_ids begin and end at the queried shape nodes",
        arguments: [RoutingFixtures.montgomery, RoutingFixtures.quito])
    func osmShapeNodes(map: URL) throws {
        let g = try RoutingFixtures.graph(map)
        let walk = try g.profileIndex(named: "walk")
        // Interior shape nodes of walkable edges of the main component whose position no other shape point shares.
        var count: [GeoPoint: Int] = [:]
        for e in g.edges { for q in e.shape { count[q, default: 0] += 1 } }
        var nodes: [(id: Int64, at: GeoPoint)] = []
        let adjacency = g.profileAdjacency[walk]
        for (i, e) in g.edges.enumerated()
        where g.access[walk][i] != 0 && e.shape.count > 2
            && adjacency.component[Int(e.from)] == adjacency.largestComponent
        {
            for k in 1..<(e.shape.count - 1) where count[e.shape[k]] == 1 { nodes.append((e.nodeIDs[k], e.shape[k])) }
        }
        #expect(nodes.count > 50)
        var rng = SeededGenerator(seed: 5)
        var router = AStarRouter()
        var routed = 0
        for _ in 0..<60 {
            let a = nodes[Int.random(in: 0..<nodes.count, using: &rng)]
            let b = nodes[Int.random(in: 0..<nodes.count, using: &rng)]
            let r = router.route(in: g, from: a.at, to: b.at, profile: walk)
            guard r.status == .ok else { continue }
            routed += 1
            #expect(r.fromSnap?.metres == 0 && r.toSnap?.metres == 0)
            #expect(r.nodeIDs.first == a.id && r.nodeIDs.last == b.id, "\(a.id) → \(b.id)")
            #expect(r.points.first == a.at && r.points.last == b.at)
            #expect(r.nodeIDs.count == r.points.count)
            // No node twice in a row: pieces join at their shared vertex once.
            #expect(zip(r.nodeIDs, r.nodeIDs.dropFirst()).allSatisfy { $0 != $1 })
        }
        #expect(routed > 30)
    }

    @Test("a query off the network is projected perpendicularly onto the nearest edge")
    func perpendicular() throws {
        let g = try SmallMap.graph()
        let walk = try g.profileIndex(named: "walk")
        var router = AStarRouter()
        // 22 m north of South Walk (A–B along the equator), 40 % of the way along it.
        let q = GeoPoint(latitude: 0.0002, longitude: 0.0004)
        let r = router.route(in: g, from: q, to: SmallMap.b, profile: walk)
        #expect(r.status == .ok)
        let start = try #require(r.points.first)
        #expect(abs(start.latitude) < 1e-15 && abs(start.longitude - 0.0004) < 1e-12)
        #expect(abs((r.fromSnap?.metres ?? 0) - 0.2 * SmallMap.milliDegree) < 1e-6)
        #expect(r.points.count == 2 && r.points.last == SmallMap.b)
        #expect(abs(r.lengthMetres - 0.6 * SmallMap.milliDegree) < 1e-6)
        #expect(r.fromSnap?.isOnNode == false && r.toSnap?.isOnNode == true)
    }

    @Test(
        "campus snaps are perpendicular feet or segment ends, at the documented rule's distance",
        arguments: [RoutingFixtures.montgomery, RoutingFixtures.quito])
    func campusProjection(map: URL) throws {
        let g = try RoutingFixtures.graph(map)
        var rng = SeededGenerator(seed: 23)
        var interior = 0
        for i in 0..<150 {
            let p = i % 2 == 0 ? try g.profileIndex(named: "walk") : try g.profileIndex(named: "wheelchair")
            let q = RoutingFixtures.randomPoint(in: g, using: &rng)
            let snap = g.snapToEdge(q, profile: p, maxMetres: 200)
            let expected = SplitGraphReference.ruleDistance(g, profile: p, point: q, maxMetres: 200)
            #expect((snap == nil) == (expected == nil))
            guard let snap, let expected else { continue }
            #expect(abs(snap.metres - expected) < 1e-9, "\(q)")
            #expect(g.access[p][Int(snap.edge)] != 0)
            guard !snap.isOnNode else { continue }
            interior += 1
            let e = g.edges[Int(snap.edge)]
            let a = Geodesy.localMetres(e.shape[snap.segment], origin: q)
            let b = Geodesy.localMetres(e.shape[snap.segment + 1], origin: q)
            let f = Geodesy.localMetres(snap.point, origin: q)
            let dot = (0 - f.x) * (b.x - a.x) + (0 - f.y) * (b.y - a.y)
            let scale = max(
                1e-9,
                (f.x * f.x + f.y * f.y).squareRoot()
                    * ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
            #expect(abs(dot) / scale < 1e-6, "not perpendicular at \(q)")
        }
        #expect(interior > 50)
    }

    @Test("a point beside a two-node fragment still routes through the main network")
    func fragment() throws {
        let g = try SnapMaps.graph(SnapMaps.fragment, file: "fragment.geojson")
        let walk = try g.profileIndex(named: "walk")
        var router = AStarRouter()
        let end = GeoPoint(latitude: 0.001, longitude: 0.002)
        // 2.2 m from the stub, 7.8 m from Main Walk: the stub is not under a quarter of 7.8 m.
        let beside = GeoPoint(latitude: 0.00007, longitude: 0.001)
        // Snapping to the nearest vertex would pick the stub's end (5.6 m) and find no route.
        let vertex = try #require(g.snap(beside, profile: walk))
        #expect(g.vertices[Int(vertex.vertex)].location.latitude == 0.00009)
        #expect(
            router.route(
                in: g, fromVertex: vertex.vertex, toVertex: try #require(g.snap(end, profile: walk)).vertex,
                profile: walk
            ).status == .noRoute)
        let r = router.route(in: g, from: beside, to: end, profile: walk)
        #expect(r.status == .ok)
        #expect(r.points.first.map { abs($0.latitude) < 1e-15 && abs($0.longitude - 0.001) < 1e-12 } == true)
        #expect(abs((r.fromSnap?.metres ?? 0) - 0.07 * SmallMap.milliDegree) < 1e-6)
        #expect(abs(r.lengthMetres - 2 * SmallMap.milliDegree) < 1e-6)
        // Standing on the stub (0.55 m from it, 9.45 m from Main Walk), the user is on the stub.
        let onStub = GeoPoint(latitude: 0.000085, longitude: 0.001)
        let stub = router.route(in: g, from: onStub, to: end, profile: walk)
        #expect(stub.status == .noRoute)
        #expect(abs((stub.fromSnap?.metres ?? 0) - 0.005 * SmallMap.milliDegree) < 1e-6)
    }

    @Test(
        "every route is optimal on the virtually split graph (seeded random queries)",
        arguments: ["montgomery", "quito", "grid1", "grid2"])
    func optimal(map: String) throws {
        let g: CampusGraph
        switch map {
        case "montgomery": g = try RoutingFixtures.graph(RoutingFixtures.montgomery)
        case "quito": g = try RoutingFixtures.graph(RoutingFixtures.quito)
        default: g = try SnapMaps.graph(SnapMaps.grid(seed: map == "grid1" ? 1 : 2), file: map)
        }
        var rng = SeededGenerator(seed: map.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })
        let slowdown = (0..<g.edges.count).map { _ in Double.random(in: 1...3, using: &rng) }
        let lats = g.vertices.map(\.location.latitude)
        let lons = g.vertices.map(\.location.longitude)
        func point() -> GeoPoint {
            if Bool.random(using: &rng) {
                // Near a random edge: a shape point or a point along a segment, moved up to 20 m.
                let e = g.edges[Int.random(in: 0..<g.edges.count, using: &rng)]
                let k = Int.random(in: 0..<e.shape.count, using: &rng)
                let base = e.shape[k]
                let next = e.shape[min(k + 1, e.shape.count - 1)]
                let t = Int.random(in: 0..<3, using: &rng) == 0 ? 0 : Double.random(in: 0...1, using: &rng)
                let off = Int.random(in: 0..<3, using: &rng) == 0 ? 0 : 0.00018
                return GeoPoint(
                    latitude: base.latitude + t * (next.latitude - base.latitude)
                        + Double.random(in: -off...off, using: &rng),
                    longitude: base.longitude + t * (next.longitude - base.longitude)
                        + Double.random(in: -off...off, using: &rng))
            }
            return GeoPoint(
                latitude: Double.random(in: lats.min()!...lats.max()!, using: &rng),
                longitude: Double.random(in: lons.min()!...lons.max()!, using: &rng))
        }
        var router = AStarRouter()
        var ok = 0
        var none = 0
        for i in 0..<120 {
            let p = i % 3 == 2 ? try g.profileIndex(named: "wheelchair") : try g.profileIndex(named: "walk")
            let factors: [Double]? = i % 2 == 0 ? nil : slowdown
            let from = point()
            let to = i % 10 == 0 ? from : point()
            let r = router.route(in: g, from: from, to: to, profile: p, slowdown: factors)
            guard let s = r.fromSnap, let t = r.toSnap else {
                #expect(r.status == .noSnap)
                continue
            }
            let best = SplitGraphReference.cost(g, profile: p, from: s, to: t, slowdown: factors)
            if r.status == .noRoute {
                none += 1
                #expect(!best.isFinite, "query \(i): no_route but the split graph has \(best)")
                continue
            }
            ok += 1
            let speed = g.profiles[p].speedMetresPerSecond
            #expect(
                abs(r.durationSeconds * speed - best) <= 1e-6 * max(1, best),
                "query \(i): \(r.durationSeconds * speed) vs \(best)")
            // The reported length is the haversine length of the reported path.
            #expect(abs(r.lengthMetres - Geodesy.pathLengthMetres(r.points)) <= 1e-9 * max(1, r.lengthMetres))
            #expect(r.points.first == s.point && r.points.last == t.point)
        }
        #expect(ok >= 30, "only \(ok) routes")
        _ = none
    }

    @Test("emergency routes are measured from the user's projected position")
    func emergencyFromPosition() throws {
        let g = try SnapMaps.graph(SnapMaps.fragment, file: "fragment.geojson")
        let walk = try g.profileIndex(named: "walk")
        var router = AStarRouter()
        // 30 % along Main Walk, 5 m off it; exits at both ends of Main Walk: the west one is nearer.
        let user = GeoPoint(latitude: -0.000045, longitude: 0.0006)
        let exits = [GeoPoint(latitude: 0, longitude: 0.002), GeoPoint(latitude: 0, longitude: 0)]
        let r = EmergencyRouting.nearest(in: g, from: user, destinations: exits, profile: walk, router: &router)
        #expect(r.destination == 1)
        #expect(abs(r.route.lengthMetres - 0.6 * SmallMap.milliDegree) < 1e-6)
        #expect(abs((r.route.fromSnap?.metres ?? 0) - 0.045 * SmallMap.milliDegree) < 1e-6)
        #expect(r.route.points.first.map { abs($0.longitude - 0.0006) < 1e-12 } == true)
    }
}
