import FieldtestData
import Foundation

/// A map for routing, parsed from the bytes of an OSM XML, OSM PBF or GeoJSON file. Reading the file
/// (and choosing its format by name and first bytes) is the caller's: `MapFile.load(url:)` of the
/// `Capabilities` module does it.
public struct MapFile: Sendable {
    /// Routing content.
    public var source: MapSource
    /// The full OSM data when the file is OSM XML (for venues and POIs).
    public var osm: OSMData?
    /// What the load skipped under `.lenient` (OSM elements or GeoJSON features), with the first reasons.
    public var report: LoadReport

    /// The formats a map can be parsed from.
    public enum Format: String, Sendable, Equatable {
        /// OpenStreetMap XML (`.osm`, `.xml`).
        case osmXML
        /// OpenStreetMap PBF (`.osm.pbf`).
        case osmPBF
        /// GeoJSON features (`.geojson`, `.json`).
        case geoJSON
    }

    /// Creates a map from parts.
    public init(source: MapSource, osm: OSMData?, report: LoadReport? = nil) {
        self.source = source
        self.osm = osm
        self.report = report ?? osm?.report ?? LoadReport()
    }

    /// Parses the map in `bytes` (the whole file) as `format`; `file` names it in errors, which are
    /// located. Under `.lenient` an OSM element or a GeoJSON feature that cannot be read is skipped
    /// and counted in `report` instead of failing the map.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, format: Format, file: String, policy: LoadPolicy = .strict
    ) throws(RoutingError) -> MapFile {
        switch format {
        case .osmXML, .osmPBF:
            do throws(DataError) {
                let osm =
                    format == .osmPBF
                    ? try OSMPBFLoader.parse(bytes: bytes, file: file, policy: policy)
                    : try OSMXMLLoader.parse(bytes: bytes, file: file, policy: policy)
                return MapFile(source: MapSource(osm: osm, file: file), osm: osm)
            } catch {
                throw .data(error)
            }
        case .geoJSON:
            return try geoJSON(Data(bytes), file: file, policy: policy)
        }
    }

    /// The GeoJSON map in `data`.
    static func geoJSON(_ data: Data, file: String, policy: LoadPolicy) throws(RoutingError) -> MapFile {
        var report = LoadReport()
        let source = try MapSource(geoJSON: data, file: file, policy: policy, report: &report)
        return MapFile(source: source, osm: nil, report: report)
    }

    /// Parses the map in `data` as `format` (see `parse(_:format:file:policy:)`).
    public static func parse(_ data: Data, format: Format, file: String, policy: LoadPolicy = .strict)
        throws(RoutingError) -> MapFile
    {
        if format == .geoJSON { return try geoJSON(data, file: file, policy: policy) }
        let result = data.withUnsafeBytes { raw in
            Result(catching: { () throws(RoutingError) in try parse(raw, format: format, file: file, policy: policy) })
        }
        return try result.get()
    }
}
