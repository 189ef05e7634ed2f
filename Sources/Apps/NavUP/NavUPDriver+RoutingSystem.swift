import CampusRouting
import Capabilities
import FieldtestData
import Foundation
import ScenarioEngine

/// The app's route queries through the routing system under test (`RoutingSystem`): the built-in
/// `BuiltinRouter` over the campus graph, or the external `route` system the scenario or `--system`
/// names, handed the campus map (`osm-xml` or `osm-pbf`) in its `load` message.
///
/// The protocol carries plain queries (two points and a profile). The built-in router still answers
/// what it cannot express: routes weighted by the congestion the phone holds (NAV-F4's per-edge
/// slowdowns), evacuations to the nearest of many exits (`EmergencyRouting`, NAV-F9/F18), and what the
/// harness computes as ground truth (the crowd's walks, the optimum a route's regret is measured
/// against, contested pairs).
extension NavUPDriver {
    /// Starts the routing system for the campus in `url`.
    func startRouting(campus: NavUPCampus, url: URL, _ run: RunContext) throws {
        externalRouting = try SystemSelection.start(
            .route, run: run, setup: [SetupDataset(path: url.path, format: MapFile.osmFormat(of: url).rawValue)])
        routing = externalRouting.map { ExternalRoutingSystem($0) } ?? BuiltinRouter(graph: campus.graph)
        for (i, v) in campus.graph.vertices.enumerated() {
            if let id = v.osmID { vertexByOSMID[id] = Int32(i) }
        }
    }

    /// The route the routing system answers from `from` to `to` for profile `p`, rebuilt on the campus
    /// graph (`rebuilt`) so that the checks judge the system's answer. End to end: for an external
    /// system this includes the round trip to its process.
    func systemRoute(from: GeoPoint, to: GeoPoint, profile p: Int) -> Route {
        guard let campus, let routing else { return .failed(.noRoute, profile: "") }
        routeQueries += 1
        let query = RouteQuery(id: "r\(routeQueries)", from: from, to: to, profile: campus.graph.profiles[p].name)
        return rebuilt(routing.route([query])[0], from: from, to: to, profile: p)
    }

    /// The campus-graph route an answer describes: its ends projected as the built-in router projects
    /// them (within 200 m), its graph vertices in `node_ids` order, and between two consecutive vertices
    /// the shortest edge profile `p` may walk that way. Its points, length and duration are the answer's.
    /// An answer with no status `ok` (or none: the fault is counted in `system_errors`) is that failure;
    /// an `ok` answer whose nodes do not make such a walk keeps no vertex, step or partial edge, so
    /// `follows` rejects it (whether it walks the paths at all is `onPaths`: `PathAudit` on its nodes).
    /// O(answer nodes × vertex degree).
    func rebuilt(_ answer: RouteAnswer?, from: GeoPoint, to: GeoPoint, profile p: Int) -> Route {
        guard let campus else { return .failed(.noRoute, profile: "") }
        let g = campus.graph
        let name = g.profiles[p].name
        let s = g.snapToEdge(from, profile: p)
        let t = g.snapToEdge(to, profile: p)
        guard let answer, answer.status == RouteStatus.ok.rawValue else {
            return .failed(
                answer?.status == RouteStatus.noSnap.rawValue ? .noSnap : .noRoute, profile: name, fromSnap: s,
                toSnap: t)
        }
        var route = Route(
            status: .ok, profile: name, fromVertex: nil, toVertex: nil, steps: [], nodeIDs: answer.nodeIDs,
            points: answer.path, lengthMetres: answer.lengthMetres, durationSeconds: answer.durationSeconds,
            fromSnap: s, toSnap: t)
        guard let s, let t else { return route }
        var vertices: [Int32] = []
        for id in answer.nodeIDs {
            if let v = vertexByOSMID[id], vertices.last != v { vertices.append(v) }
        }
        // Both ends on one edge and at most one of its ends passed (the one both stand on): the walk along it.
        if s.edge == t.edge, vertices.count <= 1 {
            route.head = PartialStep(
                edge: s.edge, forward: t.position >= s.position,
                lengthMetres: g.alongMetres(edge: Int(s.edge), from: s.position, to: t.position))
            return route
        }
        guard let first = vertices.first, let last = vertices.last else { return route }
        let arcs = arcs(p)
        var steps: [RouteStep] = []
        for (u, v) in zip(vertices, vertices.dropFirst()) {
            let joining = arcs[Int(u)].filter { $0.to == v }
            guard let e = joining.min(by: { g.edges[Int($0.edge)].lengthMetres < g.edges[Int($1.edge)].lengthMetres })
            else { return route }
            steps.append(RouteStep(edge: e.edge, forward: g.edges[Int(e.edge)].from == u))
        }
        guard case .some(let head) = Self.partial(of: s, at: first, leaving: true, in: g),
            case .some(let tail) = Self.partial(of: t, at: last, leaving: false, in: g)
        else { return route }
        route.fromVertex = first
        route.toVertex = last
        route.steps = steps
        route.head = head
        route.tail = tail
        return route
    }

    /// The part of `snap`'s edge walked between the projected point and its end `vertex` (`leaving`: from
    /// the point to the vertex; else from the vertex to the point): `.some(nil)` when the point is on the
    /// vertex (nothing walked); nil when the vertex is not an end of the edge (no such walk).
    static func partial(of snap: EdgeSnap, at vertex: Int32, leaving: Bool, in g: CampusGraph) -> PartialStep?? {
        let e = g.edges[Int(snap.edge)]
        if vertex == e.to {
            if snap.position == Double(e.shape.count - 1) { return .some(nil) }
            return PartialStep(edge: snap.edge, forward: leaving, lengthMetres: snap.metresToEnd)
        }
        if vertex == e.from {
            if snap.position == 0 { return .some(nil) }
            return PartialStep(edge: snap.edge, forward: !leaving, lengthMetres: snap.metresFromStart)
        }
        return nil
    }
}
