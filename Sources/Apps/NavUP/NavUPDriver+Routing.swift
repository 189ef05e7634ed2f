import CampusRouting
import Capabilities
import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports
import ScenarioEngine

/// Routes with congestion, events along routes, accessibility audit, emergency routes
/// (NAV-F2, NAV-F4, NAV-F5, NAV-F9, NAV-F15, NAV-F18).
extension NavUPDriver {
    /// Distance from the route within which events and POIs are listed, metres.
    static let alongRouteMetres = 75.0

    /// The map the app keeps on the phone (NAV-F2): the campus's venues and the identity of its path
    /// graph, fetched cache-first under `navup-map-<campus>` (downloaded on first use while online and
    /// kept for `mapTimeToLiveSeconds`; the phone's SQLite cache survives reboots). Nil when the phone
    /// holds no map and cannot download one.
    struct PhoneMap: Codable, Equatable {
        var campus: String
        var graph: String
        var names: [String]
        var latitudes: [Double]
        var longitudes: [Double]
    }

    /// How long a downloaded campus map is kept, seconds (30 days).
    static let mapTimeToLiveSeconds = 30 * 86400.0

    /// Identity of the campus path graph, as the phone's map records it.
    var graphIdentity: String {
        guard let campus else { return "" }
        return "\(campusName):\(campus.graph.vertices.count):\(campus.graph.edges.count)"
    }

    func phoneMap(device name: String, at now: Double) throws -> PhoneMap? {
        guard let campus, let device = devices[name] else { return nil }
        // A request made while the map is still downloading uses it once it has arrived.
        let time = max(now, mapArrival[name] ?? now)
        let outcome = try device.fetch(
            key: "navup-map-\(campusName)", bytes: max(mapBytes, 1), timeToLiveSeconds: Self.mapTimeToLiveSeconds,
            at: time
        ) {
            let map = PhoneMap(
                campus: campusName, graph: graphIdentity, names: campus.venues.map(\.name),
                latitudes: campus.venues.map(\.location.latitude), longitudes: campus.venues.map(\.location.longitude))
            return (try? JSONEncoder().encode(map)) ?? Data()
        }
        if outcome.source == .network { mapArrival[name] = time + outcome.networkSeconds }
        guard let data = outcome.payload, let map = try? JSONDecoder().decode(PhoneMap.self, from: data),
            map.campus == campusName, map.names.count == map.latitudes.count, map.names.count == map.longitudes.count
        else { return nil }
        return map
    }

    /// Two distinct seeded random venues.
    func randomPair(_ rng: RandomStream) -> (Int, Int) {
        guard let campus else { return (0, 1) }
        let a = rng.uniformInt(below: campus.venues.count)
        return (a, (a + 1 + rng.uniformInt(below: campus.venues.count - 1)) % campus.venues.count)
    }

    /// Most venue pairs tried for one contested request (all of them on a campus with fewer pairs).
    static let contestedTries = 2000

    /// Regret below this is rounding, not a slower route.
    static let regretTolerance = 1e-9

    /// NAV-F4: a request whose answer depends on congestion: a pair of venues whose congestion-free
    /// route is slower under the crowd's true positions at `now` than the best route then — the first
    /// such pair in pair order from a seeded start (or, with more than `contestedTries` pairs, among as
    /// many seeded random pairs); nil when none is (no crowd, or nobody walking where it matters). The
    /// harness knows the truth; the app does not, so the built-in router answers. O(min(venues², contestedTries) × A*).
    func contestedPair(profile name: String, rng: RandomStream, at now: Double) -> (Int, Int)? {
        guard let campus, let crowd, let estimator else { return nil }
        let p = name == "wheelchair" ? campus.wheelchair : campus.walk
        let truth = WeidmannSpeed.slowdowns(densities: crowd.trueDensities(at: now, estimator: estimator))
        let n = campus.venues.count
        let pairs = n * (n - 1)
        let first = rng.uniformInt(below: pairs)
        for k in 0..<min(pairs, Self.contestedTries) {
            let index = pairs <= Self.contestedTries ? (first + k) % pairs : rng.uniformInt(below: pairs)
            let a = index / (n - 1)
            let r = index % (n - 1)
            let b = r >= a ? r + 1 : r
            let free = router.route(
                in: campus.graph, from: campus.venues[a].location, to: campus.venues[b].location, profile: p)
            if let regret = RouteRegret.regret(
                of: free, in: campus.graph, profile: p, trueSlowdown: truth, router: &router),
                regret > Self.regretTolerance
            {
                return (a, b)
            }
        }
        return nil
    }

    /// One route request on `actor`'s phone at the current virtual time.
    func route(actor i: Int, from: GeoPoint, to: GeoPoint, profile name: String, _ run: RunContext) throws {
        guard let campus, let estimator else { return }
        let p = name == "wheelchair" ? campus.wheelchair : campus.walk
        let deviceName = actors[i].device
        let now = run.now
        let online = devices[deviceName]?.isOnline(at: now) ?? true
        // NAV-F2: the app routes on the map it keeps; without one (never downloaded, or lost) it cannot.
        guard let map = try phoneMap(device: deviceName, at: now), map.graph == graphIdentity else {
            if online {
                run.metrics.add(Metric.onlineRoutesWithoutMap)
            } else {
                offlineChecked(route: true, passed: false, run)
            }
            return
        }
        let edges = campus.graph.edges.count
        let published =
            store.congestion(for: .mobile)
            ?? CongestionSnapshot(takenAt: now, densities: [Double](repeating: 0, count: edges))
        // Fresh congestion only when its download arrives; otherwise (offline, or the request failed)
        // the phone routes on its cached snapshot.
        var fresh = false
        if online, let device = devices[deviceName] {
            let fetch = device.request(bytes: 8 * edges, at: now)
            run.metrics.latency(Metric.congestionDownload, seconds: fetch.latencySeconds)
            fresh = fetch.delivered
            if !fetch.delivered { run.metrics.add(Metric.congestionDownloadsFailed) }
        }
        var cache = congestionCaches[deviceName] ?? CongestionCache()
        let choice = cache.congestion(now: now, online: fresh, fresh: published)
        congestionCaches[deviceName] = cache
        let slowdown = choice.snapshot?.slowdowns
        // At free flow on every edge this is a plain query, which the routing system under test answers;
        // per-edge congestion weights are beyond the routing protocol, so the built-in router takes those.
        let plain = slowdown?.allSatisfy { $0 == 1 } ?? true
        let (route, seconds) = ComputeTimer.measure {
            plain
                ? systemRoute(from: from, to: to, profile: p)
                : router.route(in: campus.graph, from: from, to: to, profile: p, slowdown: slowdown)
        }
        run.metrics.latency(Metric.routeLatency, seconds: seconds)
        traceRoute(
            route, device: deviceName, online: online,
            congestion: fresh ? "fresh" : (choice.snapshot != nil ? "cached" : "none"), run)
        // At free flow the answer is the routing system's: an external one is judged on its own path.
        let external = plain && externalRouting != nil
        if p == campus.wheelchair { auditWheelchair(route, from: from, to: to, external: external, run) }
        // Offline the answer must still be right: a valid route exactly when one exists.
        if !online {
            let right = answerIsRight(route, from: from, to: to, profile: p, external: external)
            offlineChecked(route: true, passed: right, run)
        }
        if !fresh, choice.snapshot != nil {
            run.metrics.sample(Metric.cachedCongestionAgeMax, choice.ageSeconds)
        }
        // An `ok` answer of the routing system must walk the campus paths; one that does not has no duration
        // to judge, so it counts here rather than in the regret.
        let query = Self.describe(from: from, to: to, profile: name)
        if plain, route.status == .ok {
            let walks = onPaths(route, profile: p, external: external)
            run.metrics.check(
                Metric.routesOffThePaths, walks,
                item: ItemOutcome(
                    item: query, expected: "a walk on the \(name) profile's paths",
                    answer: walks ? "on the paths" : firstOffStep(route, profile: p)))
            // The regret compares durations between the harness's projections of the ends: an answer
            // that snapped its ends its own way starts and ends elsewhere, so its regret is not measured.
            if !walks || (external && !follows(route, profile: p)) { return }
        }
        guard route.status == .ok, let s = route.fromSnap, let t = route.toSnap else { return }
        let truth =
            crowd.map { WeidmannSpeed.slowdowns(densities: $0.trueDensities(at: now, estimator: estimator)) }
            ?? [Double](repeating: 1, count: edges)
        let regret = RouteRegret.regret(of: route, in: campus.graph, profile: p, trueSlowdown: truth, router: &router)
        if let regret {
            run.metrics.sample(
                fresh ? Metric.regretOnlineP95 : Metric.regretOfflineP95, regret,
                item: ItemOutcome(
                    item: query, expected: "the fastest route under the true congestion",
                    answer: "\(route.lengthMetres.rounded()) m route"))
            run.metrics.sample(fresh ? Metric.regretOnlineMean : Metric.regretOfflineMean, regret)
        }
        // What the same request would have cost routed without any congestion data (the contrast that
        // shows whether congestion decided anything; the harness's own, so the built-in router).
        let blind = router.route(in: campus.graph, fromSnap: s, toSnap: t, profile: p)
        if let blindRegret = RouteRegret.regret(
            of: blind, in: campus.graph, profile: p, trueSlowdown: truth, router: &router)
        {
            run.metrics.sample(
                fresh ? Metric.regretOnlineWithoutCongestionP95 : Metric.regretOfflineWithoutCongestionP95,
                blindRegret)
            // "Online fresh": where the crowd slows the congestion-free route, the share of its regret
            // that routing on fresh congestion saves. An app that ignores congestion saves nothing here,
            // however small its regret is on the many requests the crowd does not touch.
            if fresh, let regret, blindRegret > Self.regretTolerance {
                run.metrics.sample(
                    Metric.regretSavedByFreshCongestionMean, (blindRegret - regret) / blindRegret)
            }
        }
        listAlongRoute(route, run)
    }

    /// A route query as `items.csv` names it: its ends (degrees, 6 decimals) and profile.
    static func describe(from: GeoPoint, to: GeoPoint, profile: String) -> String {
        func p(_ g: GeoPoint) -> String { String(format: "%.6f,%.6f", g.latitude, g.longitude) }
        return "\(p(from)) → \(p(to)) \(profile)"
    }

    /// The first step of `route` the profile's contract does not allow (`PathAudit`), in words.
    func firstOffStep(_ route: Route, profile p: Int) -> String {
        if case .offence(let o) = pathAudit(p)?.audit(route.nodeIDs) { return "off the paths: \(o)" }
        return "off the paths (its ends or edges do not match the campus graph)"
    }

    /// The routing contract of profile `p` on the campus map (built once per profile).
    func pathAudit(_ p: Int) -> PathAudit? {
        guard let campus else { return nil }
        let audit = pathAudits[p] ?? PathAudit(graph: campus.graph, profile: p)
        pathAudits[p] = audit
        return audit
    }

    /// Whether an `ok` route walks profile `p`'s paths. An external system's answer (`external`) is
    /// judged on its own nodes: `PathAudit` accepts its `node_ids` (its own snapping of the ends is
    /// allowed; docs/system-protocol.md). The built-in router's, or an answer without node ids, must
    /// `follow` usable arcs between the harness's projections of its ends.
    func onPaths(_ route: Route, profile p: Int, external: Bool) -> Bool {
        guard external, !route.nodeIDs.isEmpty else { return follows(route, profile: p) }
        if case .valid = pathAudit(p)?.audit(route.nodeIDs) { return true }
        return false
    }

    /// NAV-F2: one route or search answered while offline, right or not. The three rows go together.
    func offlineChecked(route: Bool, passed: Bool, _ run: RunContext) {
        run.metrics.check(Metric.offlineFailures, passed)
        run.metrics.add(Metric.offlineRoutes, route ? 1 : 0, samples: route ? 1 : 0)
        run.metrics.add(Metric.offlineSearches, route ? 0 : 1, samples: route ? 0 : 1)
    }

    /// Whether `route` follows usable arcs of profile `p`: from its projected start along part of the
    /// start's edge to its first vertex, over whole edges to its last vertex, and along part of the end's
    /// edge to its projected end (or straight along the one edge both ends share), its points running
    /// from the one projected point to the other.
    func follows(_ route: Route, profile p: Int) -> Bool {
        guard let campus else { return false }
        let g = campus.graph
        func usable(_ edge: Int32, forward: Bool) -> Bool {
            Int(edge) >= 0 && Int(edge) < g.edges.count
                && g.access[p][Int(edge)] & (forward ? CampusGraph.forwardBit : CampusGraph.backwardBit) != 0
        }
        var start = route.fromVertex
        var end = route.toVertex
        if let s = route.fromSnap, let t = route.toSnap {
            guard route.points.first == s.point, route.points.last == t.point else { return false }
            guard route.fromVertex != nil else {
                // One edge: walked from the start's position towards the end's.
                guard let head = route.head, head.edge == s.edge, usable(head.edge, forward: head.forward) else {
                    return false
                }
                return t.edge == s.edge && route.steps.isEmpty && route.tail == nil && route.toVertex == nil
                    && (t.position == s.position || (t.position > s.position) == head.forward)
            }
            /// The vertex a snap lies on (an end of its edge), if any.
            func vertex(_ snap: EdgeSnap) -> Int32? {
                let e = g.edges[Int(snap.edge)]
                return snap.position == 0 ? e.from : snap.position == Double(e.shape.count - 1) ? e.to : nil
            }
            if let head = route.head {
                guard head.edge == s.edge, usable(head.edge, forward: head.forward) else { return false }
                start = head.forward ? g.edges[Int(head.edge)].to : g.edges[Int(head.edge)].from
            } else {
                start = vertex(s)
            }
            if let tail = route.tail {
                guard tail.edge == t.edge, usable(tail.edge, forward: tail.forward) else { return false }
                end = tail.forward ? g.edges[Int(tail.edge)].from : g.edges[Int(tail.edge)].to
            } else {
                end = vertex(t)
            }
            guard start != nil, end != nil, route.fromVertex == start, route.toVertex == end else { return false }
        }
        guard var at = start, let end else { return false }
        for step in route.steps {
            guard usable(step.edge, forward: step.forward) else { return false }
            let e = g.edges[Int(step.edge)]
            let (a, b) = step.forward ? (e.from, e.to) : (e.to, e.from)
            if a != at { return false }
            at = b
        }
        return at == end
    }

    /// Whether a route answer is right, checked independently of the router: an `ok` route follows
    /// usable arcs between its projected ends; `no_route` only when plain Dijkstra over the graph split
    /// at both projections cannot reach the end; `no_snap` only when an end has no usable edge within the
    /// router's 200 m (a scan of every edge with the spherical distance; answers within 1 m of the radius
    /// are not judged).
    func answerIsRight(_ route: Route, from: GeoPoint, to: GeoPoint, profile p: Int, external: Bool = false) -> Bool {
        switch route.status {
        case .ok:
            return onPaths(route, profile: p, external: external)
        case .noRoute:
            guard let s = route.fromSnap, let t = route.toSnap else { return false }
            return !splitDistances(from: s, to: [t], profile: p)[0].isFinite
        case .noSnap:
            return !hasUsableEdge(near: from, profile: p) || !hasUsableEdge(near: to, profile: p)
        }
    }

    /// Whether some edge usable by profile `p` passes within 199 m of `point` (spherical distance). O(E).
    func hasUsableEdge(near point: GeoPoint, profile p: Int) -> Bool {
        guard let campus else { return false }
        return campus.graph.edges.indices.contains { e in
            campus.graph.access[p][e] != 0 && Self.sphericalMetres(from: point, to: campus.graph.edges[e].shape) <= 199
        }
    }

    /// Shortest lengths (metres) from projected point `s` to each of `targets` under profile `p` over the
    /// graph split at those points: plain Dijkstra from each end of `s`'s edge the profile lets the start
    /// reach (or from the vertex it stands on), plus the parts of the edges at both ends, or the stretch
    /// between them on a shared edge. The independent check of routes and evacuations.
    /// O(2 (V + E) log V + targets).
    func splitDistances(from s: EdgeSnap, to targets: [EdgeSnap?], profile p: Int) -> [Double] {
        guard let campus else { return targets.map { _ in .infinity } }
        let g = campus.graph
        let fwd = CampusGraph.forwardBit
        let bwd = CampusGraph.backwardBit
        /// Ways between a snap and its edge's ends: (vertex, metres, direction bit needed to leave the snap
        /// towards the vertex); an end the snap lies on costs nothing in either direction.
        func ends(_ snap: EdgeSnap) -> [(vertex: Int32, metres: Double, bit: UInt8, on: Bool)] {
            let e = g.edges[Int(snap.edge)]
            let last = Double(e.shape.count - 1)
            return [
                (e.from, snap.metresFromStart, bwd, snap.position == 0),
                (e.to, snap.metresToEnd, fwd, snap.position == last),
            ]
        }
        let sBits = g.access[p][Int(s.edge)]
        let starts = ends(s).filter { $0.on || sBits & $0.bit != 0 }.map {
            (dist: dijkstra(from: $0.vertex, profile: p), offset: $0.on ? 0 : $0.metres)
        }
        return targets.map { t in
            guard let t else { return .infinity }
            let tBits = g.access[p][Int(t.edge)]
            var best = Double.infinity
            // Entering the target's edge from an end walks towards the other end: the opposite bit.
            for end in ends(t) where end.on || tBits & (end.bit == fwd ? bwd : fwd) != 0 {
                for (dist, offset) in starts {
                    best = min(best, offset + dist[Int(end.vertex)] + (end.on ? 0 : end.metres))
                }
            }
            if t.edge == s.edge, t.position == s.position || tBits & (t.position > s.position ? fwd : bwd) != 0 {
                best = min(best, g.alongMetres(edge: Int(s.edge), from: s.position, to: t.position))
            }
            return best
        }
    }

    /// Metres from `point` to the polyline `line` on the sphere (great-circle cross-track distance to each
    /// segment, or to its nearer end when the foot falls outside it): an independent check of the
    /// listing's local-projection geometry, which it matches to well under 1 m at campus scale. O(line).
    static func sphericalMetres(from point: GeoPoint, to line: [GeoPoint]) -> Double {
        guard let first = line.first else { return .infinity }
        let r = Geodesy.earthRadiusMetres
        let rad = Double.pi / 180
        func bearing(_ a: GeoPoint, _ b: GeoPoint) -> Double {
            let f1 = a.latitude * rad
            let f2 = b.latitude * rad
            let dl = (b.longitude - a.longitude) * rad
            return atan2(sin(dl) * cos(f2), cos(f1) * sin(f2) - sin(f1) * cos(f2) * cos(dl))
        }
        var best = Geodesy.haversineMetres(point, first)
        for (a, b) in zip(line, line.dropFirst()) {
            let dab = Geodesy.haversineMetres(a, b) / r
            let dap = Geodesy.haversineMetres(a, point) / r
            best = min(best, Geodesy.haversineMetres(point, b))
            guard dab > 0, dap > 0 else { continue }
            let angle = bearing(a, point) - bearing(a, b)
            let cross = asin(max(-1, min(1, sin(dap) * sin(angle))))
            let along = atan2(sin(dap) * cos(angle), cos(dap))
            if along > 0 && along < dab { best = min(best, abs(cross) * r) }
        }
        return best
    }

    /// NAV-F5: what the app lists along `route` (`RouteSurroundings`: non-expired events at venues and
    /// points of interest within 75 m), checked against a scan of every event and POI with an
    /// independent distance (places within 1 m of the 75 m boundary are not judged); an expired event
    /// listed is counted on its own.
    func listAlongRoute(_ route: Route, _ run: RunContext) {
        guard let campus, !route.points.isEmpty else { return }
        let now = run.now
        let all = events.map {
            CampusRouting.CampusEvent(
                title: String($0.id), location: campus.venues[$0.venue].location, start: $0.start, end: $0.end)
        }
        let listed = RouteSurroundings.events(along: route, events: all, now: now, within: Self.alongRouteMetres)
        run.metrics.add(Metric.expiredEventsShown, Double(listed.filter { $0.end <= now }.count))
        let ids = listed.map(\.title)
        var wrong = Set(ids).count != ids.count
        for e in events {
            let d = Self.sphericalMetres(from: campus.venues[e.venue].location, to: route.points)
            guard abs(d - Self.alongRouteMetres) > 1 else { continue }
            if (e.end > now && d < Self.alongRouteMetres) != ids.contains(String(e.id)) { wrong = true }
        }
        let directory = VenueDirectory(
            venues: campus.pois.enumerated().map { k, v in
                Venue(
                    ref: "poi/\(k)", name: v.name, kind: .pointOfInterest, category: v.kind, location: v.location,
                    entrances: [v.location], hasTaggedEntrance: false)
            })
        let pois = RouteSurroundings.venues(
            along: route, in: directory, kinds: [.pointOfInterest], within: Self.alongRouteMetres)
        run.metrics.check(Metric.eventListingMismatches, !wrong)
        let refs = pois.map(\.ref)
        var wrongPOI = Set(refs).count != refs.count
        for (k, v) in campus.pois.enumerated() {
            let d = Self.sphericalMetres(from: v.location, to: route.points)
            guard abs(d - Self.alongRouteMetres) > 1 else { continue }
            if (d < Self.alongRouteMetres) != refs.contains("poi/\(k)") { wrongPOI = true }
        }
        run.metrics.check(Metric.poiListingMismatches, !wrongPOI)
        run.metrics.add(Metric.eventsListed, Double(listed.count))
        run.metrics.add(Metric.poisListed, Double(pois.count))
    }

    /// NAV-F15: edges of a wheelchair route that the tags forbid (steps, wheelchair=no, incline > 8 %,
    /// raised kerbs and stiles/turnstiles/kissing gates on its nodes), from the core's route audit, which
    /// reads the OSM tags directly rather than the profile the router used.
    func forbiddenEdges(_ route: Route) -> Int {
        guard let campus else { return 0 }
        return RouteAudit(route: route, graph: campus.graph).impassableEdges
    }

    /// NAV-F15 for one wheelchair answer: forbidden edges of a route; a `no_route`/`no_snap` answer is
    /// wrong when an independent search finds a way (or a usable vertex near both ends).
    func auditWheelchair(_ route: Route, from: GeoPoint, to: GeoPoint, external: Bool = false, _ run: RunContext) {
        guard let campus else { return }
        let m = run.metrics
        let ok = route.status == .ok
        if ok {
            // One check per edge walked, and an answer that does not walk the wheelchair profile's usable
            // arcs (a routing system's made-up path) is one forbidden use.
            let walked = route.walkedEdges.count
            let forbidden = forbiddenEdges(route)
            if walked > 0 || forbidden > 0 {
                m.add(Metric.forbiddenEdgesUsed, Double(forbidden), samples: walked)
            }
            if !onPaths(route, profile: campus.wheelchair, external: external) {
                m.add(Metric.forbiddenEdgesUsed)
            }
        }
        // Checked on `no_route`/`no_snap` answers only, but reported with every wheelchair route.
        m.add(
            Metric.wrongNoRoute,
            ok || answerIsRight(route, from: from, to: to, profile: campus.wheelchair) ? 0 : 1, samples: ok ? 0 : 1)
        m.add(Metric.wheelchairRoutes)
        m.add(Metric.wheelchairNoRoute, ok ? 0 : 1)
    }

    /// Arcs usable by profile `p`, per vertex (built once per profile).
    func arcs(_ p: Int) -> [[(to: Int32, edge: Int32)]] {
        if let a = adjacency[p] { return a }
        guard let campus else { return [] }
        var out = [[(to: Int32, edge: Int32)]](repeating: [], count: campus.graph.vertices.count)
        for (i, e) in campus.graph.edges.enumerated() {
            let bits = campus.graph.access[p][i]
            if bits & CampusGraph.forwardBit != 0 { out[Int(e.from)].append((e.to, Int32(i))) }
            if bits & CampusGraph.backwardBit != 0 { out[Int(e.to)].append((e.from, Int32(i))) }
        }
        adjacency[p] = out
        return out
    }

    /// Shortest lengths (metres) from `source` to every vertex under profile `p`: the route
    /// capability's exact oracle (`ShortestPathOracle`, plain Dijkstra sharing no code with the
    /// routers), the independent check of the emergency routes. O((V + E) log V).
    func dijkstra(from source: Int32, profile p: Int) -> [Double] {
        guard let campus else { return [] }
        if oracle == nil { oracle = ShortestPathOracle(graph: campus.graph) }
        return oracle?.distances(from: source, profile: p) ?? []
    }

    /// Metres from an exit within which the user counts as starting at it (NAV-F9), measured from the
    /// user's own position: about a doorway's width.
    static let atExitMetres = 2.0

    /// NAV-F9/NAV-F18: route to the nearest exit or assembly point from `from`, for `profile`
    /// (`EmergencyRouting`, from the user's projected position); the mass alert goes to every phone.
    /// The route must follow the profile's usable arcs from the user's projection to an exit's
    /// projection, be as short as the nearest exit by an independent Dijkstra over the split graph, and
    /// (wheelchair) use no forbidden edge. An evacuation starts at an exit when the user stands within
    /// `atExitMetres` of one the profile can use.
    func emergency(from: GeoPoint, profile name: String, _ run: RunContext) throws {
        guard let campus else { return }
        let p = name == "wheelchair" ? campus.wheelchair : campus.walk
        for d in devices.keys.sorted() {
            guard let device = devices[d], device.isOnline(at: run.now) else { continue }
            run.metrics.check(
                Metric.alertsUndelivered, device.request(bytes: 2048, at: run.now).delivered)
        }
        let targets = campus.exits.map { $0.snaps[p] }
        // The nearest of many exits is beyond the routing protocol (one destination per query): built-in.
        let (route, chosen) = EmergencyRouting.nearest(
            in: campus.graph, from: from, destinations: targets, profile: p,
            router: &router)
        let atExit = campus.exits.contains {
            $0.snaps[p] != nil && Geodesy.haversineMetres(from, $0.location) <= Self.atExitMetres
        }
        let source = campus.graph.snapToEdge(from, profile: p)
        let nearest = source.map { splitDistances(from: $0, to: targets, profile: p).min() ?? .infinity } ?? .infinity
        var ok = false
        if route.status != .ok {
            // "No route" is right exactly when no exit is reachable in this profile's graph.
            ok = !nearest.isFinite
        } else if let chosen, let end = targets[chosen] {
            ok =
                route.fromSnap == source && route.toSnap == end && follows(route, profile: p)
                && abs(route.lengthMetres - nearest) <= 1e-6 * max(1, nearest)
            if p == campus.wheelchair && forbiddenEdges(route) > 0 { ok = false }
        }
        run.metrics.check(Metric.invalidEmergencyRoutes, ok)
        run.metrics.add(Metric.evacuationsStartingAtExit, atExit ? 1 : 0)
        traceEvacuation(route, nearest: nearest, ok: ok, exit: chosen.map { campus.exits[$0].name }, run)
        if p == campus.wheelchair {
            run.metrics.check(Metric.wrongWheelchairEvacuations, ok)
            run.metrics.add(Metric.wheelchairEvacuationsStartingAtExit, atExit ? 1 : 0)
            if route.status == .ok { auditWheelchair(route, from: from, to: route.points.last ?? from, run) }
        }
    }

    /// The venue names a typed query was taken from: names that begin with it, or one of whose words
    /// begins with it, compared after `VenueSearch.normalise` (case, diacritics and punctuation folded, as
    /// the search compares). Empty when the query begins no name: the app should then find nothing
    /// within its edit tolerance, or prompt (NAV-F3). Independent of the search's fuzzy matching.
    static func namesBegun(by query: String, among names: [String]) -> Set<String> {
        let q = VenueSearch.normalise(query)
        guard !q.isEmpty else { return [] }
        return Set(
            names.filter { name in
                let words = VenueSearch.normalise(name).split(separator: " ").map(String.init)
                return words.indices.contains { words[$0...].joined(separator: " ").hasPrefix(q) }
            })
    }

    /// The venue search over `venues` (`CampusRouting.VenueSearch`, the one implementation of NAV-F3's rules).
    static func venueSearch(_ venues: [NavUPVenue]) -> VenueSearch {
        VenueSearch(
            directory: VenueDirectory(
                venues: venues.enumerated().map { i, v in
                    Venue(
                        ref: "navup/\(i)", name: v.name, kind: .building, category: v.kind, location: v.location,
                        entrances: [v.location], hasTaggedEntrance: false)
                }))
    }

    /// NAV-F3: one typed query, or `count` seeded queries made from random venue names (a prefix of 3–8
    /// letters, or the whole name with one random typo); a hit is a top-5 answer with an intended name
    /// (for a typed query, a name it begins; one that begins no name is a hit when nothing is found, the
    /// prompt). The app searches the venue list of the map kept on the phone (NAV-F2); offline, its
    /// answer must equal the answer from the campus's own list.
    func searchVenue(actor i: Int, query: String?, count: Int?, _ run: RunContext) throws {
        guard let campus, let search else { return }
        var queries: [(text: String, targets: Set<String>)] = []
        if let query { queries.append((query, Self.namesBegun(by: query, among: campus.venues.map(\.name)))) }
        let rng = stream(run, "search")
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for _ in 0..<(count ?? 0) {
            let v = campus.venues[rng.uniformInt(below: campus.venues.count)]
            var chars = Array(v.name.lowercased())
            if rng.uniform() < 0.5 {
                chars = Array(chars.prefix(3 + rng.uniformInt(below: 6)))
            } else if chars.count >= 4 {
                let k = 1 + rng.uniformInt(below: chars.count - 2)
                switch rng.uniformInt(below: 3) {
                case 0: chars.swapAt(k, k - 1)
                case 1: chars.remove(at: k)
                default: chars[k] = letters[rng.uniformInt(below: letters.count)]
                }
            }
            queries.append((String(chars), [v.name]))
        }
        let device = actors[i].device
        let online = devices[device]?.isOnline(at: run.now) ?? true
        let map = try phoneMap(device: device, at: run.now)
        let index = map.map { m in
            Self.venueSearch(
                m.names.indices.map {
                    NavUPVenue(
                        name: m.names[$0], location: GeoPoint(latitude: m.latitudes[$0], longitude: m.longitudes[$0]),
                        kind: "")
                })
        }
        for q in queries {
            guard let index else {
                // No map on the phone: the search cannot be answered (a miss; offline, an F2 failure).
                run.metrics.sample(
                    Metric.top5HitRate, 0,
                    item: ItemOutcome(
                        item: q.text, expected: q.targets.joined(separator: "|"), answer: "", correct: false))
                if !online { offlineChecked(route: false, passed: false, run) }
                continue
            }
            let (found, seconds) = ComputeTimer.measure { index.search(q.text, limit: 5) }
            run.metrics.latency(Metric.searchLatency, seconds: seconds)
            let names = found.map(\.venue.name)
            let hit = q.targets.isEmpty ? found.isEmpty : names.contains { q.targets.contains($0) }
            run.metrics.sample(
                Metric.top5HitRate, hit ? 1 : 0,
                item: ItemOutcome(
                    item: q.text, expected: q.targets.isEmpty ? "nothing found" : q.targets.joined(separator: "|"),
                    answer: names.joined(separator: "|"), correct: hit))
            if !online {
                offlineChecked(route: false, passed: names == search.search(q.text, limit: 5).map(\.venue.name), run)
            }
        }
    }

    /// A delivery of campus events: `count` new events at random venues, starting between two hours ago
    /// and four hours ahead and lasting 30–120 minutes (so some are already over when listed).
    func eventsTick(at time: Double, count: Int, _ run: RunContext) {
        guard let campus else { return }
        let rng = stream(run, "events")
        let categories = ["lecture", "sport", "society", "exam", "career"]
        for _ in 0..<count {
            let start = time - 7200 + rng.uniform() * 21600
            events.append(
                CampusEvent(
                    id: events.count, venue: rng.uniformInt(below: campus.venues.count),
                    category: categories[rng.uniformInt(below: categories.count)],
                    start: start, end: start + 1800 + rng.uniform() * 5400, created: time))
        }
        scheduleReminders(run)
    }
}
