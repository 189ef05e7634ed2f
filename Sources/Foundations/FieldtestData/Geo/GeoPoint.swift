import Foundation

/// A WGS 84 position in degrees: the one geographic point type of the project (datasets, routing,
/// device emulation and the apps all speak it).
public struct GeoPoint: Sendable, Equatable, Hashable, Codable {
    /// Latitude in degrees north, −90…90.
    public var latitude: Double
    /// Longitude in degrees east, −180…180.
    public var longitude: Double

    /// Creates a point from degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Great-circle distance to `other` in metres (`Geodesy.haversineMetres`). O(1).
    public func distance(to other: GeoPoint) -> Double {
        Geodesy.haversineMetres(self, other)
    }

    /// The point `eastMetres` east and `northMetres` north of this one, on a local tangent plane
    /// (equirectangular; error below 0.1 % for offsets under ~10 km away from the poles). The inverse
    /// of `Geodesy.localMetres`. O(1).
    public func offset(eastMetres: Double, northMetres: Double) -> GeoPoint {
        let latitudeRadians = latitude * .pi / 180
        let dLatitude = northMetres / Geodesy.earthRadiusMetres * 180 / .pi
        let dLongitude = eastMetres / (Geodesy.earthRadiusMetres * cos(latitudeRadians)) * 180 / .pi
        return GeoPoint(latitude: latitude + dLatitude, longitude: longitude + dLongitude)
    }
}

/// Great-circle distances on a spherical Earth.
public enum Geodesy {
    /// Mean Earth radius in metres (IUGG R1 = 6,371,008.8 m).
    public static let earthRadiusMetres = 6_371_008.8

    /// Haversine distance in metres between `a` and `b` (Sinnott 1984, "Virtues of the haversine").
    /// O(1); accurate to ~0.5 % against the ellipsoid, exact for the sphere of radius `earthRadiusMetres`.
    @inlinable
    public static func haversineMetres(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLon = (b.longitude - a.longitude) * rad
        let s1 = sin(dLat / 2)
        let s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(a.latitude * rad) * cos(b.latitude * rad) * s2 * s2
        return 2 * earthRadiusMetres * asin(min(1, sqrt(h)))
    }

    /// Sum of haversine lengths in metres along `points`. O(n).
    public static func pathLengthMetres(_ points: [GeoPoint]) -> Double {
        var total = 0.0
        var i = 1
        while i < points.count {
            total += haversineMetres(points[i - 1], points[i])
            i += 1
        }
        return total
    }

    /// Local equirectangular projection of `p` around `origin`, in metres east and north.
    /// Good to < 0.1 % within a few kilometres; used for point-to-segment geometry. O(1).
    public static func localMetres(_ p: GeoPoint, origin: GeoPoint) -> (x: Double, y: Double) {
        let rad = Double.pi / 180
        let x = (p.longitude - origin.longitude) * rad * cos(origin.latitude * rad) * earthRadiusMetres
        let y = (p.latitude - origin.latitude) * rad * earthRadiusMetres
        return (x, y)
    }

    /// Distance in metres from `p` to the polyline `shape` (local projection), with the index of the
    /// nearest segment and the fraction along it. O(n).
    public static func distanceToPolyline(_ p: GeoPoint, _ shape: [GeoPoint]) -> (
        metres: Double, segment: Int, fraction: Double
    ) {
        guard let first = shape.first else { return (.infinity, 0, 0) }
        if shape.count == 1 { return (haversineMetres(p, first), 0, 0) }
        var best = (metres: Double.infinity, segment: 0, fraction: 0.0)
        for i in 1..<shape.count {
            let a = localMetres(shape[i - 1], origin: p)
            let b = localMetres(shape[i], origin: p)
            let dx = b.x - a.x
            let dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            var t = len2 > 0 ? -(a.x * dx + a.y * dy) / len2 : 0
            t = min(1, max(0, t))
            let cx = a.x + t * dx
            let cy = a.y + t * dy
            let d = (cx * cx + cy * cy).squareRoot()
            if d < best.metres { best = (d, i - 1, t) }
        }
        return best
    }
}
