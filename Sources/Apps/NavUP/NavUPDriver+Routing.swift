import CampusRouting
import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation
import HeapModule
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
        let outcome = try device.fetch(key: "navup-map-\(campusName)", bytes: max(mapBytes, 1), timeToLiveSeconds: Self.mapTimeToLiveSeconds,
                                       at: time) {
            let map = PhoneMap(campus: campusName, graph: graphIdentity, names: campus.venues.map(\.name),
                               latitudes: campus.venues.map(\.location.latitude), longitudes: campus.venues.map(\.location.longitude))
            return (try? JSONEncoder().encode(map)) ?? Data()
        }
        if outcome.source == .network { mapArrival[name] = time + outcome.networkSeconds }
        guard let data = outcome.payload, let map = try? JSONDecoder().decode(PhoneMap.self, from: data),
              map.campus == campusName, map.names.count == map.latitudes.count, map.names.count == map.longitudes.count else { return nil }
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

    /// NAV-F4: a request whose answer depends on congestion: a pair of venues whose congestion-free
    /// route is slower under the crowd's true positions at `now` than the best route then — the first
    /// such pair in pair order from a seeded start (or, with more than `contestedTries` pairs, among as
    /// many seeded random pairs); nil when none is (no crowd, or nobody walking where it matters). The
    /// harness knows the truth; the app does not. O(min(venues², contestedTries) × A*).
    func contestedPair(profile name: String, rng: RandomStream, at now: Double) -> (Int, Int)? {
        guard let campus, let crowd, let estimator else { return nil }
        let p = name == "wheelchair" ? campus.wheelchair : campus.walk
        let truth = WeidmannSpeed.slowdowns(densities: crowd.trueDensities(at: now, estimator: estimator))
        let n = campus.venues.count, pairs = n * (n - 1)
        let first = rng.uniformInt(below: pairs)
        for k in 0..<min(pairs, Self.contestedTries) {
            let index = pairs <= Self.contestedTries ? (first + k) % pairs : rng.uniformInt(below: pairs)
            let a = index / (n - 1), r = index % (n - 1)
            let b = r >= a ? r + 1 : r
            let free = router.route(in: campus.graph, from: campus.venues[a].location, to: campus.venues[b].location, profile: p)
            if let regret = RouteRegret.regret(of: free, in: campus.graph, profile: p, trueSlowdown: truth, router: &router),
               regret > 1e-9 {
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
        if !online {
            offlineChecks += 1
            offlineRoutes += 1
        }
        // NAV-F2: the app routes on the map it keeps; without one (never downloaded, or lost) it cannot.
        guard let map = try phoneMap(device: deviceName, at: now), map.graph == graphIdentity else {
            if online { routesWithoutMap += 1 } else { offlineFailures += 1 }
            return
        }
        let edges = campus.graph.edges.count
        let published = store.congestion(for: .mobile) ?? CongestionSnapshot(takenAt: now, densities: [Double](repeating: 0, count: edges))
        // Fresh congestion only when its download arrives; otherwise (offline, or the request failed)
        // the phone routes on its cached snapshot.
        var fresh = false
        if online, let device = devices[deviceName] {
            let fetch = device.request(bytes: 8 * edges, at: now)
            run.metrics.latency("NAV-F4", "congestion_download", seconds: fetch.latencySeconds)
            fresh = fetch.delivered
            if !fetch.delivered { congestionDownloadsFailed += 1 }
        }
        var cache = congestionCaches[deviceName] ?? CongestionCache()
        let choice = cache.congestion(now: now, online: fresh, fresh: published)
        congestionCaches[deviceName] = cache
        let slowdown = choice.snapshot?.slowdowns
        let (route, seconds) = ComputeTimer.measure {
            router.route(in: campus.graph, from: from, to: to, profile: p, slowdown: slowdown)
        }
        run.metrics.latency("NAV-F4", "route_latency", seconds: seconds)
        if p == campus.wheelchair { auditWheelchair(route, from: from, to: to) }
        if !online, !answerIsRight(route, from: from, to: to, profile: p) {
            // Offline the answer must still be right: a valid route exactly when one exists.
            offlineFailures += 1
        }
        if !fresh, choice.snapshot != nil { cachedAges.append(choice.ageSeconds) }
        guard route.status == .ok, let s = route.fromVertex, let t = route.toVertex else { return }
        let truth = crowd.map { WeidmannSpeed.slowdowns(densities: $0.trueDensities(at: now, estimator: estimator)) }
            ?? [Double](repeating: 1, count: edges)
        if let regret = RouteRegret.regret(of: route, in: campus.graph, profile: p, trueSlowdown: truth, router: &router) {
            if fresh { regretOnline.append(regret) } else { regretOffline.append(regret) }
        }
        // What the same request would have cost routed without any congestion data (the contrast that
        // shows whether congestion decided anything).
        let blind = router.route(in: campus.graph, fromVertex: s, toVertex: t, profile: p)
        if let regret = RouteRegret.regret(of: blind, in: campus.graph, profile: p, trueSlowdown: truth, router: &router) {
            if fresh { blindOnline.append(regret) } else { blindOffline.append(regret) }
        }
        listAlongRoute(route, at: now)
    }

    /// Whether `route` follows usable arcs of profile `p` from its start vertex to its end vertex.
    func follows(_ route: Route, profile p: Int) -> Bool {
        guard let campus, let s = route.fromVertex, let t = route.toVertex else { return false }
        var at = s
        for step in route.steps {
            guard Int(step.edge) >= 0, Int(step.edge) < campus.graph.edges.count else { return false }
            let e = campus.graph.edges[Int(step.edge)]
            let bits = campus.graph.access[p][Int(step.edge)]
            let (a, b, bit) = step.forward ? (e.from, e.to, CampusGraph.forwardBit) : (e.to, e.from, CampusGraph.backwardBit)
            if a != at || bits & bit == 0 { return false }
            at = b
        }
        return at == t
    }

    /// Whether a route answer is right, checked independently of the router: an `ok` route follows
    /// usable arcs between its snapped ends; `no_route` only when a plain Dijkstra cannot reach the end;
    /// `no_snap` only when an end has no usable vertex within the router's 200 m (a scan of every vertex).
    func answerIsRight(_ route: Route, from: GeoPoint, to: GeoPoint, profile p: Int) -> Bool {
        switch route.status {
        case .ok:
            return follows(route, profile: p)
        case .noRoute:
            guard let s = route.fromVertex, let t = route.toVertex else { return false }
            return !dijkstra(from: s, profile: p)[Int(t)].isFinite
        case .noSnap:
            return !hasUsableVertex(near: from, profile: p) || !hasUsableVertex(near: to, profile: p)
        }
    }

    /// Whether some vertex with a usable arc of profile `p` lies within 200 m of `point`. O(V + E).
    func hasUsableVertex(near point: GeoPoint, profile p: Int) -> Bool {
        guard let campus else { return false }
        let arcs = arcs(p)
        return campus.graph.vertices.indices.contains { v in
            !arcs[v].isEmpty && Geodesy.haversineMetres(point, campus.graph.vertices[v].location) <= 200
        }
    }

    /// Metres from `point` to the polyline `line` on the sphere (great-circle cross-track distance to each
    /// segment, or to its nearer end when the foot falls outside it): an independent check of the
    /// listing's local-projection geometry, which it matches to well under 1 m at campus scale. O(line).
    static func sphericalMetres(from point: GeoPoint, to line: [GeoPoint]) -> Double {
        guard let first = line.first else { return .infinity }
        let r = Geodesy.earthRadiusMetres, rad = Double.pi / 180
        func bearing(_ a: GeoPoint, _ b: GeoPoint) -> Double {
            let f1 = a.latitude * rad, f2 = b.latitude * rad, dl = (b.longitude - a.longitude) * rad
            return atan2(sin(dl) * cos(f2), cos(f1) * sin(f2) - sin(f1) * cos(f2) * cos(dl))
        }
        var best = Geodesy.haversineMetres(point, first)
        for (a, b) in zip(line, line.dropFirst()) {
            let dab = Geodesy.haversineMetres(a, b) / r, dap = Geodesy.haversineMetres(a, point) / r
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
    func listAlongRoute(_ route: Route, at now: Double) {
        guard let campus, !route.points.isEmpty else { return }
        let all = events.map {
            CampusRouting.CampusEvent(title: String($0.id), location: campus.venues[$0.venue].location, start: $0.start, end: $0.end)
        }
        let listed = RouteSurroundings.events(along: route, events: all, now: now, within: Self.alongRouteMetres)
        eventChecks += 1
        eventsListed += listed.count
        expiredShown += listed.filter { $0.end <= now }.count
        let ids = listed.map(\.title)
        var wrong = Set(ids).count != ids.count
        for e in events {
            let d = Self.sphericalMetres(from: campus.venues[e.venue].location, to: route.points)
            guard abs(d - Self.alongRouteMetres) > 1 else { continue }
            if (e.end > now && d < Self.alongRouteMetres) != ids.contains(String(e.id)) { wrong = true }
        }
        let directory = VenueDirectory(venues: campus.pois.enumerated().map { k, v in
            Venue(ref: "poi/\(k)", name: v.name, kind: .pointOfInterest, category: v.kind, location: v.location,
                  entrances: [v.location], hasTaggedEntrance: false)
        })
        let pois = RouteSurroundings.venues(along: route, in: directory, kinds: [.pointOfInterest], within: Self.alongRouteMetres)
        poisListed += pois.count
        if wrong { listingMismatches += 1 }
        let refs = pois.map(\.ref)
        var wrongPOI = Set(refs).count != refs.count
        for (k, v) in campus.pois.enumerated() {
            let d = Self.sphericalMetres(from: v.location, to: route.points)
            guard abs(d - Self.alongRouteMetres) > 1 else { continue }
            if (d < Self.alongRouteMetres) != refs.contains("poi/\(k)") { wrongPOI = true }
        }
        if wrongPOI { poiMismatches += 1 }
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
    func auditWheelchair(_ route: Route, from: GeoPoint, to: GeoPoint) {
        guard let campus else { return }
        wheelchairRoutes += 1
        if route.status != .ok {
            wheelchairNoRoute += 1
            if !answerIsRight(route, from: from, to: to, profile: campus.wheelchair) { wheelchairWrongNoRoute += 1 }
            return
        }
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
        var heap = Heap<DijkstraEntry>()
        dist[Int(source)] = 0
        heap.insert(DijkstraEntry(metres: 0, vertex: source))
        while let top = heap.popMin() {
            let d = top.metres, v = top.vertex
            if d > dist[Int(v)] { continue }
            for a in arcs[Int(v)] {
                let nd = d + campus.graph.edges[Int(a.edge)].lengthMetres
                if nd < dist[Int(a.to)] { dist[Int(a.to)] = nd; heap.insert(DijkstraEntry(metres: nd, vertex: a.to)) }
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
        if let source, targets.contains(source.vertex) {
            // Already at an exit: the right answer is the empty route, which exercises no routing.
            if p == campus.wheelchair { wheelchairEvacuationsAtExit += 1 } else { evacuationsAtExit += 1 }
        }
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
            ok = s == source?.vertex && follows(r, profile: p) && targets.contains(t)
                && abs(r.lengthMetres - nearest) <= 1e-6 * max(1, nearest)
            if p == campus.wheelchair && forbiddenEdges(r) > 0 { ok = false }
        }
        emergencyChecks += 1
        if !ok { emergencyFailures += 1 }
        if p == campus.wheelchair {
            wheelchairEvacuations += 1
            if !ok { wheelchairEvacuationFailures += 1 }
            if let best { auditWheelchair(best, from: from, to: best.points.last ?? from) }
        }
    }

    /// The venue names a typed query was taken from: names that begin with it, or one of whose words
    /// begins with it (case-insensitive). Empty when the query begins no name: the app should then find
    /// nothing and prompt (NAV-F3). Independent of the search's fuzzy matching.
    static func namesBegun(by query: String, among names: [String]) -> Set<String> {
        let q = query.lowercased().trimmingCharacters(in: .whitespaces)
        guard !q.isEmpty else { return [] }
        return Set(names.filter { name in
            let words = name.lowercased().split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            return words.indices.contains { words[$0...].joined(separator: " ").hasPrefix(q) }
        })
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
            NavUPVenueSearch(venues: m.names.indices.map {
                NavUPVenue(name: m.names[$0], location: GeoPoint(latitude: m.latitudes[$0], longitude: m.longitudes[$0]), kind: "")
            })
        }
        for q in queries {
            searchQueries += 1
            if !online {
                offlineSearches += 1
                offlineChecks += 1
            }
            guard let index else {
                // No map on the phone: the search cannot be answered (a miss; offline, an F2 failure).
                if !online { offlineFailures += 1 }
                continue
            }
            let (found, seconds) = ComputeTimer.measure { index.search(q.text, limit: 5) }
            run.metrics.latency("NAV-F3", "search_latency", seconds: seconds)
            let names = found.map { index.names[$0] }
            let hit = q.targets.isEmpty ? found.isEmpty : names.contains { q.targets.contains($0) }
            if hit { searchHits += 1 }
            if !online, names != search.search(q.text, limit: 5).map({ campus.venues[$0].name }) { offlineFailures += 1 }
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

/// A vertex waiting in the check's Dijkstra queue, ordered by its tentative length (metres), then by
/// vertex so that the order is total.
struct DijkstraEntry: Comparable {
    var metres: Double
    var vertex: Int32

    static func < (a: DijkstraEntry, b: DijkstraEntry) -> Bool {
        (a.metres, a.vertex) < (b.metres, b.vertex)
    }
}
