import FieldtestData
import Foundation

/// Loads a map file for routing: OSM XML (`.osm`, `.xml`), OSM PBF (`.osm.pbf`) or GeoJSON (`.geojson`, `.json`).
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
                .unreadable(
                    file: name, reason: "it is a directory; give an .osm (OSM XML), .osm.pbf or .geojson map file"))
        }
        // A PBF extract is told by its first block wherever it is named .osm or has no extension.
        let pbf = ext == "pbf" || (["osm", "xml", ""].contains(ext) && Self.startsLikePBF(url))
        switch pbf ? "pbf" : ext {
        case "osm", "xml", "pbf":
            do throws(DataError) {
                let osm =
                    pbf
                    ? try OSMPBFLoader.load(url: url, displayName: name, policy: policy)
                    : try OSMXMLLoader.load(url: url, displayName: name, policy: policy)
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
                    reason: "the map file name has no extension; name it .osm (OSM XML), .osm.pbf or .geojson"))
        default:
            throw .data(
                .badLayout(
                    file: name, line: 1,
                    reason: "unknown map format '.\(ext)'; use .osm (OSM XML), .osm.pbf or .geojson"))
        }
    }

    /// Whether the file's first bytes are those of an OSM PBF file.
    /// The dataset format of the OSM map in `url`: `osm-pbf` when it is a PBF extract (by extension or
    /// by its first block), else `osm-xml`.
    public static func osmFormat(of url: URL) -> DatasetFormat {
        url.pathExtension.lowercased() == "pbf" || startsLikePBF(url) ? .osmPBF : .osmXML
    }

    static func startsLikePBF(_ url: URL) -> Bool {
        // Only a regular file: reading the start of a pipe would take those bytes from its reader.
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return OSMPBFLoader.looksLikePBF([UInt8]((try? handle.read(upToCount: 16)) ?? Data()))
    }
}
