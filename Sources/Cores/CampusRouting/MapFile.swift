import FieldtestData
import Foundation

/// Loads a map file for routing: OSM XML (`.osm`, `.xml`) or GeoJSON (`.geojson`, `.json`).
public struct MapFile: Sendable {
    /// Routing content.
    public var source: MapSource
    /// The full OSM data when the file is OSM XML (for venues and POIs).
    public var osm: OSMData?
    /// What the load skipped under `.lenient` (OSM elements or GeoJSON features), with the first reasons.
    public var report: LoadReport

    /// Creates a map from parts.
    public init(source: MapSource, osm: OSMData?, report: LoadReport? = nil) {
        self.source = source
        self.osm = osm
        self.report = report ?? osm?.report ?? LoadReport()
    }

    /// Reads `url`, choosing the format by extension; errors are located. Under `.lenient` an OSM
    /// element or a GeoJSON feature that cannot be read is skipped and counted in `report` instead
    /// of failing the file.
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(RoutingError)
        -> MapFile
    {
        let name = displayName ?? url.path
        let ext = url.pathExtension.lowercased()
        if fileIsDirectory(url) {
            throw .data(
                .unreadable(file: name, reason: "it is a directory; give an .osm (OSM XML) or .geojson map file"))
        }
        switch ext {
        case "osm", "xml":
            do throws(DataError) {
                let osm = try OSMXMLLoader.load(url: url, displayName: name, policy: policy)
                return MapFile(source: MapSource(osm: osm, file: name), osm: osm)
            } catch {
                throw .data(error)
            }
        case "geojson", "json":
            let bytes: [UInt8]
            do throws(DataError) { bytes = try readFileBytes(url, displayName: name) } catch { throw .data(error) }
            var report = LoadReport()
            let source = try MapSource(geoJSON: Data(bytes), file: name, policy: policy, report: &report)
            return MapFile(source: source, osm: nil, report: report)
        case "":
            throw .data(
                .badLayout(
                    file: name, line: 1,
                    reason: "the map file name has no extension; name it .osm (OSM XML) or .geojson"))
        default:
            throw .data(
                .badLayout(file: name, line: 1, reason: "unknown map format '.\(ext)'; use .osm (OSM XML) or .geojson"))
        }
    }
}
