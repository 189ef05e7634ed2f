import FieldtestData
import Foundation

/// Reads the features of a `traces.geojson` back for a map, checking that it is the GeoJSON
/// (RFC 7946) `fieldtest run` writes: a FeatureCollection of features whose geometries are Points,
/// MultiPoints, LineStrings, MultiLineStrings or Polygons of `[longitude, latitude]` positions in range.
public enum TraceGeoJSON {
    /// The features of the file at `url`.
    public static func read(_ url: URL) throws -> [MapFeature] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ReportError.badTrace(file: url.path, reason: "cannot be read (\(error.localizedDescription))")
        }
        return try parse(data, file: url.path)
    }

    /// What a case's trace left out past the feature cap, as the `fieldtest.dropped` member records it.
    public struct Dropped: Sendable, Equatable {
        /// Features not written, of any kind.
        public var features: Int
        /// Those by kind (`route` → 12); empty in files written before kinds were counted.
        public var kinds: [String: Int]

        /// A count; see the properties.
        public init(features: Int, kinds: [String: Int] = [:]) {
            self.features = features
            self.kinds = kinds
        }
    }

    /// The features each case left out (by case label), from the `fieldtest` member of GeoJSON text
    /// `data`; empty when there is none or it cannot be read (it only annotates the map).
    public static func dropped(_ data: Data) -> [String: Dropped] {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let list = (root["fieldtest"] as? [String: Any])?["dropped"] as? [[String: Any]]
        else { return [:] }
        var out: [String: Dropped] = [:]
        for entry in list {
            guard let label = entry["case"] as? String, let n = (entry["features"] as? NSNumber)?.intValue, n > 0
            else { continue }
            let kinds = (entry["feature_kinds"] as? [String: Any] ?? [:]).compactMapValues {
                ($0 as? NSNumber)?.intValue
            }
            out[label] = Dropped(features: n, kinds: kinds)
        }
        return out
    }

    /// The features of GeoJSON text `data` (`file` names it in errors).
    public static func parse(_ data: Data, file: String) throws(ReportError) -> [MapFeature] {
        func bad(_ reason: String) -> ReportError { .badTrace(file: file, reason: reason) }
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw bad("is not a JSON object")
        }
        guard root["type"] as? String == "FeatureCollection", let features = root["features"] as? [Any] else {
            throw bad("is not a GeoJSON FeatureCollection with a 'features' list")
        }
        var out: [MapFeature] = []
        for (i, any) in features.enumerated() {
            guard let f = any as? [String: Any], f["type"] as? String == "Feature",
                let g = f["geometry"] as? [String: Any], let type = g["type"] as? String,
                let coordinates = g["coordinates"]
            else { throw bad("feature \(i) is not a Feature with a geometry") }
            let props = f["properties"] as? [String: Any] ?? [:]
            var numbers: [String: Double] = [:]
            var texts: [String: String] = [:]
            for (k, v) in props {
                if let s = v as? String {
                    texts[k] = s
                } else if let n = v as? NSNumber {  // booleans read as 0 or 1
                    numbers[k] = n.doubleValue
                }
            }
            func position(_ v: Any) throws(ReportError) -> GeoPoint {
                guard let p = v as? [Any], p.count >= 2, let lon = (p[0] as? NSNumber)?.doubleValue,
                    let lat = (p[1] as? NSNumber)?.doubleValue
                else { throw bad("feature \(i) has a position that is not [longitude, latitude]") }
                guard (-180...180).contains(lon), (-90...90).contains(lat) else {
                    throw bad("feature \(i) has a position out of range: [\(lon), \(lat)]")
                }
                return GeoPoint(latitude: lat, longitude: lon)
            }
            func positions(_ v: Any) throws(ReportError) -> [GeoPoint] {
                guard let list = v as? [Any] else { throw bad("feature \(i) has coordinates that are not a list") }
                var points: [GeoPoint] = []
                for p in list { points.append(try position(p)) }
                return points
            }
            func lists(_ v: Any) throws(ReportError) -> [[GeoPoint]] {
                guard let list = v as? [Any] else { throw bad("feature \(i) has coordinates that are not a list") }
                var lines: [[GeoPoint]] = []
                for l in list { lines.append(try positions(l)) }
                return lines
            }
            let kind = texts["kind"] ?? type
            switch type {
            case "Point":
                out.append(
                    MapFeature(
                        kind: kind, lines: [[try position(coordinates)]], isPoints: true, numbers: numbers, texts: texts
                    ))
            case "MultiPoint":
                out.append(
                    MapFeature(
                        kind: kind, lines: [try positions(coordinates)], isPoints: true, numbers: numbers, texts: texts)
                )
            case "LineString":
                let line = try positions(coordinates)
                guard line.count >= 2 else { throw bad("feature \(i) is a LineString of fewer than 2 positions") }
                out.append(MapFeature(kind: kind, lines: [line], numbers: numbers, texts: texts))
            case "MultiLineString":
                out.append(MapFeature(kind: kind, lines: try lists(coordinates), numbers: numbers, texts: texts))
            case "Polygon":
                let rings = try lists(coordinates)
                guard let ring = rings.first, ring.count >= 4, ring.first == ring.last else {
                    throw bad("feature \(i) is a Polygon whose ring is not closed (4 or more positions, last = first)")
                }
                out.append(MapFeature(kind: kind, lines: rings, isPolygon: true, numbers: numbers, texts: texts))
            default:
                throw bad("feature \(i) has geometry type '\(type)', which fieldtest does not write")
            }
        }
        return out
    }
}
