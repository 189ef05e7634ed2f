import FieldtestData
import Foundation

/// A crowd-sourced location ping from a phone.
public struct CrowdPing: Sendable, Equatable {
    /// Pseudonymous device id.
    public var device: String
    /// Time in seconds (UTC, any fixed epoch shared with the queries).
    public var time: Double
    /// Reported position in degrees.
    public var location: GeoPoint
    /// Reported horizontal accuracy in metres (1-σ radius).
    public var accuracyMetres: Double

    /// Creates a ping.
    public init(device: String, time: Double, location: GeoPoint, accuracyMetres: Double) {
        self.device = device
        self.time = time
        self.location = location
        self.accuracyMetres = accuracyMetres
    }
}

/// Per-edge pedestrian density from crowd pings over a sliding time window.
///
/// Method: within the window `(t − window, t]` keep each device's latest ping; map-match it to the
/// nearest edge within `max(minMatchMetres, min(accuracy, maxMatchMetres))`; density of an edge is the
/// number of devices matched to it divided by its walkable area, `max(length, minLengthMetres) × width`,
/// where width is the `width` tag in metres or a default per `highway` (`defaultWidthMetres`).
/// Complexity: O(P log P + P × edges near a ping) per window.
public struct CrowdDensityEstimator: Sendable {
    /// The graph pings are matched to.
    public let graph: CampusGraph
    /// Smallest matching radius in metres.
    public var minMatchMetres = 15.0
    /// Largest matching radius in metres (pings with worse accuracy use this).
    public var maxMatchMetres = 40.0
    /// Edge lengths below this (metres) count as this long, so tiny edges do not explode densities.
    public var minLengthMetres = 10.0
    /// Walkable width in metres by `highway` value when the way has no `width` tag.
    public var defaultWidthMetres: [String: Double] = [
        "footway": 2.5, "path": 1.5, "steps": 2.5, "pedestrian": 8, "corridor": 3, "cycleway": 2.5,
        "living_street": 5, "service": 4, "residential": 4, "track": 3,
    ]
    /// Width for highways not in `defaultWidthMetres`, in metres.
    public var otherWidthMetres = 3.0

    /// Creates an estimator over `graph`.
    public init(graph: CampusGraph) { self.graph = graph }

    /// Walkable area of edge `e` in square metres.
    public func areaSquareMetres(edge e: Int) -> Double {
        let edge = graph.edges[e]
        let width =
            edge.tags["width"].flatMap { Double($0.replacingOccurrences(of: " m", with: "")) }
            ?? defaultWidthMetres[edge.tags["highway"] ?? ""] ?? otherWidthMetres
        return max(edge.lengthMetres, minLengthMetres) * max(0.5, width)
    }

    /// The edge each device was last seen on during `(time − windowSeconds, time]`.
    public func matchedDevices(pings: [CrowdPing], at time: Double, windowSeconds: Double) -> [String: Int32] {
        var latest: [String: CrowdPing] = [:]
        for p in pings where p.time > time - windowSeconds && p.time <= time {
            if let q = latest[p.device],
                q.time > p.time || (q.time == p.time && q.location.latitude >= p.location.latitude)
            {
                continue
            }
            latest[p.device] = p
        }
        var out: [String: Int32] = [:]
        for (device, p) in latest {
            let radius = max(minMatchMetres, min(p.accuracyMetres, maxMatchMetres))
            if let e = graph.nearestEdge(to: p.location, maxMetres: radius) { out[device] = e.edge }
        }
        return out
    }

    /// Density in persons per m² on every edge for the window ending at `time`.
    public func densities(pings: [CrowdPing], at time: Double, windowSeconds: Double) -> [Double] {
        var counts = [Int](repeating: 0, count: graph.edges.count)
        for (_, e) in matchedDevices(pings: pings, at: time, windowSeconds: windowSeconds) { counts[Int(e)] += 1 }
        return counts.enumerated().map { e, c in c == 0 ? 0 : Double(c) / areaSquareMetres(edge: e) }
    }

    /// A snapshot of the window ending at `time`, stamped with that time.
    public func snapshot(pings: [CrowdPing], at time: Double, windowSeconds: Double) -> CongestionSnapshot {
        CongestionSnapshot(takenAt: time, densities: densities(pings: pings, at: time, windowSeconds: windowSeconds))
    }
}

/// Per-edge densities at a moment; what a phone caches for offline routing.
public struct CongestionSnapshot: Sendable, Equatable {
    /// When the densities were computed, in seconds.
    public var takenAt: Double
    /// Persons per m², one per graph edge.
    public var densities: [Double]

    /// Creates a snapshot.
    public init(takenAt: Double, densities: [Double]) {
        self.takenAt = takenAt
        self.densities = densities
    }

    /// Age in seconds at `now`.
    public func ageSeconds(at now: Double) -> Double { now - takenAt }

    /// Per-edge travel-time multipliers (Weidmann).
    public var slowdowns: [Double] { WeidmannSpeed.slowdowns(densities: densities) }
}

/// The congestion a phone routes with: fresh from the server when online, else its cached snapshot (NAV-F4).
public struct CongestionCache: Sendable, Equatable {
    /// The last snapshot received, if any.
    public private(set) var cached: CongestionSnapshot?

    /// Creates an empty cache.
    public init() {}

    /// What routing should use and how old it is.
    public struct Choice: Sendable, Equatable {
        /// The snapshot used (nil: none, route at free speed).
        public var snapshot: CongestionSnapshot?
        /// True when the cached snapshot was used because the device is offline.
        public var fromCache: Bool
        /// Age of the snapshot in seconds (0 when fresh or none).
        public var ageSeconds: Double
    }

    /// When `online`, takes `fresh` (and caches it); offline, returns the cached snapshot with its age.
    public mutating func congestion(now: Double, online: Bool, fresh: @autoclosure () -> CongestionSnapshot) -> Choice {
        if online {
            let s = fresh()
            cached = s
            return Choice(snapshot: s, fromCache: false, ageSeconds: s.ageSeconds(at: now))
        }
        guard let c = cached else { return Choice(snapshot: nil, fromCache: true, ageSeconds: 0) }
        return Choice(snapshot: c, fromCache: true, ageSeconds: c.ageSeconds(at: now))
    }
}

/// Route regret under the true congestion: duration of the chosen route divided by the best possible
/// duration, minus one (0 = optimal). O(route length) plus one A* search for the optimum.
public enum RouteRegret {
    /// Duration in seconds of `route` under `slowdown` (one multiplier per edge), partial edges included.
    public static func duration(of route: Route, in graph: CampusGraph, profile p: Int, slowdown: [Double]) -> Double {
        let speed = graph.profiles[p].speedMetresPerSecond
        let whole = route.steps.reduce(0) {
            $0 + graph.edges[Int($1.edge)].lengthMetres * slowdown[Int($1.edge)] / speed
        }
        let parts = [route.head, route.tail].compactMap { $0 }.reduce(0) {
            $0 + $1.lengthMetres * slowdown[Int($1.edge)] / speed
        }
        return whole + parts
    }

    /// Regret of `chosen` against the optimum between the same ends (its projected points, or its
    /// vertices for a vertex-to-vertex route) under `trueSlowdown`; nil when `chosen` is not an ok route.
    public static func regret(
        of chosen: Route, in graph: CampusGraph, profile p: Int, trueSlowdown: [Double],
        router: inout AStarRouter
    ) -> Double? {
        guard chosen.status == .ok else { return nil }
        let best: Route
        if let s = chosen.fromSnap, let t = chosen.toSnap {
            best = router.route(in: graph, fromSnap: s, toSnap: t, profile: p, slowdown: trueSlowdown)
        } else if let s = chosen.fromVertex, let t = chosen.toVertex {
            best = router.route(in: graph, fromVertex: s, toVertex: t, profile: p, slowdown: trueSlowdown)
        } else {
            return nil
        }
        let actual = duration(of: chosen, in: graph, profile: p, slowdown: trueSlowdown)
        guard best.status == .ok, best.durationSeconds > 0 else { return 0 }
        return max(0, actual / best.durationSeconds - 1)
    }
}
