import Foundation

/// A WGS 84 position, degrees.
public struct GeoCoordinate: Sendable, Equatable, Hashable, Codable {
    /// Latitude, degrees north (−90…90).
    public var latitude: Double
    /// Longitude, degrees east (−180…180).
    public var longitude: Double

    /// Creates a coordinate; degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Mean Earth radius, metres (IUGG mean radius R₁ = 6 371 008.8 m).
    public static let earthRadiusMetres = 6_371_008.8

    /// The point `eastMetres` east and `northMetres` north of this one, on a local tangent plane
    /// (equirectangular approximation; error below 0.1 % for offsets under ~10 km away from the poles).
    public func offset(eastMetres: Double, northMetres: Double) -> GeoCoordinate {
        let latitudeRadians = latitude * .pi / 180
        let dLatitude = northMetres / Self.earthRadiusMetres * 180 / .pi
        let dLongitude = eastMetres / (Self.earthRadiusMetres * cos(latitudeRadians)) * 180 / .pi
        return GeoCoordinate(latitude: latitude + dLatitude, longitude: longitude + dLongitude)
    }

    /// Great-circle distance to `other`, metres (haversine formula, Sinnott 1984). O(1).
    public func distance(to other: GeoCoordinate) -> Double {
        let phi1 = latitude * .pi / 180
        let phi2 = other.latitude * .pi / 180
        let dPhi = phi2 - phi1
        let dLambda = (other.longitude - longitude) * .pi / 180
        let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * Self.earthRadiusMetres * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}

/// A position in a local metric frame (e.g. a building's or campus' projected coordinates), metres.
public struct LocalPosition: Sendable, Equatable, Hashable, Codable {
    /// Easting, metres.
    public var east: Double
    /// Northing, metres.
    public var north: Double
    /// Height above the local reference (e.g. floor × storey height), metres.
    public var up: Double

    /// Creates a position; metres.
    public init(east: Double, north: Double, up: Double = 0) {
        self.east = east
        self.north = north
        self.up = up
    }

    /// Straight-line (3-D) distance to `other`, metres.
    public func distance(to other: LocalPosition) -> Double {
        let de = east - other.east
        let dn = north - other.north
        let du = up - other.up
        return (de * de + dn * dn + du * du).squareRoot()
    }
}
