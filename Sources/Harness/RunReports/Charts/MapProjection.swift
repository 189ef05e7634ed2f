import FieldtestData
import Foundation

/// Projects longitude/latitude onto a pixel box for a campus-sized map: equirectangular at the
/// centre's latitude (east–west distances scaled by its cosine, so a 50 m square stays square), fitted
/// into the box with a margin and the aspect ratio kept, north up. Over a few kilometres its distortion
/// is far below a pixel.
public struct MapProjection: Sendable, Equatable {
    /// The box width and height, pixels.
    public var width: Double, height: Double
    /// Degrees of the centre.
    public var centre: GeoPoint
    /// Pixels per metre.
    public var pixelsPerMetre: Double

    /// A projection fitting every point of `points` into a `width` × `height` box with `margin`
    /// pixels on each side; nil when there is no point.
    public init?(fitting points: [GeoPoint], width: Double, height: Double, margin: Double = 8) {
        guard let minLat = points.map(\.latitude).min(), let maxLat = points.map(\.latitude).max(),
            let minLon = points.map(\.longitude).min(), let maxLon = points.map(\.longitude).max()
        else { return nil }
        self.width = width
        self.height = height
        centre = GeoPoint(latitude: (minLat + maxLat) / 2, longitude: (minLon + maxLon) / 2)
        let metresPerDegree = Self.earthRadius * Double.pi / 180
        let spanX = (maxLon - minLon) * metresPerDegree * cos(centre.latitude * Double.pi / 180)
        let spanY = (maxLat - minLat) * metresPerDegree
        let sx = spanX > 0 ? (width - 2 * margin) / spanX : .infinity
        let sy = spanY > 0 ? (height - 2 * margin) / spanY : .infinity
        let s = min(sx, sy)
        pixelsPerMetre = s.isFinite ? s : 1
    }

    /// Mean Earth radius, metres.
    static let earthRadius = 6_371_008.8

    /// The pixel position of `p`: x right (east), y down (south).
    public func callAsFunction(_ p: GeoPoint) -> (x: Double, y: Double) {
        let metresPerDegree = Self.earthRadius * Double.pi / 180
        let east = (p.longitude - centre.longitude) * metresPerDegree * cos(centre.latitude * Double.pi / 180)
        let north = (p.latitude - centre.latitude) * metresPerDegree
        return (width / 2 + east * pixelsPerMetre, height / 2 - north * pixelsPerMetre)
    }

    /// The length, pixels, that `metres` takes on the map (for a scale bar).
    public func pixels(metres: Double) -> Double { metres * pixelsPerMetre }
}
