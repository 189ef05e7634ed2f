import CampusRouting
import DeviceEmulation
import Foundation
import ScenarioEngine

/// Routes with congestion, events along routes, accessibility audit, emergency routes
/// (NAV-F2, NAV-F4, NAV-F5, NAV-F9, NAV-F15, NAV-F18).
extension NavUPDriver {
    /// Distance from the route within which events and POIs are listed, metres.
    static let alongRouteMetres = 75.0

    /// One route request on `actor`'s phone at the current virtual time.
    func route(actor i: Int, from: GeoPoint, to: GeoPoint, profile name: String, _ run: RunContext) throws {
        guard let campus, let estimator else { return }
        let p = name == "wheelchair" ? campus.wheelchair : campus.walk
        let deviceName = actors[i].device
        let now = run.now
        let online = devices[deviceName]?.isOnline(at: now) ?? true
        let edges = campus.graph.edges.count
        let published = store.congestion(for: .mobile) ?? CongestionSnapshot(takenAt: now, densities: [Double](repeating: 0, count: edges))
        var cache = congestionCaches[deviceName] ?? CongestionCache()
        let choice = cache.congestion(now: now, online: online, fresh: published)
        congestionCaches[deviceName] = cache
        if online, let device = devices[deviceName] {
            let fetch = device.request(bytes: 8 * edges, at: now)
            run.metrics.latency("NAV-F4", "congestion_download", seconds: fetch.latencySeconds)
        }
        let slowdown = choice.snapshot?.slowdowns
        let (route, seconds) = ComputeTimer.measure {
            router.route(in: campus.graph, from: from, to: to, profile: p, slowdown: slowdown)
        }
        run.metrics.latency("NAV-F4", "route_latency", seconds: seconds, threshold: 0.1)
        if p == campus.wheelchair { auditWheelchair(route) }
        if !online {
            offlineChecks += 1
            let reference = router.route(in: campus.graph, from: from, to: to, profile: p)
            if route.status != reference.status { offlineFailures += 1 }
            if choice.snapshot != nil { cachedAges.append(choice.ageSeconds) }
        }
        guard route.status == .ok else { return }
        let truth = crowd.map { WeidmannSpeed.slowdowns(densities: $0.trueDensities(at: now, estimator: estimator)) }
            ?? [Double](repeating: 1, count: edges)
        if let regret = RouteRegret.regret(of: route, in: campus.graph, profile: p, trueSlowdown: truth, router: &router) {
            if online { regretOnline.append(regret) } else { regretOffline.append(regret) }
        }
        listAlongRoute(route, at: now)
    }

    /// NAV-F5: the app's list of non-expired events at venues along `route` (per-venue index), checked
    /// against a scan of every event; also counts the POIs listed.
    func listAlongRoute(_ route: Route, at now: Double) {
        guard let campus, route.points.count >= 1 else { return }
        let shape = route.points.count == 1 ? [route.points[0], route.points[0]] : route.points
        var byVenue: [Int: [CampusEvent]] = [:]
        for e in events { byVenue[e.venue, default: []].append(e) }
        var shown = Set<Int>()
        for v in byVenue.keys.sorted() where Geodesy.distanceToPolyline(campus.venues[v].location, shape).metres <= Self.alongRouteMetres {
            for e in byVenue[v] ?? [] where e.end > now { shown.insert(e.id) }
        }
        var expected = Set<Int>()
        for e in events where e.end > now && e.start - 7200 <= now {
            if Geodesy.distanceToPolyline(campus.venues[e.venue].location, shape).metres <= Self.alongRouteMetres { expected.insert(e.id) }
        }
        // The app lists events starting within two hours or running now.
        shown = shown.filter { id in events.first { $0.id == id }.map { $0.start - 7200 <= now } ?? false }
        eventChecks += 1
        expiredShown += shown.filter { id in events.first { $0.id == id }.map { $0.end <= now } ?? true }.count
        if shown != expected { listingMismatches += 1 }
        poisListed += campus.pois.filter { Geodesy.distanceToPolyline($0.location, shape).metres <= Self.alongRouteMetres }.count
    }

    /// NAV-F15: edges of a wheelchair route that the tags forbid (steps, wheelchair=no, incline > 8 %,
    /// raised kerbs and stiles/turnstiles/kissing gates on its nodes), checked from the OSM tags directly.
    func forbiddenEdges(_ route: Route) -> Int {
        guard let campus else { return 0 }
        var bad = 0
        for step in route.steps {
            let e = campus.graph.edges[Int(step.edge)]
            var forbidden = e.tags["highway"] == "steps" || e.tags["wheelchair"] == "no"
            if let raw = e.tags["incline"], let pct = RoutingProfile.inclinePercent(raw), abs(pct) > 8 { forbidden = true }
            for (_, tags) in e.nodeTags {
                if tags["kerb"] == "raised" || tags["wheelchair"] == "no" { forbidden = true }
                if let b = tags["barrier"], ["stile", "turnstile", "kissing_gate"].contains(b) { forbidden = true }
            }
            if forbidden { bad += 1 }
        }
        return bad
    }

    func auditWheelchair(_ route: Route) {
        wheelchairRoutes += 1
        if route.status != .ok { wheelchairNoRoute += 1; return }
        wheelchairSteps += route.steps.count
        forbiddenUsed += forbiddenEdges(route)
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

    /// Shortest lengths (metres) from `source` to every vertex under profile `p`: plain Dijkstra, the
    /// independent check of the emergency routes. O((V + E) log V).
    func dijkstra(from source: Int32, profile p: Int) -> [Double] {
        guard let campus else { return [] }
        let arcs = arcs(p)
        var dist = [Double](repeating: .infinity, count: campus.graph.vertices.count)
        var heap = BinaryHeap()
        dist[Int(source)] = 0
        heap.push(0, source)
        while let (d, v) = heap.pop() {
            if d > dist[Int(v)] { continue }
            for a in arcs[Int(v)] {
                let nd = d + campus.graph.edges[Int(a.edge)].lengthMetres
                if nd < dist[Int(a.to)] { dist[Int(a.to)] = nd; heap.push(nd, a.to) }
            }
        }
        return dist
    }

    /// NAV-F9/NAV-F18: route to the nearest exit or assembly point from `from`, for `profile`; the mass
    /// alert goes to every phone. The route must be contiguous, usable by the profile, end at an exit,
    /// be as short as the nearest exit by an independent Dijkstra, and (wheelchair) use no forbidden edge.
    func emergency(from: GeoPoint, profile name: String, _ run: RunContext) throws {
        guard let campus else { return }
        let p = name == "wheelchair" ? campus.wheelchair : campus.walk
        for d in devices.keys.sorted() {
            guard let device = devices[d], device.isOnline(at: run.now) else { continue }
            alertsSent += 1
            if !device.request(bytes: 2048, at: run.now).delivered { alertsUndelivered += 1 }
        }
        let targets = Array(Set(campus.exits.compactMap { $0.vertices[p] })).sorted()
        var best: Route?
        for t in targets {
            guard let s = campus.graph.snap(from, profile: p) else { break }
            let r = router.route(in: campus.graph, fromVertex: s.vertex, toVertex: t, profile: p)
            if r.status == .ok, best.map({ r.lengthMetres < $0.lengthMetres }) ?? true { best = r }
        }
        var ok = false
        let source = campus.graph.snap(from, profile: p)
        let reachable = source.map { s in
            let dist = dijkstra(from: s.vertex, profile: p)
            return targets.contains { dist[Int($0)].isFinite }
        } ?? false
        if best == nil && !reachable {
            // No exit is reachable in this profile's graph: "no route" is the correct answer.
            ok = true
        } else if let r = best, let s = r.fromVertex, let t = r.toVertex {
            let dist = dijkstra(from: s, profile: p)
            let nearest = targets.map { dist[Int($0)] }.min() ?? .infinity
            var contiguous = true
            var at = s
            for step in r.steps {
                let e = campus.graph.edges[Int(step.edge)]
                let bits = campus.graph.access[p][Int(step.edge)]
                let (a, b, bit) = step.forward ? (e.from, e.to, CampusGraph.forwardBit) : (e.to, e.from, CampusGraph.backwardBit)
                if a != at || bits & bit == 0 { contiguous = false }
                at = b
            }
            ok = contiguous && at == t && targets.contains(t) && abs(r.lengthMetres - nearest) <= 1e-6 * max(1, nearest)
            if p == campus.wheelchair && forbiddenEdges(r) > 0 { ok = false }
        }
        emergencyChecks += 1
        if !ok { emergencyFailures += 1 }
        if p == campus.wheelchair {
            wheelchairEvacuations += 1
            if !ok { wheelchairEvacuationFailures += 1 }
            if let best { auditWheelchair(best) }
        }
    }

    /// NAV-F3: one typed query, or `count` seeded queries made from random venue names (a prefix of 3–8
    /// letters, or the whole name with one random typo); a hit is a top-5 answer with the intended name.
    func searchVenue(actor i: Int, query: String?, count: Int?, _ run: RunContext) {
        guard let campus, let search else { return }
        var queries: [(text: String, target: String)] = []
        if let query { queries.append((query, campus.venues[search.search(query, limit: 1).first ?? 0].name)) }
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
            queries.append((String(chars), v.name))
        }
        let online = devices[actors[i].device]?.isOnline(at: run.now) ?? true
        for q in queries {
            let (found, seconds) = ComputeTimer.measure { search.search(q.text, limit: 5) }
            run.metrics.latency("NAV-F3", "search_latency", seconds: seconds)
            searchQueries += 1
            let hit = found.contains { campus.venues[$0].name == q.target }
            if hit { searchHits += 1 }
            if !online {
                offlineSearches += 1
                offlineChecks += 1
                if !hit { offlineFailures += 1 }
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
            events.append(CampusEvent(id: events.count, venue: rng.uniformInt(below: campus.venues.count),
                                      category: categories[rng.uniformInt(below: categories.count)],
                                      start: start, end: start + 1800 + rng.uniform() * 5400, created: time))
        }
        scheduleReminders(run)
    }
}
