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

    /// Calls `body` with every item in the cells overlapping a `radiusMetres` circle around `p`
    /// (an item may be visited more than once when it spans cells).
    public func forEachCandidate(near p: GeoPoint, radiusMetres: Double, _ body: (Int32) -> Void) {
        let degPerMetre = 180 / (Double.pi * Geodesy.earthRadiusMetres)
        let dLat = radiusMetres * degPerMetre
        let dLon = dLat / max(0.01, cos(p.latitude * .pi / 180))
        let r0 = Int64(((p.latitude - dLat) / cellLat).rounded(.down))
        let r1 = Int64(((p.latitude + dLat) / cellLat).rounded(.down))
        let c0 = Int64(((p.longitude - dLon) / cellLon).rounded(.down))
        let c1 = Int64(((p.longitude + dLon) / cellLon).rounded(.down))
        guard r1 - r0 < 10_000, c1 - c0 < 10_000 else { return }
        for r in r0...r1 {
            for c in c0...c1 {
                if let items = buckets[Self.key(r, c)] { for i in items { body(i) } }
            }
        }
    }
}
