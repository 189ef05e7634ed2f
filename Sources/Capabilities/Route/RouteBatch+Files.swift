import CampusRouting
import FieldtestData
import Foundation
import Synchronization

extension RouteBatch {
    /// `fieldtest route --help`'s description of the output.
    public static let discussion = """
        Output columns: id,status,length_m,duration_s,node_ids,path,from_snap_m,to_snap_m. Each end is \
        projected onto the nearest usable path (fragments lose to the main network unless much closer); \
        status is ok, no_route or no_snap (no usable path within 200 m). Profiles: walk, wheelchair and the \
        others of the built-in profile YAML (--print-profiles writes it to --output or standard output), or \
        your own with --profiles. Each --congestion point is matched to the nearest edge. The prepared graph \
        is cached in $FIELDTEST_GRAPH_CACHE (off: no cache; default ~/.cache/fieldtest/graphs), each file \
        signed with the user's own key ($FIELDTEST_GRAPH_CACHE_KEY, default \
        ~/.config/fieldtest/graph-cache.key, made 0600): a file it did not sign is rebuilt, never used.
        """

    /// Options of `fieldtest route` that do not go together, or a missing one.
    public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var message: String
        public var description: String { "error: route: " + message }
    }

    /// `fieldtest route` as one call: with `printProfiles`, the built-in profiles YAML written to
    /// `output` (and nothing else given); else the queries routed (`run(graph:queries:congestion:profiles:output:)`).
    /// - Throws: `UsageError` for options that do not go together, and what routing throws.
    public static func run(
        graph: String?, queries: String?, congestion: String?, profiles: String?, printProfiles: Bool, output: String?
    ) throws {
        if printProfiles {
            guard graph == nil, queries == nil, congestion == nil, profiles == nil else {
                throw UsageError(
                    message: "--print-profiles prints the built-in profiles and routes nothing; drop --graph, "
                        + "--queries, --congestion and --profiles, or --print-profiles")
            }
            return try OutputText.write(RoutingProfiles.defaultYAML + "\n", to: output)
        }
        guard let graph, let queries else { throw UsageError(message: "--graph and --queries are required") }
        try run(graph: graph, queries: queries, congestion: congestion, profiles: profiles, output: output)
    }

    /// `fieldtest route` as one call: the input paths as the options give them (`-`: standard input,
    /// for one of them at most), an `output` that names one of them refused, then the map and
    /// congestion loaded and the queries streamed a run at a time to `output` (nil or `-`: standard
    /// output) in bounded memory, each run's queries routed on every core: the same bytes as
    /// `run(graph:queries:congestion:profiles:)`.
    public static func run(
        graph: String, queries: String, congestion: String?, profiles: String?, output: String?
    ) throws {
        let paths = try OutputText.inputPaths([graph, queries, congestion ?? "", profiles ?? ""])
        let named = zip(["--graph", "--queries", "--congestion", "--profiles"], paths).filter { !$0.1.isEmpty }
        try OutputPathCheck.refuseOverwritingInputs(
            named.map { .init(option: $0, url: URL(fileURLWithPath: $1)) }, output: output)
        // The queries' profile names are read ahead while the map loads.
        let names = Mutex<Set<String>??>(nil)
        let readAhead = DispatchGroup()
        DispatchQueue.global().async(group: readAhead) { [queries = paths[1]] in
            let found = profileNames(inQueries: queries)
            names.withLock { $0 = .some(found) }
        }
        let prepared = try prepare(
            graph: paths[0], congestion: congestion.map { _ in paths[2] }, profiles: profiles.map { _ in paths[3] },
            named: {
                readAhead.wait()
                return names.withLock { $0 ?? nil }
            })
        try CSVStreaming.transform(
            file: paths[1], output: output, header: header,
            emitting: { table, emit in
                try routedParts(
                    graph: prepared.graph, queries: try parseQueries(table), queriesFile: paths[1],
                    slowdown: prepared.slowdown, jobs: ProcessInfo.processInfo.activeProcessorCount, emit: emit)
            })
        // Freeing the map's and the graph's elements takes milliseconds of CPU (about ten for a city
        // map), which the output need not wait for: it is done on another thread once the output is
        // complete, and a process that ends first leaves it to the system.
        releaseInBackground(consume prepared)
    }

    /// Drops `value` on another thread.
    private static func releaseInBackground<Value: Sendable>(_ value: consuming Value) {
        DispatchQueue.global(qos: .utility).async { [value] in withExtendedLifetime(value) {} }
    }

    /// What `prepare` gives: the graph, the per-edge slowdowns, and the map the graph was built from.
    struct Prepared: Sendable {
        var graph: CampusGraph
        var slowdown: [Double]?
        var map: MapFile
    }

    /// Routes the queries of the CSV file `queries` over the map file `graph` (OSM XML, OSM PBF or
    /// GeoJSON; its prepared graph cached as `GraphCache` describes), with the profiles of the YAML file `profiles` (else the built-in ones) and the
    /// crowd densities of the CSV file `congestion` when given; returns the result CSV (`csv`).
    public static func run(graph: String, queries: String, congestion: String?, profiles: String?) throws -> String {
        let prepared = try prepare(graph: graph, congestion: congestion, profiles: profiles)
        let qs = try parseQueries(try readFileBytes(URL(fileURLWithPath: queries), displayName: queries), file: queries)
        return csv(
            queries: qs,
            routes: try run(graph: prepared.graph, queries: qs, queriesFile: queries, slowdown: prepared.slowdown))
    }

    /// The graph of the map file `graph` with the profiles of `profiles` (else the built-in ones), and
    /// the per-edge slowdowns of the congestion file when given. Only the profiles `named` gives (asked
    /// once the map is read; nil: all) are prepared at load, the others when first used: a profile's
    /// landmark searches are most of a map's load, and a batch of walking queries need not wait for
    /// five wheelchair profiles.
    static func prepare(
        graph: String, congestion: String?, profiles: String?, named: () -> Set<String>? = { nil }
    ) throws -> Prepared {
        let set: RoutingProfiles?
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
            // The built-in profiles' YAML is read beside the map.
            DispatchQueue.global().async { _ = RoutingProfiles.builtIn }
            set = nil
        }
        let map = try MapFile.load(url: URL(fileURLWithPath: graph), displayName: graph)
        // The prepared graph comes from the cache when this map and these profiles were routed before.
        let g = try GraphCache.graph(
            source: map.source, map: URL(fileURLWithPath: graph), profiles: set ?? .builtIn, preparing: named(),
            directory: GraphCache.directory()
        ).graph
        var slowdown: [Double]?
        if let congestion {
            slowdown = try parseCongestion(
                try readFileBytes(URL(fileURLWithPath: congestion), displayName: congestion), file: congestion, graph: g
            )
        }
        return Prepared(graph: g, slowdown: slowdown, map: map)
    }

    /// The profile names of the queries file at `path`, read ahead in bounded memory; nil when they
    /// cannot be read ahead (not a regular file, such as standard input, or a file the routing pass
    /// will refuse with its own located error).
    static func profileNames(inQueries path: String) -> Set<String>? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var names = Set<String>()
        do {
            try CSVChunkReader(fileName: path).forEachTable(path: path) { table in
                guard let column = table.header.position(of: "profile") else { throw CancellationError() }
                for record in table.records where column < record.fields.count {
                    names.insert(record.fields[column].trimmedOfWhitespace)
                }
            }
        } catch {
            return nil
        }
        return names
    }
}

extension RouteBatch {
    /// `fieldtest route`: `run(graph:queries:congestion:profiles:printProfiles:output:)` as a command.
    public struct Job: CommandJob {
        /// The map, the queries, the congestion CSV and the profiles YAML.
        public var graph, queries, congestion, profiles: String?
        /// Whether the built-in profiles are printed instead.
        public var printProfiles: Bool
        /// The output CSV, nil or `-` for standard output.
        public var output: String?

        /// A job.
        public init(
            graph: String?, queries: String?, congestion: String?, profiles: String?, printProfiles: Bool,
            output: String?
        ) {
            (self.graph, self.queries, self.congestion, self.profiles) = (graph, queries, congestion, profiles)
            (self.printProfiles, self.output) = (printProfiles, output)
        }

        public var files: CommandFiles {
            var f = CommandFiles()
            f.input(graph, option: "--graph")
            f.input(queries, option: "--queries")
            f.input(congestion, option: "--congestion")
            f.input(profiles, option: "--profiles")
            f.output(output, option: "--output")
            return f
        }

        public func run() throws -> CommandJobOutcome {
            try RouteBatch.run(
                graph: graph, queries: queries, congestion: congestion, profiles: profiles,
                printProfiles: printProfiles, output: output)
            return .success
        }
    }
}
