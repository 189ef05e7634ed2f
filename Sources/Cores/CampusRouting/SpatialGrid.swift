import FieldtestData
import Foundation

/// A uniform lat/lon bucket grid for nearest-neighbour and radius queries over points or polylines.
///
/// Cells are `cellMetres` tall and (at the reference latitude) as wide; queries scan the cells
/// overlapping the search radius. Build O(n); a radius-r query is O(items in the (2r/cell)² cells).
public struct SpatialGrid: Sendable {
    /// Cell height in degrees of latitude.
    let cellLat: Double
    /// Cell width in degrees of longitude.
    let cellLon: Double
    var buckets: [Int64: [Int32]] = [:]

    /// Creates an empty grid with square cells of `cellMetres` at `referenceLatitude` (degrees).
    public init(cellMetres: Double = 100, referenceLatitude: Double) {
        let degPerMetre = 180 / (Double.pi * Geodesy.earthRadiusMetres)
        cellLat = cellMetres * degPerMetre
        cellLon = cellLat / max(0.05, cos(referenceLatitude * .pi / 180))
    }

    @inline(__always)
    func cell(_ p: GeoPoint) -> (Int64, Int64) {
        (Int64((p.latitude / cellLat).rounded(.down)), Int64((p.longitude / cellLon).rounded(.down)))
    }

    @inline(__always)
    static func key(_ r: Int64, _ c: Int64) -> Int64 { r &* 1_000_003 &+ c }

    /// Adds `item` at point `p`.
    public mutating func insert(_ item: Int32, at p: GeoPoint) {
        let (r, c) = cell(p)
        buckets[Self.key(r, c), default: []].append(item)
    }

    /// Adds `item` to every cell overlapped by the bounding box of segment `a`–`b`.
    public mutating func insert(_ item: Int32, segmentFrom a: GeoPoint, to b: GeoPoint) {
        let (r0, c0) = cell(a)
        let (r1, c1) = cell(b)
        for r in min(r0, r1)...max(r0, r1) {
            for c in min(c0, c1)...max(c0, c1) {
                let k = Self.key(r, c)
                if buckets[k]?.last != item { buckets[k, default: []].append(item) }
            }
        }
    }

    /// Degrees of latitude per metre on the sphere the grid measures on.
    static let degreesPerMetre = 180 / (Double.pi * Geodesy.earthRadiusMetres)

    /// The rows `r0…r1` and columns `c0…c1` of the cells overlapping a `radiusMetres` circle around `p`;
    /// nil when that is 10,000 cells or more a side (a radius far beyond any campus).
    func cells(near p: GeoPoint, radiusMetres: Double) -> (Int64, Int64, Int64, Int64)? {
        // A point off the globe (or infinite) is near nothing; converting it to a cell would trap.
        guard abs(p.latitude) <= 90, abs(p.longitude) <= 180, radiusMetres.isFinite else { return nil }
        let dLat = radiusMetres * Self.degreesPerMetre
        let dLon = dLat / max(0.01, cos(p.latitude * .pi / 180))
        let r0 = Int64(((p.latitude - dLat) / cellLat).rounded(.down))
        let r1 = Int64(((p.latitude + dLat) / cellLat).rounded(.down))
        let c0 = Int64(((p.longitude - dLon) / cellLon).rounded(.down))
        let c1 = Int64(((p.longitude + dLon) / cellLon).rounded(.down))
        guard r1 - r0 < 10_000, c1 - c0 < 10_000 else { return nil }
        return (r0, r1, c0, c1)
    }

    /// Calls `body` with every item in the cells overlapping a `radiusMetres` circle around `p`
    /// (an item may be visited more than once when it spans cells).
    public func forEachCandidate(near p: GeoPoint, radiusMetres: Double, _ body: (Int32) -> Void) {
        guard let (r0, r1, c0, c1) = cells(near: p, radiusMetres: radiusMetres) else { return }
        for r in r0...r1 {
            for c in c0...c1 {
                if let items = buckets[Self.key(r, c)] { for i in items { body(i) } }
            }
        }
    }

    /// `forEachCandidate` visiting the cells in rings around the cell of `p` (its own cell first, then
    /// those one cell away, …), so a nearest-item search finds a close item early and can skip the
    /// items a lower bound puts farther away. Without `stop` the items visited are the same as
    /// `forEachCandidate`'s; only the order differs.
    ///
    /// After each ring, `stop` is given a lower bound on the haversine term (`sin²(d / 2R)`) of the
    /// distance from `p` to any point of the cells not visited yet; when it returns true the scan ends
    /// (every item of those cells is that far away at least, in the part of it inside them).
    func forEachCandidateNearestCellsFirst(
        near p: GeoPoint, radiusMetres: Double, stop: (Double) -> Bool = { _ in false }, _ body: (Int32) -> Void
    ) {
        guard let (r0, r1, c0, c1) = cells(near: p, radiusMetres: radiusMetres) else { return }
        let (rc, cc) = cell(p)
        let rings = max(rc - r0, r1 - rc, cc - c0, c1 - cc, 0)
        func visit(_ r: Int64, _ c: Int64) {
            if c >= c0, c <= c1, let items = buckets[Self.key(r, c)] { for i in items { body(i) } }
        }
        for k in 0...rings {
            // The point's cell is inside the scanned rectangle, so these row ranges are never empty.
            for r in max(r0, rc - k)...min(r1, rc + k) {
                if r == rc - k || r == rc + k {
                    for c in max(c0, cc - k)...min(c1, cc + k) { visit(r, c) }  // the ring's top or bottom row
                } else {
                    visit(r, cc - k)  // the ring's two sides
                    if k > 0 { visit(r, cc + k) }
                }
            }
            // The cells left lie beyond rows rc ± k or columns cc ± k: bound the distance to them by the
            // smaller of the latitude and the longitude gap (the latter at the smallest cosine in reach).
            let latitudeGap = min(p.latitude - Double(rc - k) * cellLat, Double(rc + k + 1) * cellLat - p.latitude)
            let longitudeGap = min(p.longitude - Double(cc - k) * cellLon, Double(cc + k + 1) * cellLon - p.longitude)
            let x = max(0, latitudeGap) * (.pi / 360)
            let y = min(90, max(0, longitudeGap)) * (.pi / 360)
            let sx = max(0, x - x * x * x / 6)
            let sy = max(0, y - y * y * y / 6)
            // Points beyond twice the radius north or south are farther than the radius anyway.
            let reach = min(90, abs(p.latitude) + 2 * radiusMetres * Self.degreesPerMetre) * .pi / 180
            let h = min(sx * sx, cos(p.latitude * .pi / 180) * max(0, cos(reach)) * sy * sy)
            if k < rings, stop(h * (1 - 1e-6)) { return }
        }
    }
}
