import Foundation

/// A reader of one OSM file format from the file's bytes (`OSMXMLLoader`, `OSMPBFLoader`): it
/// parses bytes, and gets loading a mapped file and parsing `Data` from this protocol.
public protocol OSMByteLoader {
    /// Parses the OSM data in `bytes`; `file` names it in errors. Under `.strict` the first bad
    /// element throws; under `.lenient` it is skipped and counted.
    static func parse(bytes: UnsafeRawBufferPointer, file: String, policy: LoadPolicy) throws(DataError) -> OSMData
}

extension OSMByteLoader {
    /// Loads `url`, mapped into memory (`MappedFile` applies the input size limits first).
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> OSMData
    {
        let name = displayName ?? url.path
        let file = try MappedFile(url: url, displayName: name)
        return try parse(bytes: file.bytes, file: name, policy: policy)
    }

    /// Parses the OSM data held in memory; `file` names it in errors.
    public static func parse(_ data: Data, file: String, policy: LoadPolicy = .strict) throws(DataError) -> OSMData {
        let result = data.withUnsafeBytes { raw in
            Result(catching: { () throws(DataError) in try parse(bytes: raw, file: file, policy: policy) })
        }
        return try result.get()
    }
}
