import FieldtestData

/// Routes to the nearest of several destinations — exits or assembly points in an emergency
/// (NAV-F9, NAV-F18) — with one multi-target Dijkstra search (Dijkstra 1959) from the user's position.
///
/// The start and every destination are projected onto their nearest usable edges (`EdgeSnap`), so the
/// distance is measured from where the user stands on the path, not from a junction nearby: the search
/// starts from the start edge's ends at the cost of the part of the edge walked, and a destination is
/// reached through the parts of its own edge (or straight along a shared edge). It stops once no
/// unsettled vertex can lead to a cheaper destination than the best found. O((V + E) log V).
public enum EmergencyRouting {
    /// The route from `from` to the cheapest-to-reach of `destinations` under profile `p`
    /// (e.g. `wheelchair` when asked), with the index of the destination chosen. Ends snap within
    /// `snapMetres` like route ends; `noSnap` when the start or every destination fails to snap.
    public static func nearest(
        in graph: CampusGraph, from: GeoPoint, destinations: [GeoPoint], profile p: Int,
        slowdown: [Double]? = nil, router: inout AStarRouter,
        snapMetres: Double = 200
    ) -> (route: Route, destination: Int?) {
        let snaps = destinations.map { graph.snapToEdge($0, profile: p, maxMetres: snapMetres) }
        return nearest(
            in: graph, from: from, destinations: snaps, profile: p, slowdown: slowdown, router: &router,
            snapMetres: snapMetres)
    }

    /// As `nearest(in:from:destinations:...)` with destinations already projected onto the profile's
    /// edges (nil entries are destinations that did not snap and are skipped); the destination index is
    /// into `destinations`.
    public static func nearest(
        in graph: CampusGraph, from: GeoPoint, destinations: [EdgeSnap?], profile p: Int,
        slowdown: [Double]? = nil, router: inout AStarRouter,
        snapMetres: Double = 200
    ) -> (route: Route, destination: Int?) {
        let name = graph.profileNames[p]
        guard let s = graph.snapToEdge(from, profile: p, maxMetres: snapMetres) else {
            return (.failed(.noSnap, profile: name), nil)
        }
        guard destinations.contains(where: { $0 != nil }) else {
            return (.failed(.noSnap, profile: name, fromSnap: s), nil)
        }
        guard slowdown.map({ $0.count >= graph.edges.count }) ?? true else {
            return (.failed(.noRoute, profile: name, fromSnap: s), nil)
        }
        router.prepareStart(graph, s, p, slowdown)
        router.entries.removeAll(keepingCapacity: true)
        router.directs.removeAll(keepingCapacity: true)
        router.targetRow.removeAll(keepingCapacity: true)
        for (i, d) in destinations.enumerated() {
            guard let d, Int(d.edge) < graph.edges.count, graph.access[p][Int(d.edge)] != 0 else { continue }
            router.addTarget(graph, d, index: i, start: s, p, slowdown)
        }
        guard let found = router.searchGoal(graph, p, slowdown, goal: nil) else {
            return (.failed(.noRoute, profile: name, fromSnap: s), nil)
        }
        let target = found.entry < 0 ? router.directs[-1 - found.entry].target : router.entries[found.entry].target
        guard let t = destinations[target] else { return (.failed(.noRoute, profile: name, fromSnap: s), nil) }
        return (router.assembleSnapped(graph, p, slowdown, from: s, to: t, via: found), target)
    }
}
