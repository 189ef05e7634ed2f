import FieldtestData

/// Errors of the routing core: bad profiles, queries, congestion input or graphs.
public enum RoutingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A profile document is malformed; `line` is 1-based when known.
    case invalidProfile(file: String, line: Int?, reason: String)
    /// A query names a profile the graph was not built with.
    case unknownProfile(name: String, known: [String])
    /// The map has no routable way under any profile.
    case emptyGraph(file: String)
    /// A GeoJSON document is not a usable LineString collection.
    case invalidGeoJSON(file: String, reason: String)
    /// An input file problem from the data layer.
    case data(DataError)

    public var description: String {
        switch self {
        case .invalidProfile(let file, let line, let reason):
            return "\(line.map { "\(file):\($0)" } ?? file): error: \(reason)"
        case .unknownProfile(let name, let known):
            return
                "error: unknown profile '\(name)'; use one of \(known.joined(separator: ", ")) or add it to a --profiles YAML file"
        case .emptyGraph(let file):
            return
                "\(file): error: no routable ways (no highway the profiles accept); check the extract covers footpaths or streets"
        case .invalidGeoJSON(let file, let reason):
            return
                "\(file): error: \(reason); expected a GeoJSON FeatureCollection of LineString or MultiLineString features"
        case .data(let e):
            return e.description
        }
    }
}
