import CampusRouting
import FieldtestData
import Foundation

/// The `fieldtest route` batch: queries CSV in, routes CSV out.
///
/// Queries: `id,from_lat,from_lon,to_lat,to_lon,profile` (degrees). Each end is projected onto the
/// nearest usable edge of the profile (`CampusGraph.snapToEdge`) and the route runs between the
/// projected points. Output columns, in order:
/// `id,status,length_m,duration_s,node_ids,path,from_snap_m,to_snap_m` — `node_ids` every OSM node
/// passed (shape nodes included) from the first at or after the projected start to the last at or
/// before the projected end, separated by `;` (empty for GeoJSON maps), `path` the points walked as
/// `lat lon` pairs separated by `;` from the projected start to the projected end, `length_m` the
/// length along the path in metres, `duration_s` the travel time at the profile speed slowed by
/// congestion, `from_snap_m`/`to_snap_m` the metres from each query point to its projection.
/// Failed queries have empty numbers and paths; a snap distance is given whenever that end snapped.
public enum RouteBatch {
    /// One query row.
    public struct Query: Sendable, Equatable {
        /// Caller's id, echoed in the output.
        public var id: String
        /// Start in degrees.
        public var from: GeoPoint
        /// End in degrees.
        public var to: GeoPoint
        /// Profile name.
        public var profile: String
        /// 1-based line in the queries file.
        public var line: Int
    }

    /// Output header.
    public static let header = [
        "id", "status", "length_m", "duration_s", "node_ids", "path", "from_snap_m", "to_snap_m",
    ]

    /// Parses a queries CSV. Every coordinate is validated; errors are located.
    public static func parseQueries(_ bytes: [UInt8], file: String) throws(RoutingError) -> [Query] {
        let table: CSVTable
        do throws(DataError) { table = try CSVTable(bytes: bytes, file: file) } catch { throw .data(error) }
        return try parseQueries(table)
    }

    /// Parses the queries of a table (or of one run of a streamed file), as `parseQueries(_:file:)`.
    public static func parseQueries(_ table: CSVTable) throws(RoutingError) -> [Query] {
        do throws(DataError) {
            try table.require(["id", "from_lat", "from_lon", "to_lat", "to_lon", "profile"])
            return try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> Query? in
                let profile = try row.string("profile").trimmedOfWhitespace
                guard !profile.isEmpty else { throw row.invalid("profile", "value is missing; use walk or wheelchair") }
                return Query(
                    id: try row.string("id"),
                    from: GeoPoint(latitude: try row.latitude("from_lat"), longitude: try row.longitude("from_lon")),
                    to: GeoPoint(latitude: try row.latitude("to_lat"), longitude: try row.longitude("to_lon")),
                    profile: profile, line: row.line)
            }.records
        } catch {
            throw .data(error)
        }
    }

    /// Parses a congestion CSV `latitude,longitude,density_per_m2` into per-edge slowdowns: each row
    /// sets the density of the edge nearest to its point (within `matchMetres`), the largest density
    /// winning; rows farther than that from every edge are ignored. Density is persons per m², 0…5.4.
    public static func parseCongestion(
        _ bytes: [UInt8], file: String, graph: CampusGraph,
        matchMetres: Double = 30
    ) throws(RoutingError) -> [Double] {
        var density = [Double](repeating: 0, count: graph.edges.count)
        do throws(DataError) {
            let table = try CSVTable(bytes: bytes, file: file)
            try table.require(["latitude", "longitude", "density_per_m2"])
            _ = try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> Int? in
                let p = GeoPoint(latitude: try row.latitude(), longitude: try row.longitude())
                let d = try row.double("density_per_m2", in: 0...WeidmannSpeed.jamDensity)
                if let e = graph.nearestEdge(to: p, maxMetres: matchMetres) {
                    density[Int(e.edge)] = max(density[Int(e.edge)], d)
                }
                return nil
            }
        } catch {
            throw .data(error)
        }
        return WeidmannSpeed.slowdowns(densities: density)
    }

    /// Routes every query (profiles are checked first, so an unknown profile fails the whole batch
    /// with its line), on up to `jobs` threads, each routing a contiguous slice of the queries (the
    /// same routes in the same order for any `jobs`). O(queries × search).
    public static func run(
        graph: CampusGraph, queries: [Query], queriesFile: String = "queries", slowdown: [Double]? = nil,
        snapMetres: Double = 200, jobs: Int = 1
    ) throws(RoutingError) -> [Route] {
        try slices(
            graph: graph, queries: queries, queriesFile: queriesFile, slowdown: slowdown, snapMetres: snapMetres,
            jobs: jobs
        ) { range, route in range.map(route) }.flatMap { $0 }
    }

    /// The output rows (no header) of routing every query as `run` does, each slice of queries routed
    /// and rendered on its own thread: the same bytes as `rows(queries:routes:)` of `run`'s routes,
    /// without holding every route at once.
    public static func routedRows(
        graph: CampusGraph, queries: [Query], queriesFile: String = "queries", slowdown: [Double]? = nil,
        snapMetres: Double = 200, jobs: Int = 1
    ) throws(RoutingError) -> CSVWriter {
        let parts = try routedParts(
            graph: graph, queries: queries, queriesFile: queriesFile, slowdown: slowdown, snapMetres: snapMetres,
            jobs: jobs)
        var w = CSVWriter(capacity: parts.reduce(0) { $0 + $1.bytes.count })
        for part in parts { w.append(records: part) }
        return w
    }

    /// `routedRows` as the rows of each slice, in order, unjoined (written out one after another).
    public static func routedParts(
        graph: CampusGraph, queries: [Query], queriesFile: String = "queries", slowdown: [Double]? = nil,
        snapMetres: Double = 200, jobs: Int = 1
    ) throws(RoutingError) -> [CSVWriter] {
        try slices(
            graph: graph, queries: queries, queriesFile: queriesFile, slowdown: slowdown, snapMetres: snapMetres,
            jobs: jobs
        ) { range, route in rows(queries: queries[range], routes: range.map(route)) }
    }

    /// `routedParts` with each slice's rows handed to `emit` in order as soon as they and the slices
    /// before them are rendered, while later slices are still being routed, so the output is written
    /// beside the routing. `emit` is called one slice at a time, from any of the threads.
    public static func routedParts(
        graph: CampusGraph, queries: [Query], queriesFile: String = "queries", slowdown: [Double]? = nil,
        snapMetres: Double = 200, jobs: Int = 1, emit: @Sendable (CSVWriter) throws -> Void
    ) throws {
        let slice = try sliceRouter(
            graph: graph, queries: queries, queriesFile: queriesFile, slowdown: slowdown, snapMetres: snapMetres
        ) { range, route in rows(queries: queries[range], routes: range.map(route)) }
        try ParallelSlices.forEachInOrder(
            count: queries.count, jobs: sliceJobs(jobs), minimumPerSlice: minimumPerSlice, slice, emit: emit)
    }

    /// `body` applied to contiguous slices of the queries on up to `jobs` threads (in slice order),
    /// with a function that routes query i; every query's profile is checked first, so an unknown profile
    /// fails the whole batch with its line.
    private static func slices<Result: Sendable>(
        graph: CampusGraph, queries: [Query], queriesFile: String, slowdown: [Double]?, snapMetres: Double, jobs: Int,
        _ body: @escaping @Sendable (Range<Int>, (Int) -> Route) -> Result
    ) throws(RoutingError) -> [Result] {
        let slice = try sliceRouter(
            graph: graph, queries: queries, queriesFile: queriesFile, slowdown: slowdown, snapMetres: snapMetres, body)
        return ParallelSlices.map(
            count: queries.count, jobs: sliceJobs(jobs), minimumPerSlice: minimumPerSlice, slice)
    }

    /// A slice costs a router's workspace: worth it from a hundred queries or so.
    private static let minimumPerSlice = 128

    /// With several threads, four slices per thread, taken in turn, so that a slice of long routes
    /// does not keep the other threads waiting.
    private static func sliceJobs(_ jobs: Int) -> Int { jobs > 1 ? 4 * jobs : 1 }

    /// Checks every query's profile (an unknown one fails the batch with its line) and returns what
    /// a slice of the queries gives: `body` of the range with a function that routes query i (on
    /// the slice's own router).
    private static func sliceRouter<Result: Sendable>(
        graph: CampusGraph, queries: [Query], queriesFile: String, slowdown: [Double]?, snapMetres: Double,
        _ body: @escaping @Sendable (Range<Int>, (Int) -> Route) -> Result
    ) throws(RoutingError) -> @Sendable (Range<Int>) -> Result {
        var indices: [Int] = []
        for q in queries {
            do throws(RoutingError) {
                indices.append(try graph.profileIndex(named: q.profile))
            } catch {
                throw .data(
                    .invalidField(
                        file: queriesFile, line: q.line, field: "profile", value: q.profile,
                        reason: "unknown profile; known: \(graph.profiles.map(\.name).joined(separator: ", "))"))
            }
        }
        let profileOf = indices
        return { range in
            var router = AStarRouter()
            return body(range) { i in
                router.route(
                    in: graph, from: queries[i].from, to: queries[i].to, profile: profileOf[i], slowdown: slowdown,
                    snapMetres: snapMetres)
            }
        }
    }

    /// Renders the output CSV.
    public static func csv(queries: [Query], routes: [Route]) -> String {
        var w = CSVWriter()
        w.row(header)
        w.append(records: rows(queries: queries, routes: routes))
        return w.text
    }

    /// The output rows (no header).
    public static func rows(queries: some Collection<Query>, routes: [Route]) -> CSVWriter {
        // Room for every row at once (ids up to 20 bytes and a separator, a point's pair up to 50),
        // so the rows are never copied to a larger buffer as they grow.
        var w = CSVWriter(
            capacity: zip(queries, routes).reduce(0) {
                $0 + $1.0.id.utf8.count + 21 * $1.1.nodeIDs.count + 51 * $1.1.points.count + 96
            })
        for (q, r) in zip(queries, routes) {
            let snaps = [r.fromSnap, r.toSnap].map {
                $0.map { CSVWriter.number($0.metres, significantDigits: 12) } ?? ""
            }
            guard r.status == .ok else {
                w.row([q.id, r.status.rawValue, "", "", "", ""] + snaps)
                continue
            }
            w.field(q.id)
            w.field(r.status.rawValue)
            w.field(CSVWriter.number(r.lengthMetres, significantDigits: 12))
            w.field(CSVWriter.number(r.durationSeconds, significantDigits: 12))
            // Node ids and `lat lon` pairs never need quoting.
            w.field(unquotedBytes: { $0 += r.nodeIDs.map { String($0) }.joined(separator: ";").utf8 })
            w.field(unquotedBytes: {
                $0 += r.points.map { "\($0.latitude) \($0.longitude)" }.joined(separator: ";").utf8
            })
            for snap in snaps { w.field(snap) }
            w.endRecord()
        }
        return w
    }
}
