/// Reusable A* search state over a `CampusGraph` (Hart, Nilsson & Raphael 1968) with a 4-ary heap.
///
/// Edge cost is `lengthMetres × slowdown[edge]` (slowdown ≥ 1, from congestion; 1 without), and the
/// heuristic is the straight chord through the Earth to the target, R·|p − t| on the sphere, which is
/// never longer than the great-circle distance and so never exceeds the cost of any path (a shape's
/// haversine sum is at least the great-circle distance of its ends); it is a metric, so the heuristic is
/// admissible and consistent (and needs one square root instead of haversine's trigonometry) and the first time the target is settled its cost is optimal. With no congestion the
/// route is therefore a shortest-length path on the profile's graph.
///
/// Complexity: O((V + E) log V) per query in the worst case, usually far less. Scratch arrays are
/// stamped per query so a search does not clear O(V) memory.
public struct AStarRouter: Sendable {
    var cost: [Double] = []
    var parentArc: [Int32] = []
    var stamp: [UInt32] = []
    var closed: [UInt32] = []
    var generation: UInt32 = 0
    var heap = QuaternaryHeap()
    // Backward-search scratch and the per-query potential cache of the bidirectional search.
    var costB: [Double] = []
    var parentArcB: [Int32] = []
    var stampB: [UInt32] = []
    var closedB: [UInt32] = []
    var potential: [Double] = []
    var potentialStamp: [UInt32] = []
    var heapB = QuaternaryHeap()
    /// Which search answers queries; both return a cheapest route (equal cost up to floating-point rounding).
    /// Forward A* is the default: in `fieldtest bench route` the bidirectional search settled about as many
    /// vertices (its average potentials are weaker than the plain chord bound) and was slower on
    /// Helsinki and the synthetic grid.
    public var algorithm: Algorithm = .unidirectional
    /// Vertices settled by the last query (for benchmarks and tests).
    public internal(set) var settledCount = 0

    /// The search algorithms a router can run.
    public enum Algorithm: Sendable {
        /// Forward A* from the start (`search`).
        case unidirectional
        /// Bidirectional A* with average potentials (`bidirectionalSearch`).
        case bidirectional
    }

    /// Creates an empty router; it sizes itself to the graph on first use.
    public init() {}

    /// Snaps both ends to the profile's graph (within `snapMetres`) and returns the cheapest route.
    /// `slowdown`, when given, holds one factor ≥ 1 per edge (see `WeidmannSpeed.slowdown`).
    public mutating func route(in graph: CampusGraph, from: GeoPoint, to: GeoPoint, profile p: Int,
                               slowdown: [Double]? = nil, snapMetres: Double = 200) -> Route {
        let name = graph.profiles[p].name
        guard let s = graph.snap(from, profile: p, maxMetres: snapMetres),
              let t = graph.snap(to, profile: p, maxMetres: snapMetres) else {
            return .failed(.noSnap, profile: name)
        }
        return route(in: graph, fromVertex: s.vertex, toVertex: t.vertex, profile: p, slowdown: slowdown)
    }

    /// The cheapest route between two vertices under profile `p`.
    public mutating func route(in graph: CampusGraph, fromVertex s: Int32, toVertex t: Int32, profile p: Int,
                               slowdown: [Double]? = nil) -> Route {
        let name = graph.profiles[p].name
        let found = algorithm == .bidirectional ? bidirectionalSearch(graph, s, t, p, slowdown) : search(graph, s, t, p, slowdown)
        guard let steps = found else { return .failed(.noRoute, profile: name, from: s, to: t) }
        return Self.assemble(graph, steps: steps, from: s, to: t, profile: p, slowdown: slowdown)
    }

    /// Runs A*; returns the steps from `s` to `t`, or nil when unreachable.
    ///
    /// The loop runs over the profile's compact adjacency (`CampusGraph.ProfileAdjacency`) through
    /// unsafe buffer pointers (indices come from the graph's own CSR arrays, built and checked at
    /// graph construction), with a 4-ary heap and generation-stamped scratch arrays: no allocation,
    /// reference counting or clearing per query once the buffers have grown.
    mutating func search(_ g: CampusGraph, _ s: Int32, _ t: Int32, _ p: Int, _ slowdown: [Double]?) -> [RouteStep]? {
        let n = g.vertices.count
        guard Int(s) < n, Int(t) < n, s >= 0, t >= 0, p < g.profileAdjacency.count else { return nil }
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
        // The heap is moved out for the loop so no access to `self` overlaps the scratch buffers' accesses.
        var heap = QuaternaryHeap()
        swap(&heap, &self.heap)
        defer { swap(&heap, &self.heap) }
        heap.removeAll()
        let adjacency = g.profileAdjacency[p]
        if let slowdown, slowdown.count < g.edges.count { return nil }
        if adjacency.component[Int(s)] != adjacency.component[Int(t)] { settledCount = 0; return nil }
        // Slightly shrunk so floating-point rounding can never make the heuristic overestimate.
        let scale = Geodesy.earthRadiusMetres * (1 - 1e-9)
        var settled = 0
        var found = false
        g.vertexXYZ.withUnsafeBufferPointer { xyz in
        adjacency.offsets.withUnsafeBufferPointer { offsets in
        adjacency.targets.withUnsafeBufferPointer { targets in
        adjacency.lengths.withUnsafeBufferPointer { lengths in
        adjacency.arcs.withUnsafeBufferPointer { arcs in
        adjacency.edges.withUnsafeBufferPointer { arcEdges in
        cost.withUnsafeMutableBufferPointer { cost in
        parentArc.withUnsafeMutableBufferPointer { parent in
        stamp.withUnsafeMutableBufferPointer { stamp in
        closed.withUnsafeMutableBufferPointer { closed in
            let ti = Int(t) * 3
            let tx = xyz[ti], ty = xyz[ti + 1], tz = xyz[ti + 2]
            @inline(__always) func h(_ v: Int) -> Double {
                let dx = xyz[3 * v] - tx, dy = xyz[3 * v + 1] - ty, dz = xyz[3 * v + 2] - tz
                return scale * (dx * dx + dy * dy + dz * dz).squareRoot()
            }
            let si = Int(s)
            cost[si] = 0
            parent[si] = -1
            stamp[si] = gen
            heap.push(h(si), s)
            while let (_, v32) = heap.pop() {
                let v = Int(v32)
                if closed[v] == gen { continue }
                closed[v] = gen
                settled += 1
                if v32 == t { found = true; break }
                let base = cost[v]
                var a = Int(offsets[v])
                let hi = Int(offsets[v + 1])
                while a < hi {
                    let w = Int(targets[a])
                    if closed[w] != gen {
                        var c = lengths[a]
                        if let slowdown { c *= slowdown[Int(arcEdges[a])] }
                        let nc = base + c
                        if stamp[w] != gen || nc < cost[w] {
                            stamp[w] = gen
                            cost[w] = nc
                            parent[w] = arcs[a]
                            heap.push(nc + h(w), Int32(truncatingIfNeeded: w))
                        }
                    }
                    a += 1
                }
            }
        }}}}}}}}}}
        settledCount = settled
        guard found else { return nil }
        var steps: [RouteStep] = []
        var v = Int(t)
        while v != Int(s) {
            let a = Int(parentArc[v])
            guard a >= 0 else { return nil }
            steps.append(RouteStep(edge: g.arcEdge[a], forward: g.arcForward[a]))
            let e = g.edges[Int(g.arcEdge[a])]
            v = Int(g.arcForward[a] ? e.from : e.to)
        }
        steps.reverse()
        return steps
    }

    /// Expands steps into node ids and points. Length is the sum of the edges' lengths, each the haversine
    /// sum along its shape, so it equals the haversine sum along the points (up to rounding) without
    /// evaluating any trigonometry per query; it is also the sum of the edge weights networkx adds up.
    static func assemble(_ g: CampusGraph, steps: [RouteStep], from s: Int32, to t: Int32, profile p: Int,
                         slowdown: [Double]?) -> Route {
        var ids: [Int64] = []
        var pts: [GeoPoint] = []
        let shapePoints = steps.reduce(1) { $0 + g.edges[Int($1.edge)].shape.count - 1 }
        ids.reserveCapacity(shapePoints)
        pts.reserveCapacity(shapePoints)
        let start = g.vertices[Int(s)]
        if let id = start.osmID { ids.append(id) }
        pts.append(start.location)
        var duration = 0.0
        var length = 0.0
        let speed = g.profiles[p].speedMetresPerSecond
        for step in steps {
            let e = g.edges[Int(step.edge)]
            // Index loops: appending lazy `dropFirst`/`reversed` views goes through slow generic paths.
            let shape = e.shape, nodes = e.nodeIDs
            if step.forward {
                var i = 1
                while i < shape.count { pts.append(shape[i]); i += 1 }
                i = 1
                while i < nodes.count { ids.append(nodes[i]); i += 1 }
            } else {
                var i = shape.count - 2
                while i >= 0 { pts.append(shape[i]); i -= 1 }
                i = nodes.count - 2
                while i >= 0 { ids.append(nodes[i]); i -= 1 }
            }
            length += e.lengthMetres
            duration += e.lengthMetres * (slowdown?[Int(step.edge)] ?? 1) / speed
        }
        return Route(status: .ok, profile: g.profiles[p].name, fromVertex: s, toVertex: t, steps: steps, nodeIDs: ids,
                     points: pts, lengthMetres: length, durationSeconds: duration)
    }
}
