import CampusRouting
import FieldtestData

/// The exact shortest walk between two route ends on a campus graph, found by a plain Dijkstra
/// written for the evaluator: the reference `evaluate route` scores routers against, sharing no
/// search code with the built-in A* router.
///
/// The ends are the graph's own projections (`CampusGraph.snapToEdge`, the task's definition of
/// where a route starts and ends, as in `fieldtest route`). From the start's projection the walk
/// leaves along its edge towards either end the profile allows (the part of the edge walked is
/// `metresToEnd` forwards, `metresFromStart` backwards), crosses whole edges in their allowed
/// directions, and enters the target's edge the same way; when both ends lie on one edge, walking
/// straight along it (in an allowed direction) is a candidate too. Lengths are the edges' own
/// `lengthMetres`. O((V + E) log V) per query.
struct ShortestPathOracle {
    /// The graph searched.
    let graph: CampusGraph
    /// Per profile, per vertex: the arcs leaving it as (target vertex, metres).
    private let arcs: [[[(Int32, Double)]]]

    init(graph: CampusGraph) {
        self.graph = graph
        arcs = graph.profiles.indices.map { p in
            var out = [[(Int32, Double)]](repeating: [], count: graph.vertices.count)
            for (e, edge) in graph.edges.enumerated() {
                let bits = graph.access[p][e]
                if bits & CampusGraph.forwardBit != 0 { out[Int(edge.from)].append((edge.to, edge.lengthMetres)) }
                if bits & CampusGraph.backwardBit != 0 { out[Int(edge.to)].append((edge.from, edge.lengthMetres)) }
            }
            return out
        }
    }

    /// What the oracle finds for one query.
    enum Answer: Equatable {
        /// An end is farther than `snapMetres` from every usable edge of the profile.
        case noSnap
        /// The ends snap but no walk joins them.
        case noRoute
        /// The length of the shortest walk, metres.
        case shortest(Double)

        /// The status name `fieldtest route` uses for it.
        var status: String {
            switch self {
            case .noSnap: "no_snap"
            case .noRoute: "no_route"
            case .shortest: "ok"
            }
        }
    }

    /// The shortest walk from `from` to `to` under profile `p`.
    func shortest(from: GeoPoint, to: GeoPoint, profile p: Int, snapMetres: Double = 200) -> Answer {
        guard let s = graph.snapToEdge(from, profile: p, maxMetres: snapMetres),
            let t = graph.snapToEdge(to, profile: p, maxMetres: snapMetres)
        else { return .noSnap }
        let sEdge = graph.edges[Int(s.edge)]
        let tEdge = graph.edges[Int(t.edge)]
        let sBits = graph.access[p][Int(s.edge)]
        let tBits = graph.access[p][Int(t.edge)]
        var best = Double.infinity
        if s.edge == t.edge {
            let along = t.metresFromStart - s.metresFromStart
            if along >= 0, sBits & CampusGraph.forwardBit != 0 { best = along }
            if along <= 0, sBits & CampusGraph.backwardBit != 0 { best = min(best, -along) }
        }
        var distance = [Double](repeating: .infinity, count: graph.vertices.count)
        var heap = MinHeap()
        func seed(_ v: Int32, _ d: Double) {
            if d < distance[Int(v)] {
                distance[Int(v)] = d
                heap.push(d, v)
            }
        }
        if sBits & CampusGraph.forwardBit != 0 { seed(sEdge.to, s.metresToEnd) }
        if sBits & CampusGraph.backwardBit != 0 { seed(sEdge.from, s.metresFromStart) }
        // The target is entered from its edge's `from` (walking forwards) or `to` (backwards).
        let entries: [(Int32, Double)] =
            (tBits & CampusGraph.forwardBit != 0 ? [(tEdge.from, t.metresFromStart)] : [])
            + (tBits & CampusGraph.backwardBit != 0 ? [(tEdge.to, t.metresToEnd)] : [])
        let adjacency = arcs[p]
        while let (d, v) = heap.pop() {
            guard d <= distance[Int(v)], d < best else {
                if d >= best { break }
                continue
            }
            for (u, rest) in entries where u == v { best = min(best, d + rest) }
            for (w, length) in adjacency[Int(v)] { seed(w, d + length) }
        }
        return best.isFinite ? .shortest(best) : .noRoute
    }
}

/// A binary min-heap of (distance, vertex).
private struct MinHeap {
    private var items: [(Double, Int32)] = []

    mutating func push(_ d: Double, _ v: Int32) {
        items.append((d, v))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].0 < items[parent].0 else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (Double, Int32)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < items.count, items[l].0 < items[m].0 { m = l }
                if r < items.count, items[r].0 < items[m].0 { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
