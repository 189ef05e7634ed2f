import FieldtestData
import Foundation
import Testing

@testable import CampusRouting

/// The snap search skips edges by a lower bound on their distance and visits grid cells nearest
/// first; neither may change which edge and position a query end snaps to.
@Suite("Snapping with pruned candidates")
struct SnapPruningTests {
    @Test("the box bound never exceeds the haversine distance to a point in the box")
    func boundIsLower() {
        var rng = SeededGenerator(seed: 31)
        for _ in 0..<20_000 {
            let lat = Double.random(in: -80...80, using: &rng)
            let lon = Double.random(in: -179...179, using: &rng)
            let span = [0.0001, 0.01, 1, 20][Int.random(in: 0..<4, using: &rng)]
            let shape = (0..<3).map { _ in
                GeoPoint(
                    latitude: min(90, max(-90, lat + Double.random(in: -span...span, using: &rng))),
                    longitude: lon + Double.random(in: -span...span, using: &rng))
            }
            let box = EdgeBox(shape[...])
            let inside = GeoPoint(
                latitude: Double.random(in: box.minLatitude...box.maxLatitude, using: &rng),
                longitude: Double.random(in: box.minLongitude...box.maxLongitude, using: &rng))
            let p = GeoPoint(
                latitude: min(90, max(-90, lat + Double.random(in: -3 * span...3 * span, using: &rng))),
                longitude: lon + Double.random(in: -3 * span...3 * span, using: &rng))
            let d = Geodesy.haversineMetres(p, inside)
            let limit = EdgeBox.haversineTerm(metres: d)
            #expect(!box.isFarther(from: p, cosLatitude: cos(p.latitude * .pi / 180), than: limit), "\(p) \(inside)")
        }
    }

    @Test("the bound prunes: a box 1 km away is farther than 500 m")
    func boundPrunes() {
        let box = EdgeBox([GeoPoint(latitude: 0.009, longitude: 0), GeoPoint(latitude: 0.01, longitude: 0.001)][...])
        let origin = GeoPoint(latitude: 0, longitude: 0)
        #expect(box.isFarther(from: origin, cosLatitude: 1, than: EdgeBox.haversineTerm(metres: 500)))
        #expect(!box.isFarther(from: origin, cosLatitude: 1, than: EdgeBox.haversineTerm(metres: 1_010)))
    }

    @Test("cells nearest first visit the same items as the plain scan", arguments: [RoutingFixtures.montgomery])
    func ringOrderVisitsTheSameItems(map: URL) throws {
        let g = try RoutingFixtures.graph(map)
        var rng = SeededGenerator(seed: 3)
        let lats = g.vertices.map(\.location.latitude)
        let lons = g.vertices.map(\.location.longitude)
        for _ in 0..<200 {
            let q = GeoPoint(
                latitude: Double.random(in: (lats.min()! - 0.005)...(lats.max()! + 0.005), using: &rng),
                longitude: Double.random(in: (lons.min()! - 0.005)...(lons.max()! + 0.005), using: &rng))
            let radius = Double.random(in: 1...450, using: &rng)
            var plain: [Int32] = []
            var rings: [Int32] = []
            g.edgeGrid.forEachCandidate(near: q, radiusMetres: radius) { plain.append($0) }
            g.edgeGrid.forEachCandidateNearestCellsFirst(near: q, radiusMetres: radius) { rings.append($0) }
            #expect(plain.sorted() == rings.sorted())
        }
    }

    @Test(
        "snaps equal the choice among every usable edge, measured one by one",
        arguments: [RoutingFixtures.montgomery, RoutingFixtures.quito])
    func snapsEqualExhaustiveChoice(map: URL) throws {
        let g = try RoutingFixtures.graph(map)
        var rng = SeededGenerator(seed: 41)
        var snapped = 0
        for i in 0..<300 {
            let p = try g.profileIndex(named: ["walk", "wheelchair", "cane"][i % 3])
            let q = RoutingFixtures.randomPoint(in: g, marginDegrees: 0.001, using: &rng)
            let maxMetres = [200.0, 30, 5][i % 3 == 0 ? 0 : Int.random(in: 0..<3, using: &rng)]
            let got = g.snapToEdge(q, profile: p, maxMetres: maxMetres)
            let expected = Self.exhaustive(g, q, profile: p, maxMetres: maxMetres)
            #expect(got == expected, "\(q) profile \(p) within \(maxMetres) m")
            if got != nil { snapped += 1 }
        }
        #expect(snapped > 100)
    }

    /// Rules that make fragments of more components, or let them win from farther or never.
    static let rules = [
        SnapRule.standard, SnapRule(smallComponentVertices: 400, fragmentDistanceRatio: 0.8),
        SnapRule(smallComponentVertices: 400, fragmentDistanceRatio: 0), SnapRule(smallComponentVertices: 1),
    ]

    @Test(
        "at vertices and beside fragments too, under other fragment rules, snaps equal the exhaustive choice",
        arguments: [RoutingFixtures.montgomery, RoutingFixtures.quito], rules.indices)
    func snapsNearFragmentsEqualExhaustiveChoice(map: URL, rule r: Int) throws {
        let g = try RoutingFixtures.graph(map)
        let rule = Self.rules[r]
        let p = try g.profileIndex(named: "walk")
        let adjacency = g.profileAdjacency[p]
        let fragments = (0..<g.edges.count).filter { e in
            let root = Int(adjacency.component[Int(g.edges[e].from)])
            return g.access[p][e] != 0 && Int32(root) != adjacency.largestComponent
        }
        #expect(!fragments.isEmpty)
        var rng = SeededGenerator(seed: UInt64(59 + r))
        let metre = 180 / (Double.pi * Geodesy.earthRadiusMetres)
        var fragmentWins = 0
        for i in 0..<240 {
            // A vertex, or a point a few metres off a fragment's shape.
            let base: GeoPoint
            if i % 2 == 0 {
                base = g.vertices[Int.random(in: 0..<g.vertices.count, using: &rng)].location
            } else {
                let shape = g.edges[fragments[Int.random(in: 0..<fragments.count, using: &rng)]].shape
                base = shape[Int.random(in: 0..<shape.count, using: &rng)]
            }
            let offset = i % 4 < 2 ? 0 : Double.random(in: 0.5...15, using: &rng)
            let q = GeoPoint(
                latitude: base.latitude + offset * metre * Double.random(in: -1...1, using: &rng),
                longitude: base.longitude + offset * metre * Double.random(in: -1...1, using: &rng))
            let got = g.snapToEdge(q, profile: p, maxMetres: 200, rule: rule)
            let expected = Self.exhaustive(g, q, profile: p, maxMetres: 200, rule: rule)
            #expect(got == expected, "\(q) under rule \(rule)")
            if let got, fragments.contains(Int(got.edge)) { fragmentWins += 1 }
        }
        // Unless fragments can never win, some points beside them stay on them.
        if rule.fragmentDistanceRatio > 0 { #expect(fragmentWins > 0) }
    }

    /// The snap rule applied to every usable edge of the graph, without the grid or any bound.
    static func exhaustive(
        _ g: CampusGraph, _ q: GeoPoint, profile p: Int, maxMetres: Double, rule: SnapRule = .standard
    ) -> EdgeSnap? {
        typealias Candidate = (edge: Int32, d: Double, segment: Int, fraction: Double)
        let adjacency = g.profileAdjacency[p]
        var large: Candidate?
        var small: Candidate?
        for e in 0..<g.edges.count where g.access[p][e] != 0 {
            let hit = Geodesy.distanceToPolyline(q, g.edges[e].shape)
            let (seg, frac) = g.normalise(edge: e, segment: hit.segment, fraction: hit.fraction)
            let d = Geodesy.haversineMetres(q, g.location(edge: e, segment: seg, fraction: frac))
            guard d <= maxMetres else { continue }
            let root = Int(adjacency.component[Int(g.edges[e].from)])
            let isSmall =
                Int(adjacency.componentSizes[root]) < rule.smallComponentVertices
                && Int32(root) != adjacency.largestComponent
            let c: Candidate = (Int32(e), d, seg, frac)
            func better(_ b: Candidate?) -> Bool {
                b.map { (d, c.edge, seg, frac) < ($0.d, $0.edge, $0.segment, $0.fraction) } ?? true
            }
            if isSmall {
                if better(small) { small = c }
            } else if better(large) {
                large = c
            }
        }
        let chosen: Candidate
        switch (large, small) {
        case (nil, nil): return nil
        case (let l?, nil): chosen = l
        case (nil, let s?): chosen = s
        case (let l?, let s?): chosen = s.d < rule.fragmentDistanceRatio * l.d ? s : l
        }
        return g.edgeSnap(query: q, edge: chosen.edge, segment: chosen.segment, fraction: chosen.fraction)
    }
}
