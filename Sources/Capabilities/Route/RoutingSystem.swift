import CampusRouting
import FieldtestData

/// One `route` query (`fieldtest route`'s input columns); coordinates in degrees.
public struct RouteQuery: Sendable, Equatable {
    /// Caller's id.
    public var id: String
    /// Start.
    public var from: GeoPoint
    /// End.
    public var to: GeoPoint
    /// Profile name (`walk`, `wheelchair`, …).
    public var profile: String

    /// A query.
    public init(id: String, from: GeoPoint, to: GeoPoint, profile: String) {
        self.id = id
        self.from = from
        self.to = to
        self.profile = profile
    }

    var fields: [(String, JSONField)] {
        [
            ("id", .string(id)), ("from_lat", .number(from.latitude)), ("from_lon", .number(from.longitude)),
            ("to_lat", .number(to.latitude)), ("to_lon", .number(to.longitude)), ("profile", .string(profile)),
        ]
    }
}

/// A route answer (`fieldtest route`'s output columns; `node_ids` and `path` as arrays).
public struct RouteAnswer: Sendable, Equatable, Decodable {
    /// `ok`, `no_route` or `no_snap`.
    public var status: String
    /// Length along the path, metres (0 unless `ok`).
    public var lengthMetres: Double
    /// Travel time, seconds (0 unless `ok`).
    public var durationSeconds: Double
    /// OSM node ids passed.
    public var nodeIDs: [Int64]
    /// The points walked, degrees.
    public var path: [GeoPoint]

    /// An answer.
    public init(status: String, lengthMetres: Double, durationSeconds: Double, nodeIDs: [Int64], path: [GeoPoint]) {
        self.status = status
        self.lengthMetres = lengthMetres
        self.durationSeconds = durationSeconds
        self.nodeIDs = nodeIDs
        self.path = path
    }

    /// The built-in router's route.
    public init(_ r: Route) {
        self.init(
            status: r.status.rawValue, lengthMetres: r.status == .ok ? r.lengthMetres : 0,
            durationSeconds: r.status == .ok ? r.durationSeconds : 0, nodeIDs: r.status == .ok ? r.nodeIDs : [],
            path: r.status == .ok ? r.points : [])
    }

    enum CodingKeys: String, CodingKey {
        case status, lengthMetres = "length_m", durationSeconds = "duration_s", nodeIDs = "node_ids", path
    }

    /// Decodes `{"status":"ok","length_m":…,"duration_s":…,"node_ids":[…],"path":[[lat,lon],…]}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decode(String.self, forKey: .status)
        guard ["ok", "no_route", "no_snap"].contains(status) else {
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: c, debugDescription: "status must be ok, no_route or no_snap")
        }
        lengthMetres = try c.decodeIfPresent(Double.self, forKey: .lengthMetres) ?? 0
        durationSeconds = try c.decodeIfPresent(Double.self, forKey: .durationSeconds) ?? 0
        guard lengthMetres.isFinite, lengthMetres >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .lengthMetres, in: c, debugDescription: "length_m must be a finite number ≥ 0")
        }
        guard durationSeconds.isFinite, durationSeconds >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .durationSeconds, in: c, debugDescription: "duration_s must be a finite number ≥ 0")
        }
        nodeIDs = try c.decodeIfPresent([Int64].self, forKey: .nodeIDs) ?? []
        let pairs = try c.decodeIfPresent([[Double]].self, forKey: .path) ?? []
        guard pairs.allSatisfy({ $0.count == 2 && abs($0[0]) <= 90 && abs($0[1]) <= 180 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .path, in: c, debugDescription: "path: [lat, lon] pairs, degrees within ±90 and ±180")
        }
        path = pairs.map { GeoPoint(latitude: $0[0], longitude: $0[1]) }
    }

    /// The answer fields.
    public var fields: [(String, JSONField)] {
        [
            ("status", .string(status)), ("length_m", .number(lengthMetres)), ("duration_s", .number(durationSeconds)),
            ("node_ids", .array(nodeIDs.map { .int(Int($0)) })),
            ("path", .array(path.map { .array([.number($0.latitude), .number($0.longitude)]) })),
        ]
    }
}

/// Campus routing, as an app needs it: one answer per query, in order (nil where the system
/// gave none). The built-in implementation is `BuiltinRouter` (A* over the campus graph).
public protocol RoutingSystem: Sendable {
    /// Routes each query.
    func route(_ queries: [RouteQuery]) -> [RouteAnswer?]
}

/// The built-in router over a campus graph: each end snapped to the nearest usable edge
/// (200 m at most), A* between the projections; an unknown profile is no answer.
public struct BuiltinRouter: RoutingSystem {
    /// The graph routed over.
    public let graph: CampusGraph

    /// A router over `graph`.
    public init(graph: CampusGraph) { self.graph = graph }

    public func route(_ queries: [RouteQuery]) -> [RouteAnswer?] {
        var router = AStarRouter()
        return queries.map { q in
            guard let p = try? graph.profileIndex(named: q.profile) else { return nil }
            return RouteAnswer(
                router.route(in: graph, from: q.from, to: q.to, profile: p, slowdown: nil, snapMetres: 200))
        }
    }
}

/// An external routing system (`route` requests; the map arrives in a `load` message).
public final class ExternalRoutingSystem: RoutingSystem, @unchecked Sendable {
    /// The process and its fault counts.
    public let system: ExternalSystem

    /// Wraps a started `route` system.
    public init(_ system: ExternalSystem) { self.system = system }

    public func route(_ queries: [RouteQuery]) -> [RouteAnswer?] {
        system.call(queries.map(\.fields), as: RouteAnswer.self)
    }
}
