import Foundation

/// Typed loaders of the maps datasets, and their record counts for `datasets verify`.
public enum MapLoaders {
    /// Loads `url` with the typed loader of `format` and returns its record count
    /// (OSM XML and PBF: node + way + relation elements).
    public static func countRecords(format: DatasetFormat, url: URL, displayName: String) throws(DataError) -> Int {
        switch format {
        case .osmXML:
            return try OSMXMLLoader.load(url: url, displayName: displayName, policy: .strict).elementCount
        case .osmPBF:
            return try OSMPBFLoader.load(url: url, displayName: displayName, policy: .strict).elementCount
        case .ujiIndoorLoc:
            return try UJIIndoorLoc.load(url: url, displayName: displayName, policy: .strict).records.count
        case .geolifeCSV:
            return try GeoLifeLoaders.loadCSV(url: url, displayName: displayName, policy: .strict).records.count
        case .geolifePLT:
            return try GeoLifeLoaders.loadPLT(url: url, displayName: displayName, policy: .strict).records.count
        default:
            return try GenericCounts.count(format: format, url: url, displayName: displayName)
        }
    }
}
