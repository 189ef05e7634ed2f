import FieldtestData
import Foundation

/// Where a query point meets the network: its perpendicular projection onto one usable edge of a
/// profile, as OSRM, Valhalla and GraphHopper place route ends. The route starts or ends at the
/// projected point; the edge is split there for that query only (the graph is never changed).
///
/// The position is `segment` (shape segment `shape[segment]`–`shape[segment + 1]`) and `fraction`
/// (0…1 along it, in the local projection around the query point). A projection onto a shape node
/// is normalised to fraction 0 of the segment that starts there (fraction 1 only at the edge's last
/// node), so `isOnNode` is exact.
public struct EdgeSnap: Sendable, Equatable {
    /// The point that was snapped, degrees.
    public var query: GeoPoint
    /// Edge index in the graph.
    public var edge: Int32
    /// Shape segment the projection falls on.
    public var segment: Int
    /// Fraction along that segment, 0…1.
    public var fraction: Double
    /// The projected point, degrees (exactly the shape node when `isOnNode`).
    public var point: GeoPoint
    /// Haversine distance from `query` to `point`, metres: the snap distance reported per route end.
    public var metres: Double
    /// Metres along the shape from the edge's `from` vertex to `point` (haversine through the shape nodes).
    public var metresFromStart: Double
    /// Metres along the shape from `point` to the edge's `to` vertex.
    public var metresToEnd: Double

    /// Whether the projected point is a shape node (fraction exactly 0 or 1).
    public var isOnNode: Bool { fraction == 0 || fraction == 1 }
    /// The position as a fractional shape index, `segment + fraction` (0 at `from`, shape.count − 1 at `to`).
    public var position: Double { Double(segment) + fraction }
}

/// Rule for choosing between edges of a large connected component and small fragments (an unconnected
/// footway stub, a lone crossing, a mapped flight of steps on its own): a candidate in a component of
/// fewer than `smallComponentVertices` vertices — other than the profile's largest component — is
/// taken only when it is closer than `fragmentDistanceRatio` times the distance of the nearest
/// candidate in a large component, or when no large-component edge lies within the radius. So a user
/// standing on a 2-node stub (0.5 m) next to a sidewalk (6 m) stays on the stub, but a stub 3 m away
/// does not capture a point 8 m from the sidewalk.
public struct SnapRule: Sendable, Equatable {
    /// Components with fewer vertices than this are fragments.
    public var smallComponentVertices: Int
    /// A fragment wins only below this fraction of the large-component candidate's distance.
    public var fragmentDistanceRatio: Double

    /// Creates a rule.
    public init(smallComponentVertices: Int = 16, fragmentDistanceRatio: Double = 0.25) {
        self.smallComponentVertices = smallComponentVertices
        self.fragmentDistanceRatio = fragmentDistanceRatio
    }

    /// The rule the router uses: fragments under 16 vertices, distance ratio 1/4.
    public static let standard = SnapRule()
}

extension CampusGraph {
    /// Projects `point` onto the nearest edge usable by profile `p` (any direction) within `maxMetres`,
    /// preferring large components by `rule`. Ties go to the lower edge index, then the earlier segment.
    /// Nil when no usable edge is that close. O(edges near the point × their shape length).
    public func snapToEdge(
        _ point: GeoPoint, profile p: Int, maxMetres: Double = 200,
        rule: SnapRule = .standard
    ) -> EdgeSnap? {
        guard p >= 0, p < access.count else { return nil }
        let adjacency = self.adjacency(p)
        var bestLarge: (edge: Int32, d: Double, segment: Int, fraction: Double)?
        var bestSmall: (edge: Int32, d: Double, segment: Int, fraction: Double)?
        // Edges whose box is provably farther than the best candidate of their kind (or than the
        // radius) are skipped: the same choice as measuring every candidate, with far fewer measured.
        let cosLatitude = cos(point.latitude * .pi / 180)
        let radius = EdgeBox.haversineTerm(metres: maxMetres)
        var largeLimit = radius
        var smallLimit = radius
        // Cells farther than the best candidate of both kinds cannot hold a better one.
        edgeGrid.forEachCandidateNearestCellsFirst(
            near: point, radiusMetres: maxMetres,
            stop: { bound in bound > max(largeLimit, smallLimit) * (1 + 1e-6) + 1e-24 }
        ) { e in
            guard access[p][Int(e)] != 0 else { return }
            let root = Int(adjacency.component[Int(edges[Int(e)].from)])
            let size = Int(adjacency.componentSizes[root])
            let small = size < rule.smallComponentVertices && Int32(root) != adjacency.largestComponent
            guard
                !edgeBoxes[Int(e)].isFarther(
                    from: point, cosLatitude: cosLatitude, than: small ? smallLimit : largeLimit)
            else { return }
            let hit = Geodesy.distanceToPolyline(point, edges[Int(e)].shape)
            let (seg, frac) = normalise(edge: Int(e), segment: hit.segment, fraction: hit.fraction)
            let projected = location(edge: Int(e), segment: seg, fraction: frac)
            let d = Geodesy.haversineMetres(point, projected)
            guard d <= maxMetres else { return }
            func better(_ b: (edge: Int32, d: Double, segment: Int, fraction: Double)?) -> Bool {
                guard let b else { return true }
                return (d, e, seg, frac) < (b.d, b.edge, b.segment, b.fraction)
            }
            if small {
                if better(bestSmall) {
                    bestSmall = (e, d, seg, frac)
                    smallLimit = min(smallLimit, EdgeBox.haversineTerm(metres: d))
                    // A large-component edge farther than d / ratio loses to this fragment whatever
                    // else is found (the slack keeps one at exactly that distance, which would win).
                    if rule.fragmentDistanceRatio > 0 {
                        largeLimit = min(
                            largeLimit, EdgeBox.haversineTerm(metres: d / rule.fragmentDistanceRatio * (1 + 1e-9)))
                    }
                }
            } else if better(bestLarge) {
                bestLarge = (e, d, seg, frac)
                largeLimit = min(largeLimit, EdgeBox.haversineTerm(metres: d))
                // A fragment wins only closer than ratio · d, so one farther than that never will.
                smallLimit = min(
                    smallLimit, EdgeBox.haversineTerm(metres: rule.fragmentDistanceRatio * d * (1 + 1e-9)))
            }
        }
        let chosen: (edge: Int32, d: Double, segment: Int, fraction: Double)
        switch (bestLarge, bestSmall) {
        case (nil, nil): return nil
        case (let l?, nil): chosen = l
        case (nil, let s?): chosen = s
        case (let l?, let s?): chosen = s.d < rule.fragmentDistanceRatio * l.d ? s : l
        }
        return edgeSnap(query: point, edge: chosen.edge, segment: chosen.segment, fraction: chosen.fraction)
    }

    /// The snap of `point` at a given position on `edge` (segment and fraction as in `EdgeSnap`).
    public func edgeSnap(query point: GeoPoint, edge e: Int32, segment: Int, fraction: Double) -> EdgeSnap {
        let (seg, frac) = normalise(edge: Int(e), segment: segment, fraction: fraction)
        let projected = location(edge: Int(e), segment: seg, fraction: frac)
        let last = Double(shapeOffsets[Int(e) + 1] - shapeOffsets[Int(e)] - 1)
        let position = Double(seg) + frac
        return EdgeSnap(
            query: point, edge: e, segment: seg, fraction: frac, point: projected,
            metres: Geodesy.haversineMetres(point, projected),
            metresFromStart: alongMetres(edge: Int(e), from: 0, to: position),
            metresToEnd: alongMetres(edge: Int(e), from: position, to: last))
    }

    /// The snap of a vertex onto its first usable edge of profile `p` (nil when it has none), distance 0.
    public func edgeSnap(vertex v: Int32, profile p: Int) -> EdgeSnap? {
        guard Int(v) < vertices.count, p < access.count else { return nil }
        for a in Int(arcOffsets[Int(v)])..<Int(arcOffsets[Int(v) + 1]) where access[p][Int(arcEdge[a])] != 0 {
            let e = Int(arcEdge[a])
            let last = shapeOffsets[e + 1] - shapeOffsets[e] - 1
            return arcForward[a]
                ? edgeSnap(query: vertices[Int(v)].location, edge: Int32(e), segment: 0, fraction: 0)
                : edgeSnap(query: vertices[Int(v)].location, edge: Int32(e), segment: last - 1, fraction: 1)
        }
        return nil
    }

    /// Moves a projection at the end of a segment to the start of the next one (except at the last node),
    /// so a node has one position.
    func normalise(edge e: Int, segment: Int, fraction: Double) -> (Int, Double) {
        let segments = shapeOffsets[e + 1] - shapeOffsets[e] - 1
        let seg = min(max(0, segment), max(0, segments - 1))
        let frac = min(1, max(0, fraction))
        if frac == 1 && seg + 1 < segments { return (seg + 1, 0) }
        return (seg, frac)
    }

    /// The point at `fraction` along shape segment `segment` of edge `e` (linear in degrees, which at
    /// campus scale is the local projection's straight line); the node itself at fraction 0 or 1.
    func location(edge e: Int, segment: Int, fraction: Double) -> GeoPoint {
        let base = shapeOffsets[e]
        let count = shapeOffsets[e + 1] - base
        guard count > 1 else { return shapePoints[base] }
        let a = shapePoints[base + segment]
        let b = shapePoints[base + segment + 1]
        if fraction == 0 { return a }
        if fraction == 1 { return b }
        return GeoPoint(
            latitude: a.latitude + fraction * (b.latitude - a.latitude),
            longitude: a.longitude + fraction * (b.longitude - a.longitude))
    }

    /// The point at fractional shape position `x` of edge `e` (`segment + fraction`).
    func location(edge e: Int, position x: Double) -> GeoPoint {
        let count = shapeOffsets[e + 1] - shapeOffsets[e]
        guard count > 1 else { return shapePoints[shapeOffsets[e]] }
        let seg = min(Int(x.rounded(.down)), count - 2)
        return location(edge: e, segment: seg, fraction: x - Double(seg))
    }

    /// Metres along edge `e`'s shape between fractional positions `a` and `b` (either order): haversine
    /// from the first position to the next shape node, between nodes, and from the last node to the
    /// second position. The two parts of a split edge therefore sum to at least its length (a straight
    /// chord never exceeds the path through a point), which keeps every A* bound admissible. O(shape).
    public func alongMetres(edge e: Int, from a: Double, to b: Double) -> Double {
        let lo = min(a, b)
        let hi = max(a, b)
        let pa = location(edge: e, position: lo)
        let pb = location(edge: e, position: hi)
        let firstNode = Int(lo.rounded(.up))
        let lastNode = Int(hi.rounded(.down))
        guard firstNode <= lastNode else { return Geodesy.haversineMetres(pa, pb) }
        let base = shapeOffsets[e]
        var total = Geodesy.haversineMetres(pa, shapePoints[base + firstNode])
        var k = firstNode
        while k < lastNode {
            total += Geodesy.haversineMetres(shapePoints[base + k], shapePoints[base + k + 1])
            k += 1
        }
        return total + Geodesy.haversineMetres(shapePoints[base + lastNode], pb)
    }
}

/// The latitude and longitude bounds of an edge's shape, for a cheap lower bound on the haversine
/// distance from a point to any point of the edge (its projection onto the edge lies in the box: a
/// shape node or a point between two of them, linear in degrees).
struct EdgeBox: Sendable {
    /// Bounds in degrees.
    let minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double
    /// The smallest cosine of a latitude in the box.
    let minCosLatitude: Double

    /// The box of `points` (at least one).
    init(_ points: ArraySlice<GeoPoint>) {
        var (a, b, c, d) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
        for q in points {
            a = min(a, q.latitude)
            b = max(b, q.latitude)
            c = min(c, q.longitude)
            d = max(d, q.longitude)
        }
        minLatitude = a
        maxLatitude = b
        minLongitude = c
        maxLongitude = d
        minCosLatitude = max(0, min(cos(a * .pi / 180), cos(b * .pi / 180)))
    }

    /// The haversine term h = sin²(d / 2R) of a distance of `metres` (d = 2R·asin(√h) is increasing in h).
    static func haversineTerm(metres: Double) -> Double {
        let s = sin(min(metres / (2 * Geodesy.earthRadiusMetres), .pi / 2))
        return s * s
    }

    /// Whether every point of the box is provably farther from `p` than the distance whose
    /// `haversineTerm` is `limit` (`cosLatitude`: the cosine of `p`'s latitude). The bound uses
    /// h = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2) with each gap at its smallest over the box and
    /// sin x ≥ x − x³/6, and a relative margin far above floating-point rounding, so it never
    /// skips a point that `Geodesy.haversineMetres` would measure within the limit.
    @inline(__always)
    func isFarther(from p: GeoPoint, cosLatitude: Double, than limit: Double) -> Bool {
        let latitudeGap = max(0, minLatitude - p.latitude, p.latitude - maxLatitude)
        var longitudeGap = max(0, minLongitude - p.longitude, p.longitude - maxLongitude)
        if longitudeGap > 90 { longitudeGap = 0 }  // across the antimeridian: no bound from longitude
        let x = latitudeGap * (.pi / 360)
        let y = longitudeGap * (.pi / 360)
        let sx = max(0, x - x * x * x / 6)
        let sy = max(0, y - y * y * y / 6)
        let h = sx * sx + cosLatitude * minCosLatitude * sy * sy
        return h > limit * (1 + 1e-6) + 1e-24
    }
}
