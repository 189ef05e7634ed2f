import FieldtestData

/// Routes to the nearest of several destinations — exits or assembly points in an emergency
/// (NAV-F9, NAV-F18) — with one multi-target Dijkstra search (Dijkstra 1959): it stops at the first
/// target vertex settled, which is the cheapest to reach. O((V + E) log V).
public enum EmergencyRouting {
    /// The route from `from` to the cheapest-to-reach of `destinations` under profile `p`
    /// (e.g. `wheelchair` when asked), with the index of the destination chosen. Destinations snap
    /// to the profile's graph like route ends; `noSnap` when the start or every destination fails to snap.
    public static func nearest(in graph: CampusGraph, from: GeoPoint, destinations: [GeoPoint], profile p: Int,
                               slowdown: [Double]? = nil, router: inout AStarRouter,
                               snapMetres: Double = 200) -> (route: Route, destination: Int?) {
        let name = graph.profiles[p].name
        guard let s = graph.snap(from, profile: p, maxMetres: snapMetres) else { return (.failed(.noSnap, profile: name), nil) }
        var targetOf: [Int32: Int] = [:]
        for (i, d) in destinations.enumerated() {
            if let t = graph.snap(d, profile: p, maxMetres: snapMetres), targetOf[t.vertex] == nil { targetOf[t.vertex] = i }
        }
        guard !targetOf.isEmpty else { return (.failed(.noSnap, profile: name, from: s.vertex), nil) }
        guard let (t, steps) = router.searchNearest(graph, s.vertex, Set(targetOf.keys), p, slowdown) else {
            return (.failed(.noRoute, profile: name, from: s.vertex), nil)
        }
        return (AStarRouter.assemble(graph, steps: steps, from: s.vertex, to: t, profile: p, slowdown: slowdown), targetOf[t])
    }
}

extension AStarRouter {
    /// Dijkstra from `s` until any vertex of `targets` is settled; the reached target and the steps to it.
    mutating func searchNearest(_ g: CampusGraph, _ s: Int32, _ targets: Set<Int32>, _ p: Int,
                                _ slowdown: [Double]?) -> (Int32, [RouteStep])? {
        if targets.contains(s) { return (s, []) }
        return dijkstra(g, s, targets, p, slowdown)
    }

    mutating func dijkstra(_ g: CampusGraph, _ s: Int32, _ targets: Set<Int32>, _ p: Int,
                           _ slowdown: [Double]?) -> (Int32, [RouteStep])? {
        let n = g.vertices.count
        if cost.count != n {
            cost = [Double](repeating: 0, count: n)
            parentArc = [Int32](repeating: -1, count: n)
            stamp = [UInt32](repeating: 0, count: n)
            closed = [UInt32](repeating: 0, count: n)
            generation = 0
        }
        generation &+= 1
        if generation == 0 {
            for i in 0..<n { stamp[i] = 0; closed[i] = 0 }
            generation = 1
        }
        let gen = generation
        heap.removeAll()
        let access = g.access[p]
        cost[Int(s)] = 0
        parentArc[Int(s)] = -1
        stamp[Int(s)] = gen
        heap.push(0, s)
        var reached: Int32?
        while let (_, v32) = heap.pop() {
            let v = Int(v32)
            if closed[v] == gen { continue }
            closed[v] = gen
            if targets.contains(v32) { reached = v32; break }
            for a in Int(g.arcOffsets[v])..<Int(g.arcOffsets[v + 1]) {
                let e = Int(g.arcEdge[a])
                guard access[e] & (g.arcForward[a] ? CampusGraph.forwardBit : CampusGraph.backwardBit) != 0 else { continue }
                let w = Int(g.arcTarget[a])
                guard closed[w] != gen else { continue }
                let nc = cost[v] + g.edgeLengths[e] * (slowdown?[e] ?? 1)
                if stamp[w] != gen || nc < cost[w] {
                    stamp[w] = gen
                    cost[w] = nc
                    parentArc[w] = Int32(a)
                    heap.push(nc, Int32(w))
                }
            }
        }
        guard let t = reached else { return nil }
        var steps: [RouteStep] = []
        var v = Int(t)
        while v != Int(s) {
            let a = Int(parentArc[v])
            guard a >= 0 else { return nil }
            steps.append(RouteStep(edge: g.arcEdge[a], forward: g.arcForward[a]))
            let e = g.edges[Int(g.arcEdge[a])]
            v = Int(g.arcForward[a] ? e.from : e.to)
        }
        return (t, steps.reversed())
    }
}
