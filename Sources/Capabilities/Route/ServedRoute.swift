import CampusRouting
import FieldtestData
import Foundation

/// The campus router, served; the map arrives in a `load` message (`osm-xml`, `osm-pbf` or `geojson`).
public struct ServedRoute: ServedCore {
    public let capability = SystemCapability.route
    /// The router, once a map is loaded.
    public var router: BuiltinRouter?
    /// Serves the router over the maps it is sent.
    public init(router: BuiltinRouter? = nil) { self.router = router }

    public mutating func load(path: String, format: String) throws {
        guard ["osm-xml", "osm-pbf", "geojson"].contains(format) else {
            throw ServedCoreError("route loads a map of format 'osm-xml', 'osm-pbf' or 'geojson'")
        }
        let map = try MapFile.load(url: URL(fileURLWithPath: path), displayName: path)
        router = BuiltinRouter(graph: try CampusGraph(source: map.source))
    }

    public func answer(_ rows: [JSONObject]) -> [Result<[(String, JSONField)], ServedCoreError>] {
        rows.map { row in
            guard let router else { return .failure(ServedCoreError("no map loaded; send a 'load' message first")) }
            guard let profile = row["profile"]?.stringValue else {
                return .failure(ServedCoreError("needs from_lat, from_lon, to_lat, to_lon and profile"))
            }
            let a: Double
            let b: Double
            let c: Double
            let d: Double
            do throws(ServedCoreError) {
                a = try ServedField.number(row, "from_lat", in: ServedField.latitudes)
                b = try ServedField.number(row, "from_lon", in: ServedField.longitudes)
                c = try ServedField.number(row, "to_lat", in: ServedField.latitudes)
                d = try ServedField.number(row, "to_lon", in: ServedField.longitudes)
            } catch { return .failure(error) }
            let q = RouteQuery(
                id: "", from: GeoPoint(latitude: a, longitude: b), to: GeoPoint(latitude: c, longitude: d),
                profile: profile)
            guard let r = router.route([q])[0] else {
                return .failure(
                    ServedCoreError(
                        "unknown profile '\(profile)'; known: \(router.graph.profiles.map(\.name).joined(separator: ", "))"
                    ))
            }
            return .success(r.fields)
        }
    }
}
