import Foundation

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
