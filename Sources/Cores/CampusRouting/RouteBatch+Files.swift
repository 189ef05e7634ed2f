import FieldtestData
import Foundation

extension RouteBatch {
    /// `fieldtest route` as one call: the input paths as the options give them (`-`: standard input,
    /// for one of them at most), an `output` that names one of them refused, then `run(graph:queries:congestion:profiles:)`.
    public static func run(
        graph: String, queries: String, congestion: String?, profiles: String?, output: String?
    ) throws -> String {
        let paths = try OutputText.inputPaths([graph, queries, congestion ?? "", profiles ?? ""])
        let named = zip(["--graph", "--queries", "--congestion", "--profiles"], paths).filter { !$0.1.isEmpty }
        try OutputPathCheck.refuseOverwritingInputs(
            named.map { .init(option: $0, url: URL(fileURLWithPath: $1)) }, output: output)
        return try run(
            graph: paths[0], queries: paths[1], congestion: congestion.map { _ in paths[2] },
            profiles: profiles.map { _ in paths[3] })
    }

    /// Routes the queries of the CSV file `queries` over the map file `graph` (OSM XML, OSM PBF or
    /// GeoJSON; its prepared graph cached as `GraphCache` describes), with the profiles of the YAML file `profiles` (else the built-in ones) and the
    /// crowd densities of the CSV file `congestion` when given; returns the result CSV (`csv`).
    public static func run(graph: String, queries: String, congestion: String?, profiles: String?) throws -> String {
        let set: RoutingProfiles
        if let profiles {
            let bytes = try readFileBytes(URL(fileURLWithPath: profiles), displayName: profiles)
            guard bytes.count <= RoutingProfiles.maximumDocumentBytes else {
                throw RoutingError.invalidProfile(
                    file: profiles, line: nil,
                    reason: "the file has \(bytes.count) bytes; a profile document may have at most "
                        + "\(RoutingProfiles.maximumDocumentBytes)")
            }
            let text: String
            do { text = try TextLines.decode(bytes, file: profiles) } catch { throw RoutingError.data(error) }
            set = try RoutingProfiles(yaml: text, file: profiles)
        } else {
            set = .builtIn
        }
        let map = try MapFile.load(url: URL(fileURLWithPath: graph), displayName: graph)
        // The prepared graph comes from the cache when this map and these profiles were routed before.
        let g = try GraphCache.graph(
            source: map.source, map: URL(fileURLWithPath: graph), profiles: set, directory: GraphCache.directory()
        ).graph
        let qs = try parseQueries(try readFileBytes(URL(fileURLWithPath: queries), displayName: queries), file: queries)
        var slowdown: [Double]?
        if let congestion {
            slowdown = try parseCongestion(
                try readFileBytes(URL(fileURLWithPath: congestion), displayName: congestion), file: congestion, graph: g
            )
        }
        return csv(queries: qs, routes: try run(graph: g, queries: qs, queriesFile: queries, slowdown: slowdown))
    }
}
