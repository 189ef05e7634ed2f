import FieldtestData

/// Outcome of a route query.
public enum RouteStatus: String, Sendable, Equatable {
    /// A route was found.
    case ok
    /// Both ends snapped but no path connects them under the profile.
    case noRoute = "no_route"
    /// An end has no usable edge within the snapping radius.
    case noSnap = "no_snap"
}

/// One edge of a route and the direction it is walked in.
public struct RouteStep: Sendable, Equatable {
    /// Edge index in the graph.
    public var edge: Int32
    /// True when walked from the edge's `from` to its `to`.
    public var forward: Bool

    /// Creates a step.
    public init(edge: Int32, forward: Bool) {
        self.edge = edge
        self.forward = forward
    }
}

/// Part of an edge walked from or to a projected route end (a virtual split of the edge for one query).
public struct PartialStep: Sendable, Equatable {
    /// Edge index in the graph.
    public var edge: Int32
    /// True when walked in the edge's `from` → `to` direction.
    public var forward: Bool
    /// Metres walked along the edge's shape.
    public var lengthMetres: Double

    /// Creates a partial step.
    public init(edge: Int32, forward: Bool, lengthMetres: Double) {
        self.edge = edge
        self.forward = forward
        self.lengthMetres = lengthMetres
    }
}

/// A route: its status, edges, every point passed and its length and duration.
///
/// A route between query points starts at the start's projection onto its edge (`fromSnap`), walks
/// part of that edge (`head`) to the first vertex `fromVertex`, then whole edges (`steps`) to the last
/// vertex `toVertex`, then part of the end's edge (`tail`) to the end's projection (`toSnap`). A
/// projection onto `fromVertex` (or `toVertex`) itself has no head (or tail). When both ends lie on one
/// edge and walking along it is cheapest, `head` is that piece and there is no vertex, step or tail.
/// A route between two vertices has no snaps, head or tail.
public struct Route: Sendable, Equatable {
    /// Whether a route exists.
    public var status: RouteStatus
    /// Profile name.
    public var profile: String
    /// First graph vertex passed (nil when the route stays on one edge or an end did not snap).
    public var fromVertex: Int32?
    /// Last graph vertex passed.
    public var toVertex: Int32?
    /// Edges in walking order.
    public var steps: [RouteStep]
    /// OSM ids of every node passed, shape nodes included (empty for GeoJSON graphs): from the first
    /// node at or after the projected start to the last node at or before the projected end.
    public var nodeIDs: [Int64]
    /// Every point passed, in order, from the projected start to the projected end.
    public var points: [GeoPoint]
    /// Length in metres: partial edges (haversine through their shape nodes) plus whole edges.
    public var lengthMetres: Double
    /// Travel time in seconds at the profile's speed slowed by the congestion used for routing.
    public var durationSeconds: Double
    /// Where the start was projected onto the network (nil for vertex-to-vertex routes or no snap).
    public var fromSnap: EdgeSnap?
    /// Where the end was projected onto the network.
    public var toSnap: EdgeSnap?
    /// The part of the start's edge walked to `fromVertex` (or to the end, when both ends share an edge).
    public var head: PartialStep?
    /// The part of the end's edge walked from `toVertex`.
    public var tail: PartialStep?

    /// Creates a route.
    public init(
        status: RouteStatus, profile: String, fromVertex: Int32?, toVertex: Int32?, steps: [RouteStep],
        nodeIDs: [Int64], points: [GeoPoint], lengthMetres: Double, durationSeconds: Double,
        fromSnap: EdgeSnap? = nil, toSnap: EdgeSnap? = nil, head: PartialStep? = nil, tail: PartialStep? = nil
    ) {
        self.status = status
        self.profile = profile
        self.fromVertex = fromVertex
        self.toVertex = toVertex
        self.steps = steps
        self.nodeIDs = nodeIDs
        self.points = points
        self.lengthMetres = lengthMetres
        self.durationSeconds = durationSeconds
        self.fromSnap = fromSnap
        self.toSnap = toSnap
        self.head = head
        self.tail = tail
    }

    /// Every edge used, whole or in part, in walking order (head, steps, tail).
    public var walkedEdges: [RouteStep] {
        (head.map { [RouteStep(edge: $0.edge, forward: $0.forward)] } ?? []) + steps
            + (tail.map { [RouteStep(edge: $0.edge, forward: $0.forward)] } ?? [])
    }

    /// A route with no path.
    public static func failed(
        _ status: RouteStatus, profile: String, from: Int32? = nil, to: Int32? = nil,
        fromSnap: EdgeSnap? = nil, toSnap: EdgeSnap? = nil
    ) -> Route {
        Route(
            status: status, profile: profile, fromVertex: from, toVertex: to, steps: [], nodeIDs: [], points: [],
            lengthMetres: 0, durationSeconds: 0, fromSnap: fromSnap, toSnap: toSnap)
    }
}
