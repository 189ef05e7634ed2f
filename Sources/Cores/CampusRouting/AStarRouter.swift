import FieldtestData

/// Reusable A* search state over a `CampusGraph` (Hart, Nilsson & Raphael 1968) with a 4-ary heap.
///
/// Edge cost is `lengthMetres × slowdown[edge]` (slowdown ≥ 1, from congestion; 1 without), and the
/// heuristic is the straight chord through the Earth to the target, R·|p − t| on the sphere, which is
/// never longer than the great-circle distance and so never exceeds the cost of any path (a shape's
/// haversine sum is at least the great-circle distance of its ends); it is a metric, so the heuristic is
/// admissible and consistent (and needs one square root instead of haversine's trigonometry) and the first time the target is settled its cost is optimal. With no congestion the
/// route is therefore a shortest-length path on the profile's graph. When the target lies in the
/// component the profile's landmarks cover, the heuristic is the larger of the chord and the ALT
/// landmark bound (`LandmarkBounds`), also feasible, so routes stay cheapest while far fewer vertices
/// are settled (Montgomery campus: 26 instead of 73 per query on average; Helsinki: 115 instead of 459).
///
/// Complexity: O((V + E) log V) per query in the worst case, usually far less. Scratch arrays are
/// stamped per query so a search does not clear O(V) memory.
public struct AStarRouter: Sendable {
    var cost: [Double] = []
    var parentArc: [Int32] = []
    var stamp: [UInt32] = []
    var closed: [UInt32] = []
    var generation: UInt32 = 0
    /// Forward A* marks (`2·markGeneration` reached this query, `2·markGeneration + 1` settled).
    var mark: [UInt32] = []
    var markGeneration: UInt32 = 0
    /// Forward A*: the bound from each vertex reached this query to the target (valid where `mark` says reached).
    var targetBound: [Double] = []
    var heap = QuaternaryHeap()
    /// The last route's arcs from the target back to the start (reused between queries).
    var pathArcs: [Int32] = []
    /// The current query's start vertices with the cost of reaching each from the start (reused).
    var seeds: [SearchSeed] = []
    /// The current query's target entry vertices, sorted by vertex (reused).
    var entries: [SearchEntry] = []
    /// The current query's routes that reach a target without any vertex (same edge; reused).
    var directs: [SearchEntry] = []
    /// Landmark distances of the current target (`LandmarkBounds` row layout; empty: chord bound only).
    var targetRow: [Double] = []
    /// Whether forward A* also uses the graph's landmark bounds (`LandmarkBounds`, the ALT method);
    /// off, it uses the chord bound alone. Either way routes are cheapest; on the bundled campuses the
    /// landmarks halve or better the vertices settled per query.
    public var usesLandmarks = true
    /// Vertices settled by the last query (for benchmarks and tests).
    public internal(set) var settledCount = 0

    /// Creates an empty router; it sizes itself to the graph on first use.
    public init() {}

    /// Projects both ends onto the profile's nearest usable edges (within `snapMetres`, large components
    /// preferred by `SnapRule.standard`) and returns the cheapest route between the projected points.
    /// `slowdown`, when given, holds one factor ≥ 1 per edge (see `WeidmannSpeed.slowdown`).
    public mutating func route(
        in graph: CampusGraph, from: GeoPoint, to: GeoPoint, profile p: Int,
        slowdown: [Double]? = nil, snapMetres: Double = 200
    ) -> Route {
        let name = graph.profileNames[p]
        let s = graph.snapToEdge(from, profile: p, maxMetres: snapMetres)
        let t = graph.snapToEdge(to, profile: p, maxMetres: snapMetres)
        guard let s, let t else { return .failed(.noSnap, profile: name, fromSnap: s, toSnap: t) }
        return route(in: graph, fromSnap: s, toSnap: t, profile: p, slowdown: slowdown)
    }

    /// The cheapest route between two vertices under profile `p`.
    public mutating func route(
        in graph: CampusGraph, fromVertex s: Int32, toVertex t: Int32, profile p: Int,
        slowdown: [Double]? = nil
    ) -> Route {
        guard searchTree(graph, s, t, p, slowdown),
            let route = assembleFromParents(graph, from: s, to: t, profile: p, slowdown: slowdown)
        else {
            return .failed(.noRoute, profile: graph.profileNames[p], from: s, to: t)
        }
        return route
    }

    /// Runs A*; returns the steps from `s` to `t`, or nil when unreachable.
    ///
    /// The loop runs over the profile's compact adjacency (`CampusGraph.ProfileAdjacency`) through
    /// unsafe buffer pointers (indices come from the graph's own CSR arrays, built and checked at
    /// graph construction), with a 4-ary heap and generation-stamped scratch arrays: no allocation,
    /// reference counting or clearing per query once the buffers have grown.
    mutating func search(_ g: CampusGraph, _ s: Int32, _ t: Int32, _ p: Int, _ slowdown: [Double]?) -> [RouteStep]? {
        guard searchTree(g, s, t, p, slowdown) else { return nil }
        var steps: [RouteStep] = []
        var v = Int(t)
        while v != Int(s) {
            let a = Int(parentArc[v])
            guard a >= 0 else { return nil }
            steps.append(RouteStep(edge: g.arcEdge[a], forward: g.arcForward[a]))
            v = Int(g.arcTail[a])
        }
        steps.reverse()
        return steps
    }

    /// Runs A* from `s` until `t` is settled; true when `t` was reached, its path then being the chain
    /// of `parentArc` entries from `t` back to `s` (arcs of the full adjacency).
    mutating func searchTree(_ g: CampusGraph, _ s: Int32, _ t: Int32, _ p: Int, _ slowdown: [Double]?) -> Bool {
        let n = g.vertices.count
        guard Int(s) < n, Int(t) < n, s >= 0, t >= 0, p < g.profiles.count else { return false }
        seeds.removeAll(keepingCapacity: true)
        seeds.append(SearchSeed(vertex: s, cost: 0, forward: true))
        entries.removeAll(keepingCapacity: true)
        entries.append(SearchEntry(vertex: t, cost: 0, forward: true, target: 0))
        directs.removeAll(keepingCapacity: true)
        // The target's own landmark row: the bound is then exactly the vertex-to-vertex ALT bound.
        let adjacency = g.adjacency(p)
        let landmarks = adjacency.landmarks
        targetRow.removeAll(keepingCapacity: true)
        if usesLandmarks && adjacency.component[Int(t)] == landmarks.component {
            let row = 2 * landmarks.count * Int(t)
            targetRow.append(contentsOf: landmarks.distances[row..<(row + 2 * landmarks.count)])
        }
        let x = 3 * Int(t)
        return searchGoal(g, p, slowdown, goal: (g.vertexXYZ[x], g.vertexXYZ[x + 1], g.vertexXYZ[x + 2])) != nil
    }

    /// The route from `s` to `t` read off the parent arcs of the last `searchTree`: one walk back from
    /// `t` into the router's arc buffer (counting points and node ids), then each output array is
    /// allocated once at its final size and filled in walking order from the graph's flat shape arrays.
    /// Same route, length and duration as `assemble` on the same steps. O(route points).
    mutating func assembleFromParents(
        _ g: CampusGraph, from s: Int32, to t: Int32, profile p: Int,
        slowdown: [Double]?
    ) -> Route? {
        pathArcs.removeAll(keepingCapacity: true)
        let start = g.vertices[Int(s)]
        var pointCount = 1
        var idCount = start.osmID == nil ? 0 : 1
        var v = Int(t)
        while v != Int(s) {
            let a = Int(parentArc[v])
            guard a >= 0 else { return nil }
            pathArcs.append(Int32(truncatingIfNeeded: a))
            let e = Int(g.arcEdge[a])
            pointCount += max(0, g.shapeOffsets[e + 1] - g.shapeOffsets[e] - 1)
            idCount += max(0, g.nodeIDOffsets[e + 1] - g.nodeIDOffsets[e] - 1)
            v = Int(g.arcTail[a])
        }
        let k = pathArcs.count
        var length = 0.0
        var duration = 0.0
        let speed = g.profileSpeeds[p]
        var steps: [RouteStep] = []
        var ids: [Int64] = []
        var pts: [GeoPoint] = []
        pathArcs.withUnsafeBufferPointer { path in
            g.arcEdge.withUnsafeBufferPointer { arcEdge in
                g.arcForward.withUnsafeBufferPointer { arcForward in
                    g.shapeOffsets.withUnsafeBufferPointer { shapeOffsets in
                        g.nodeIDOffsets.withUnsafeBufferPointer { idOffsets in
                            g.shapePoints.withUnsafeBufferPointer { shapePoints in
                                g.shapeNodeIDs.withUnsafeBufferPointer { nodeIDs in
                                    g.edgeLengths.withUnsafeBufferPointer { edgeLengths in
                                        steps = [RouteStep](unsafeUninitializedCapacity: k) { out, count in
                                            for j in 0..<k {
                                                let a = Int(path[k - 1 - j])
                                                out[j] = RouteStep(edge: arcEdge[a], forward: arcForward[a])
                                            }
                                            count = k
                                        }
                                        pts = Self.gatherAlongPath(
                                            path, arcEdge: arcEdge, arcForward: arcForward, offsets: shapeOffsets,
                                            values: shapePoints, first: start.location, capacity: pointCount)
                                        ids = Self.gatherAlongPath(
                                            path, arcEdge: arcEdge, arcForward: arcForward, offsets: idOffsets,
                                            values: nodeIDs, first: start.osmID, capacity: idCount)
                                        if let slowdown {
                                            for j in 0..<k {
                                                let e = Int(arcEdge[Int(path[k - 1 - j])])
                                                length += edgeLengths[e]
                                                duration += edgeLengths[e] * slowdown[e] / speed
                                            }
                                        } else {
                                            for j in 0..<k {
                                                let e = Int(arcEdge[Int(path[k - 1 - j])])
                                                length += edgeLengths[e]
                                                duration += edgeLengths[e] * 1 / speed
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return Route(
            status: .ok, profile: g.profileNames[p], fromVertex: s, toVertex: t, steps: steps, nodeIDs: ids,
            points: pts, lengthMetres: length, durationSeconds: duration)
    }

    /// The values of the edges of `path` (arc indices, last arc first) in walking order after `first`:
    /// edge e's values are `values[offsets[e]..<offsets[e + 1]]`, reversed on a backward arc, each edge's
    /// first one left out (it is the previous edge's last). `capacity` is the exact count. O(count).
    @inline(__always)
    static func gatherAlongPath<T>(
        _ path: UnsafeBufferPointer<Int32>, arcEdge: UnsafeBufferPointer<Int32>, arcForward: UnsafeBufferPointer<Bool>,
        offsets: UnsafeBufferPointer<Int>, values: UnsafeBufferPointer<T>, first: T?, capacity: Int
    ) -> [T] {
        let k = path.count
        return [T](unsafeUninitializedCapacity: capacity) { out, count in
            var o = 0
            if let first {
                out[0] = first
                o = 1
            }
            for j in 0..<k {
                let a = Int(path[k - 1 - j])
                let e = Int(arcEdge[a])
                let lo = offsets[e]
                let hi = offsets[e + 1]
                if arcForward[a] {
                    var i = lo + 1
                    while i < hi {
                        out[o] = values[i]
                        o += 1
                        i += 1
                    }
                } else {
                    var i = hi - 2
                    while i >= lo {
                        out[o] = values[i]
                        o += 1
                        i -= 1
                    }
                }
            }
            count = o
        }
    }

}
