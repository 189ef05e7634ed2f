import FieldtestData

/// Outcome of a route query.
public enum RouteStatus: String, Sendable, Equatable {
    /// A route was found.
    case ok
    /// Both ends snapped but no path connects them under the profile.
    case noRoute = "no_route"
    /// An end has no usable vertex within the snapping radius.
    case noSnap = "no_snap"
}

/// One edge of a route and the direction it is walked in.
public struct RouteStep: Sendable, Equatable {
    /// Edge index in the graph.
    public var edge: Int32
    /// True when walked from the edge's `from` to its `to`.
    public var forward: Bool
}

/// A route: its status, edges, every point passed and its length and duration.
public struct Route: Sendable, Equatable {
    /// Whether a route exists.
    public var status: RouteStatus
    /// Profile name.
    public var profile: String
    /// Snapped start and end vertices (nil when not snapped).
    public var fromVertex: Int32?
    /// Snapped end vertex.
    public var toVertex: Int32?
    /// Edges in walking order.
    public var steps: [RouteStep]
    /// OSM ids of every node passed, shape nodes included (empty for GeoJSON graphs).
    public var nodeIDs: [Int64]
    /// Every point passed, in order.
    public var points: [GeoPoint]
    /// Haversine length along `points`, in metres.
    public var lengthMetres: Double
    /// Travel time in seconds at the profile's speed slowed by the congestion used for routing.
    public var durationSeconds: Double

    /// A route with no path.
    public static func failed(_ status: RouteStatus, profile: String, from: Int32? = nil, to: Int32? = nil) -> Route {
        Route(status: status, profile: profile, fromVertex: from, toVertex: to, steps: [], nodeIDs: [], points: [],
              lengthMetres: 0, durationSeconds: 0)
    }
}
