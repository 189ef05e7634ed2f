import FieldtestData
import Foundation

extension MapSource {
    /// Reads a GeoJSON FeatureCollection (RFC 7946) of `LineString` / `MultiLineString` features.
    /// Feature `properties` become way tags (numbers and booleans as text); a feature without
    /// `highway` is taken as `highway=footway`. Line ends and shared positions become graph vertices:
    /// positions are identified when equal to 1e-7 degrees (~1 cm). Other geometry types are ignored.
    /// Coordinates are `[longitude, latitude]` in degrees. O(positions).
    public init(geoJSON data: Data, file: String) throws(RoutingError) {
        var report = LoadReport()
        try self.init(geoJSON: data, file: file, policy: .strict, report: &report)
    }

    /// Like `init(geoJSON:file:)`; under `.lenient` a feature whose geometry cannot be read is
    /// skipped and counted in `report` (naming the feature) instead of failing the file.
    public init(geoJSON data: Data, file: String, policy: LoadPolicy, report: inout LoadReport) throws(RoutingError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .invalidGeoJSON(file: file, reason: "not valid JSON (\(error.localizedDescription))")
        }
        guard let root = object as? [String: Any] else {
            throw .invalidGeoJSON(file: file, reason: "the top level is not an object")
        }
        let features = try Self.geoJSONFeatures(root, file: file)
        var points: [Point] = []
        var index: [Int64: [Int]] = [:]
        var ways: [Way] = []
        func pointIndex(_ pos: Any, feature: Int) throws(RoutingError) -> Int {
            guard let pair = pos as? [Any], pair.count >= 2,
                let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue,
                lon.isFinite, lat.isFinite, (-180...180).contains(lon), (-90...90).contains(lat)
            else {
                throw .invalidGeoJSON(
                    file: file, reason: "feature \(feature): a position is not [longitude, latitude] in degrees")
            }
            let key = Int64((lat * 1e7).rounded()) &* 4_000_000_000 &+ Int64((lon * 1e7).rounded())
            let loc = GeoPoint(latitude: lat, longitude: lon)
            if let candidates = index[key] {
                for c in candidates
                where abs(points[c].location.latitude - lat) < 5e-8 && abs(points[c].location.longitude - lon) < 5e-8 {
                    return c
                }
            }
            points.append(Point(osmID: nil, location: loc))
            index[key, default: []].append(points.count - 1)
            return points.count - 1
        }
        for (n, feature) in features.enumerated() {
            guard let geometry = feature["geometry"] as? [String: Any] else { continue }
            let tags = Self.geoJSONTags(feature)
            let id = (feature["id"] as? NSNumber)?.int64Value
            let lines: [Any]
            switch geometry["type"] as? String {
            case "LineString": lines = [geometry["coordinates"] as Any]
            case "MultiLineString": lines = geometry["coordinates"] as? [Any] ?? []
            default: continue
            }
            var featureWays: [Way] = []
            do throws(RoutingError) {
                for line in lines {
                    guard let coords = line as? [Any] else {
                        throw .invalidGeoJSON(
                            file: file, reason: "feature \(n): 'coordinates' is not a list of positions")
                    }
                    var run: [Int] = []
                    for c in coords { run.append(try pointIndex(c, feature: n)) }
                    if run.count >= 2 { featureWays.append(Way(osmID: id, points: run, tags: tags)) }
                }
            } catch {
                guard policy == .lenient, case .invalidGeoJSON(_, let reason) = error else { throw error }
                // The feature's positions read so far stay as unused points; no way refers to them.
                report.record(.badLayout(file: file, line: 0, reason: reason))
                continue
            }
            ways += featureWays
        }
        self.init(file: file, points: points, ways: ways)
    }

    /// The features of a GeoJSON object: a FeatureCollection's, or a lone Feature.
    static func geoJSONFeatures(_ root: [String: Any], file: String) throws(RoutingError) -> [[String: Any]] {
        switch root["type"] as? String {
        case "FeatureCollection":
            guard let f = root["features"] as? [[String: Any]] else {
                throw .invalidGeoJSON(file: file, reason: "'features' is missing or not a list of objects")
            }
            return f
        case "Feature":
            return [root]
        default:
            throw .invalidGeoJSON(file: file, reason: "'type' is '\(root["type"] as? String ?? "missing")'")
        }
    }

    /// A feature's string and number properties as tags; a feature without `highway` is a footway.
    static func geoJSONTags(_ feature: [String: Any]) -> [String: String] {
        var tags: [String: String] = [:]
        if let props = feature["properties"] as? [String: Any] {
            for (k, v) in props {
                switch v {
                case let s as String: tags[k] = s
                case let num as NSNumber: tags[k] = num.stringValue
                default: break
                }
            }
        }
        if tags["highway"] == nil { tags["highway"] = "footway" }
        return tags
    }
}
