import CampusRouting
import FieldtestData
import Foundation

extension MapFile {
    /// Reads `url`, choosing the format by extension (a PBF extract is told by its first block
    /// wherever it is named `.osm` or has no extension) and parsing it with
    /// `parse(_:format:file:policy:)`; errors are located. Under `.lenient` an OSM element or a
    /// GeoJSON feature that cannot be read is skipped and counted in `report` instead of failing the file.
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
        let pbf = ext == "pbf" || (["osm", "xml", ""].contains(ext) && Self.startsLikePBF(url))
        switch pbf ? "pbf" : ext {
        case "osm", "xml", "pbf":
            // Mapped, not copied: an extract can be hundreds of megabytes.
            let mapped: MappedFile
            do throws(DataError) { mapped = try MappedFile(url: url, displayName: name) } catch { throw .data(error) }
            return try parse(mapped.bytes, format: pbf ? .osmPBF : .osmXML, file: name, policy: policy)
        case "geojson", "json":
            let bytes: [UInt8]
            do throws(DataError) { bytes = try readFileBytes(url, displayName: name) } catch { throw .data(error) }
            return try parse(Data(bytes), format: .geoJSON, file: name, policy: policy)
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

    /// The dataset format of the OSM map in `url`: `osm-pbf` when it is a PBF extract (by extension or
    /// by its first block), else `osm-xml`.
    public static func osmFormat(of url: URL) -> DatasetFormat {
        url.pathExtension.lowercased() == "pbf" || startsLikePBF(url) ? .osmPBF : .osmXML
    }

    /// Whether the file's first bytes are those of an OSM PBF file.
    static func startsLikePBF(_ url: URL) -> Bool {
        // Only a regular file: reading the start of a pipe would take those bytes from its reader.
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return OSMPBFLoader.looksLikePBF([UInt8]((try? handle.read(upToCount: 16)) ?? Data()))
    }
}
