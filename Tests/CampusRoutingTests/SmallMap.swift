import CampusRouting
import FieldtestData
import Foundation

/// A hand-made GeoJSON map (`Fixtures/small.geojson`) with known answers, near (0°, 0°) where 0.001° ≈ 111.195 m.
///
///     C(0.001,0.001) ── steps ── B(0,0.001)        E ── F  (isolated, 0.01° east)
///          \                       |
///        footway (long, via D)   footway
///            D(0.0015,-0.0005)──── A(0,0)
enum SmallMap {
    static let a = GeoPoint(latitude: 0, longitude: 0)
    static let b = GeoPoint(latitude: 0, longitude: 0.001)
    static let c = GeoPoint(latitude: 0.001, longitude: 0.001)
    static let d = GeoPoint(latitude: 0.0015, longitude: -0.0005)
    static let e = GeoPoint(latitude: 0, longitude: 0.01)
    static let f = GeoPoint(latitude: 0, longitude: 0.0105)
    /// 0.001° of arc on the R = 6,371,008.8 m sphere, in metres (computed in Python).
    static let milliDegree = 111.19508023353292

    /// The map's GeoJSON (`Fixtures/small.geojson`, also read by the capability tests).
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/small.geojson")
    static let geoJSON = (try? String(contentsOf: file, encoding: .utf8)) ?? ""

    static func graph() throws -> CampusGraph {
        try CampusGraph(source: try MapSource(geoJSON: Data(geoJSON.utf8), file: "small.geojson"))
    }
}
