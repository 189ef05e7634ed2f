import FieldtestData
import Foundation

/// A start vertex of a search: reached from the projected start along part of its edge.
struct SearchSeed: Sendable {
    /// The vertex.
    var vertex: Int32
    /// Cost of the partial edge from the start (length × slowdown), metres.
    var cost: Double
    /// True when the partial edge is walked `from` → `to` (the seed is the edge's `to`).
    var forward: Bool
    /// True when the start is on this vertex itself (no part of the edge is walked).
    var atVertex = false
}

/// A way into a target: from `vertex` along part of the target's edge (or, with `vertex` −1, straight
/// from the start along the edge both share).
struct SearchEntry: Sendable {
    /// The entry vertex (−1 for a same-edge route).
    var vertex: Int32
    /// Cost of the partial edge to the target (length × slowdown), metres.
    var cost: Double
    /// True when the partial edge is walked `from` → `to`.
    var forward: Bool
    /// Index of the target reached (several for a nearest-exit search).
    var target: Int
    /// True when the target is on this vertex itself (no part of the edge is walked).
    var atVertex = false
}

extension AStarRouter {
    /// The cheapest route between two projected points (`CampusGraph.snapToEdge`) under profile `p`.
    ///
    /// The start's edge is split virtually at its projection: the search starts from the edge's ends,
    /// each at the cost of the part of the edge walked to reach it (only in directions the profile
    /// allows), and finishes at a virtual target vertex entered from the end edge's ends the same way;
    /// when both ends share an edge, walking straight along it is a candidate too. The graph is not
    /// changed, so one graph serves any number of routers on any threads.
    ///
    /// The A* bounds stay feasible for the virtual target: the chord to the projected point never
    /// exceeds any path there, and the landmark distances of the target are derived exactly from its
    /// two edge ends (d(L, T) = min over entries of d(L, u) + c(u, T), and d(T, L) likewise through the
    /// arcs leaving T), so both bounds are admissible and consistent and the route is optimal on the
    /// virtually split graph. Forward A* answers these queries whatever `algorithm` says.
    public mutating func route(
        in g: CampusGraph, fromSnap s: EdgeSnap, toSnap t: EdgeSnap, profile p: Int,
        slowdown: [Double]? = nil
    ) -> Route {
        let name = g.profileNames[p]
        guard p < g.profiles.count, Int(s.edge) < g.edges.count, Int(t.edge) < g.edges.count,
            slowdown.map({ $0.count >= g.edges.count }) ?? true
        else {
            return .failed(.noRoute, profile: name, fromSnap: s, toSnap: t)
        }
        prepareStart(g, s, p, slowdown)
        entries.removeAll(keepingCapacity: true)
        directs.removeAll(keepingCapacity: true)
        addTarget(g, t, index: 0, start: s, p, slowdown)
        targetRow.removeAll(keepingCapacity: true)
        let adjacency = g.adjacency(p)
        let landmarks = adjacency.landmarks
        let te = g.edges[Int(t.edge)]
        if usesLandmarks, landmarks.count > 0, adjacency.component[Int(te.from)] == landmarks.component {
            appendTargetRow(g, t, landmarks, p)
        }
        let xyz = CampusGraph.unitVector(t.point)
        guard let found = searchGoal(g, p, slowdown, goal: (xyz[0], xyz[1], xyz[2])) else {
            return .failed(.noRoute, profile: name, fromSnap: s, toSnap: t)
        }
        return assembleSnapped(g, p, slowdown, from: s, to: t, via: found)
    }

    /// Fills `seeds` with the ends of `s`'s edge the profile lets the start reach (a loop edge keeps
    /// the cheaper way to its one vertex). A start on an end vertex starts at that vertex, whatever the
    /// edge's direction: the user stands on the junction, not on the edge.
    mutating func prepareStart(_ g: CampusGraph, _ s: EdgeSnap, _ p: Int, _ slowdown: [Double]?) {
        seeds.removeAll(keepingCapacity: true)
        let e = Int(s.edge)
        let bits = g.access[p][e]
        let f = slowdown?[e] ?? 1
        let edge = g.edges[e]
        func add(_ seed: SearchSeed) {
            if let i = seeds.firstIndex(where: { $0.vertex == seed.vertex }) {
                if seed.cost < seeds[i].cost { seeds[i] = seed }
            } else {
                seeds.append(seed)
            }
        }
        let last = Double(g.shapeOffsets[e + 1] - g.shapeOffsets[e] - 1)
        if s.position == 0 {
            add(SearchSeed(vertex: edge.from, cost: 0, forward: false, atVertex: true))
        } else if bits & CampusGraph.backwardBit != 0 {
            add(SearchSeed(vertex: edge.from, cost: s.metresFromStart * f, forward: false))
        }
        if s.position == last {
            add(SearchSeed(vertex: edge.to, cost: 0, forward: true, atVertex: true))
        } else if bits & CampusGraph.forwardBit != 0 {
            add(SearchSeed(vertex: edge.to, cost: s.metresToEnd * f, forward: true))
        }
    }

    /// Adds the entries into target `t` (number `index`) and, when it shares the start's edge and the
    /// profile allows walking from one to the other along it, the same-edge route. A target on an end
    /// vertex is entered at that vertex whatever the edge's direction. Keeps `entries` sorted by vertex.
    mutating func addTarget(
        _ g: CampusGraph, _ t: EdgeSnap, index: Int, start s: EdgeSnap, _ p: Int, _ slowdown: [Double]?
    ) {
        let e = Int(t.edge)
        let bits = g.access[p][e]
        let f = slowdown?[e] ?? 1
        let edge = g.edges[e]
        let last = Double(g.shapeOffsets[e + 1] - g.shapeOffsets[e] - 1)
        if t.position == 0 {
            entries.append(SearchEntry(vertex: edge.from, cost: 0, forward: true, target: index, atVertex: true))
        } else if bits & CampusGraph.forwardBit != 0 {
            entries.append(SearchEntry(vertex: edge.from, cost: t.metresFromStart * f, forward: true, target: index))
        }
        if t.position == last {
            entries.append(SearchEntry(vertex: edge.to, cost: 0, forward: false, target: index, atVertex: true))
        } else if bits & CampusGraph.backwardBit != 0 {
            entries.append(SearchEntry(vertex: edge.to, cost: t.metresToEnd * f, forward: false, target: index))
        }
        entries.sort { ($0.vertex, $0.target, $0.cost) < ($1.vertex, $1.target, $1.cost) }
        guard t.edge == s.edge else { return }
        let forward = t.position >= s.position
        let allowed = forward ? bits & CampusGraph.forwardBit != 0 : bits & CampusGraph.backwardBit != 0
        if allowed || (t.position == s.position && bits != 0) {
            let along = g.alongMetres(edge: e, from: s.position, to: t.position)
            directs.append(
                SearchEntry(vertex: -1, cost: along * f, forward: allowed ? forward : !forward, target: index))
        }
    }

    /// Appends to `targetRow` the landmark distances of target `t`: to it through its entries and from
    /// it through the parts of its edge it may leave by (lengths, not congested costs, so they bound
    /// every cost from below).
    mutating func appendTargetRow(_ g: CampusGraph, _ t: EdgeSnap, _ landmarks: LandmarkBounds, _ p: Int) {
        let l = landmarks.count
        let bits = g.access[p][Int(t.edge)]
        let edge = g.edges[Int(t.edge)]
        var into: [(Int, Double)] = []
        var out: [(Int, Double)] = []
        let last = Double(g.shapeOffsets[Int(t.edge) + 1] - g.shapeOffsets[Int(t.edge)] - 1)
        if t.position == 0 || t.position == last {
            // The target is the vertex itself.
            let v = Int(t.position == 0 ? edge.from : edge.to)
            into.append((v, 0))
            out.append((v, 0))
        } else if bits & CampusGraph.forwardBit != 0 {
            into.append((Int(edge.from), t.metresFromStart))
            out.append((Int(edge.to), t.metresToEnd))
        }
        if t.position != 0 && t.position != last && bits & CampusGraph.backwardBit != 0 {
            into.append((Int(edge.to), t.metresToEnd))
            out.append((Int(edge.from), t.metresFromStart))
        }
        for k in 0..<l {
            targetRow.append(into.map { landmarks.distances[2 * l * $0.0 + k] + $0.1 }.min() ?? .infinity)
        }
        for k in 0..<l {
            targetRow.append(out.map { $0.1 + landmarks.distances[2 * l * $0.0 + l + k] }.min() ?? .infinity)
        }
    }

    /// Sizes the per-vertex buffers for a graph of `n` vertices (reallocated only when the graph changes)
    /// and starts a new mark generation, so no buffer is cleared between queries.
    mutating func prepareSearchBuffers(vertices n: Int) {
        if cost.count != n {
            cost = [Double](repeating: 0, count: n)
            parentArc = [Int32](repeating: -1, count: n)
            stamp = [UInt32](repeating: 0, count: n)
            closed = [UInt32](repeating: 0, count: n)
            generation = 0
        }
        if mark.count != n || targetBound.count != n {
            mark = [UInt32](repeating: 0, count: n)
            targetBound = [Double](repeating: 0, count: n)
            markGeneration = 0
        }
        markGeneration &+= 1
        if markGeneration > 0x7FFF_FFFF {
            for i in 0..<n { mark[i] = 0 }
            markGeneration = 1
        }
    }

    /// A* (Dijkstra when `goal` is nil) from `seeds` to the cheapest of the targets described by
    /// `entries` and `directs`; `goal` is the unit vector of the single target's point and `targetRow`
    /// its landmark row (empty: chord bound only). Returns the cost and the entry used (an index into
    /// `entries`, or −1 − i for `directs[i]`); the path to the entry vertex is the chain of `parentArc`
    /// back to a seed (parent −1).
    ///
    /// The search stops once the smallest key popped is at least the best target cost found, which,
    /// with a consistent bound, is optimal. Same unsafe, allocation-free loop as before over the
    /// profile's compact adjacency.
    mutating func searchGoal(
        _ g: CampusGraph, _ p: Int, _ slowdown: [Double]?,
        goal: (Double, Double, Double)?
    ) -> (cost: Double, entry: Int)? {
        let n = g.vertices.count
        guard p < g.profiles.count, !seeds.isEmpty else {
            settledCount = 0
            return nil
        }
        if let slowdown, slowdown.count < g.edges.count { return nil }
        prepareSearchBuffers(vertices: n)
        let open = markGeneration << 1
        let shut = open | 1
        let adjacency = g.adjacency(p)
        var best = Double.infinity
        var bestEntry = Int.min
        for (i, d) in directs.enumerated() where d.cost < best {
            best = d.cost
            bestEntry = -1 - i
        }
        // No path joins different components: only a same-edge route can then answer.
        let startComponent = adjacency.component[Int(seeds[0].vertex)]
        if !entries.contains(where: { adjacency.component[Int($0.vertex)] == startComponent }) {
            settledCount = 0
            return bestEntry == Int.min ? nil : (best, bestEntry)
        }
        var heap = QuaternaryHeap()
        swap(&heap, &self.heap)
        defer { swap(&heap, &self.heap) }
        heap.removeAll()
        let scale = Geodesy.earthRadiusMetres * (1 - 1e-9)
        let landmarks = adjacency.landmarks
        let l = goal != nil && targetRow.count == 2 * landmarks.count ? landmarks.count : 0
        let heuristic = goal != nil
        let (tx, ty, tz) = goal ?? (0, 0, 0)
        var settled = 0
        let congested = slowdown != nil
        (slowdown ?? []).withUnsafeBufferPointer { factors in
            g.vertexXYZ.withUnsafeBufferPointer { xyz in
                landmarks.distances.withUnsafeBufferPointer { bounds in
                    targetRow.withUnsafeBufferPointer { row in
                        entries.withUnsafeBufferPointer { entries in
                            seeds.withUnsafeBufferPointer { seeds in
                                adjacency.offsets.withUnsafeBufferPointer { offsets in
                                    adjacency.records.withUnsafeBufferPointer { records in
                                        adjacency.edges.withUnsafeBufferPointer { arcEdges in
                                            cost.withUnsafeMutableBufferPointer { cost in
                                                parentArc.withUnsafeMutableBufferPointer { parent in
                                                    mark.withUnsafeMutableBufferPointer { mark in
                                                        targetBound.withUnsafeMutableBufferPointer { targetBound in
                                                            /// Lower bound on the cost from v to the target (0 for a Dijkstra search).
                                                            @inline(__always) func h(_ v: Int) -> Double {
                                                                guard heuristic else { return 0 }
                                                                let dx = xyz[3 * v] - tx
                                                                let dy = xyz[3 * v + 1] - ty
                                                                let dz = xyz[3 * v + 2] - tz
                                                                let chord =
                                                                    scale * (dx * dx + dy * dy + dz * dz).squareRoot()
                                                                guard l > 0 else { return chord }
                                                                return LandmarkBounds.bound(
                                                                    bounds, count: l, rowV: 2 * l * v, target: row,
                                                                    floor: chord)
                                                            }
                                                            for seed in seeds {
                                                                let v = Int(seed.vertex)
                                                                cost[v] = seed.cost
                                                                parent[v] = -1
                                                                mark[v] = open
                                                                targetBound[v] = h(v)
                                                                let f = seed.cost + targetBound[v]
                                                                if f < .infinity { heap.push(f, seed.vertex) }
                                                            }
                                                            while let (key, v32) = heap.pop() {
                                                                if key >= best { break }
                                                                let v = Int(v32)
                                                                if mark[v] == shut { continue }
                                                                mark[v] = shut
                                                                settled += 1
                                                                // Entries at v (binary search in the sorted entries).
                                                                var lo = 0
                                                                var hi = entries.count
                                                                while lo < hi {
                                                                    let mid = (lo + hi) >> 1
                                                                    if entries[mid].vertex < v32 {
                                                                        lo = mid + 1
                                                                    } else {
                                                                        hi = mid
                                                                    }
                                                                }
                                                                while lo < entries.count && entries[lo].vertex == v32 {
                                                                    let c = cost[v] + entries[lo].cost
                                                                    if c < best {
                                                                        best = c
                                                                        bestEntry = lo
                                                                    }
                                                                    lo += 1
                                                                }
                                                                if best <= key { break }
                                                                let base = cost[v]
                                                                var a = Int(offsets[v])
                                                                let end = Int(offsets[v + 1])
                                                                while a < end {
                                                                    let r = records[a]
                                                                    let w = Int(r.target)
                                                                    let m = mark[w]
                                                                    if m != shut {
                                                                        let nc =
                                                                            base
                                                                            + (congested
                                                                                ? r.length * factors[Int(arcEdges[a])]
                                                                                : r.length)
                                                                        if m != open || nc < cost[w] {
                                                                            // A vertex reached before keeps its bound.
                                                                            if m != open { targetBound[w] = h(w) }
                                                                            mark[w] = open
                                                                            cost[w] = nc
                                                                            parent[w] = r.arc
                                                                            let f = nc + targetBound[w]
                                                                            if f < .infinity { heap.push(f, r.target) }
                                                                        }
                                                                    }
                                                                    a += 1
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
                        }
                    }
                }
            }
        }
        settledCount = settled
        return bestEntry == Int.min ? nil : (best, bestEntry)
    }

    /// The route found by `searchGoal` from projected start `s` to target `t`: the part of `s`'s edge to
    /// the seed the path left from, the whole edges of the parent chain, and the part of `t`'s edge from
    /// the entry vertex (or the one same-edge piece). Points run from the projected start to the projected
    /// end (a projection onto a node is that node); node ids are the shape nodes passed. O(route points).
    func assembleSnapped(
        _ g: CampusGraph, _ p: Int, _ slowdown: [Double]?, from s: EdgeSnap, to t: EdgeSnap,
        via found: (cost: Double, entry: Int)
    ) -> Route {
        let speed = g.profileSpeeds[p]
        func factor(_ e: Int32) -> Double { slowdown?[Int(e)] ?? 1 }
        func last(_ e: Int32) -> Double { Double(g.shapeOffsets[Int(e) + 1] - g.shapeOffsets[Int(e)] - 1) }
        var pieces: [(edge: Int32, from: Double, to: Double)] = []
        var steps: [RouteStep] = []
        var head: PartialStep?
        var tail: PartialStep?
        var fromVertex: Int32?
        var toVertex: Int32?
        var length = 0.0
        var duration = 0.0
        if found.entry < 0 {
            let d = directs[-1 - found.entry]
            let metres = g.alongMetres(edge: Int(s.edge), from: s.position, to: t.position)
            head = PartialStep(edge: s.edge, forward: d.forward, lengthMetres: metres)
            pieces.append((s.edge, s.position, t.position))
            length = metres
            duration = metres * factor(s.edge) / speed
        } else {
            let entry = entries[found.entry]
            var v = Int(entry.vertex)
            var arcs: [Int32] = []
            while parentArc[v] >= 0 {
                let a = Int(parentArc[v])
                arcs.append(Int32(a))
                v = Int(g.arcTail[a])
            }
            let seed = seeds.first { Int($0.vertex) == v } ?? seeds[0]
            fromVertex = Int32(v)
            toVertex = entry.vertex
            // A start on the seed vertex walks none of its edge: no head, the vertex is the first node.
            let headMetres = seed.atVertex ? 0 : seed.forward ? s.metresToEnd : s.metresFromStart
            if !seed.atVertex { head = PartialStep(edge: s.edge, forward: seed.forward, lengthMetres: headMetres) }
            pieces.append((s.edge, s.position, seed.atVertex ? s.position : seed.forward ? last(s.edge) : 0))
            length += headMetres
            duration += headMetres * factor(s.edge) / speed
            for a in arcs.reversed() {
                let e = g.arcEdge[Int(a)]
                let forward = g.arcForward[Int(a)]
                steps.append(RouteStep(edge: e, forward: forward))
                pieces.append((e, forward ? 0 : last(e), forward ? last(e) : 0))
                length += g.edgeLengths[Int(e)]
                duration += g.edgeLengths[Int(e)] * factor(e) / speed
            }
            let tailMetres = entry.atVertex ? 0 : entry.forward ? t.metresFromStart : t.metresToEnd
            if !entry.atVertex { tail = PartialStep(edge: t.edge, forward: entry.forward, lengthMetres: tailMetres) }
            pieces.append((t.edge, entry.atVertex ? t.position : entry.forward ? 0 : last(t.edge), t.position))
            length += tailMetres
            duration += tailMetres * factor(t.edge) / speed
        }
        var (points, ids) = Self.shape(of: pieces, in: g, after: s.isOnNode ? nil : s.point)
        if !t.isOnNode { points.append(t.point) }
        return Route(
            status: .ok, profile: g.profileNames[p], fromVertex: fromVertex, toVertex: toVertex, steps: steps,
            nodeIDs: ids, points: points, lengthMetres: length, durationSeconds: duration,
            fromSnap: s, toSnap: t, head: head, tail: tail)
    }
    /// The shape points (after `first`, when given) and node ids passed along `pieces` (edge, from and to
    /// positions in shape-point units), ends included when they are nodes; every piece after the first
    /// begins at the vertex the previous one ended on, which is not repeated.
    static func shape(of pieces: [(edge: Int32, from: Double, to: Double)], in g: CampusGraph, after first: GeoPoint?)
        -> (points: [GeoPoint], ids: [Int64])
    {
        var points: [GeoPoint] = first.map { [$0] } ?? []
        var ids: [Int64] = []
        for (k, piece) in pieces.enumerated() {
            let e = Int(piece.edge)
            let base = g.shapeOffsets[e]
            let idBase = g.nodeIDOffsets[e]
            let hasIDs = g.nodeIDOffsets[e + 1] - idBase == g.shapeOffsets[e + 1] - base
            var indices: StrideThrough<Int>
            if piece.to >= piece.from {
                indices = stride(from: Int(piece.from.rounded(.up)), through: Int(piece.to.rounded(.down)), by: 1)
            } else {
                indices = stride(from: Int(piece.from.rounded(.down)), through: Int(piece.to.rounded(.up)), by: -1)
            }
            for (j, i) in indices.enumerated() {
                if k > 0 && j == 0 { continue }
                points.append(g.shapePoints[base + i])
                if hasIDs { ids.append(g.shapeNodeIDs[idBase + i]) }
            }
        }
        return (points, ids)
    }
}
