import CampusRouting
import FieldtestData
import HeapModule

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
public struct ShortestPathOracle: Sendable {
    /// The graph searched.
    public let graph: CampusGraph
    /// Per profile, per vertex: the arcs leaving it as (target vertex, metres).
    private let arcs: [[[(Int32, Double)]]]

    /// An oracle over `graph`: its arcs per profile, built once. O(profiles · E).
    public init(graph: CampusGraph) {
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
    public enum Answer: Equatable, Sendable {
        /// An end is farther than `snapMetres` from every usable edge of the profile.
        case noSnap
        /// The ends snap but no walk joins them.
        case noRoute
        /// The length of the shortest walk, metres.
        case shortest(Double)

        /// The status name `fieldtest route` uses for it.
        public var status: String {
            switch self {
            case .noSnap: "no_snap"
            case .noRoute: "no_route"
            case .shortest: "ok"
            }
        }
    }

    /// The shortest walk from `from` to `to` under profile `p`.
    public func shortest(from: GeoPoint, to: GeoPoint, profile p: Int, snapMetres: Double = 200) -> Answer {
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
        var seeds: [(vertex: Int32, metres: Double)] = []
        if sBits & CampusGraph.forwardBit != 0 { seeds.append((sEdge.to, s.metresToEnd)) }
        if sBits & CampusGraph.backwardBit != 0 { seeds.append((sEdge.from, s.metresFromStart)) }
        // The target is entered from its edge's `from` (walking forwards) or `to` (backwards).
        let entries: [(Int32, Double)] =
            (tBits & CampusGraph.forwardBit != 0 ? [(tEdge.from, t.metresFromStart)] : [])
            + (tBits & CampusGraph.backwardBit != 0 ? [(tEdge.to, t.metresToEnd)] : [])
        _ = distances(from: seeds, profile: p, bound: best) { v, d in
            for (u, rest) in entries where u == v { best = min(best, d + rest) }
            return best
        }
        return best.isFinite ? .shortest(best) : .noRoute
    }
}

extension ShortestPathOracle {
    /// Shortest lengths (metres) from `source` to every vertex under profile `p` (infinity where
    /// none reaches). O((V + E) log V).
    public func distances(from source: Int32, profile p: Int) -> [Double] {
        distances(from: [(source, 0)], profile: p, bound: .infinity) { _, _ in .infinity }
    }

    /// Plain Dijkstra from `seeds` (a vertex and the metres already walked to it) under profile `p`:
    /// the shortest lengths found, each vertex handed to `settle` once when its length is final;
    /// `settle` returns the new bound, and the search stops at the first length not below it (lengths
    /// from there on are upper bounds or infinity).
    func distances(
        from seeds: [(vertex: Int32, metres: Double)], profile p: Int, bound: Double,
        settle: (_ vertex: Int32, _ metres: Double) -> Double
    ) -> [Double] {
        var distance = [Double](repeating: .infinity, count: graph.vertices.count)
        var heap = Heap<Entry>()
        func seed(_ v: Int32, _ d: Double) {
            if d < distance[Int(v)] {
                distance[Int(v)] = d
                heap.insert(Entry(metres: d, vertex: v))
            }
        }
        for (v, d) in seeds { seed(v, d) }
        var bound = bound
        let adjacency = arcs[p]
        while let top = heap.popMin() {
            let (d, v) = (top.metres, top.vertex)
            if d >= bound { break }
            if d > distance[Int(v)] { continue }
            bound = settle(v, d)
            for (w, length) in adjacency[Int(v)] { seed(w, d + length) }
        }
        return distance
    }

    /// A vertex waiting in the queue, ordered by its tentative length (metres), then by vertex so
    /// that the order is total.
    struct Entry: Comparable {
        var metres: Double
        var vertex: Int32

        static func < (a: Entry, b: Entry) -> Bool { (a.metres, a.vertex) < (b.metres, b.vertex) }
    }
}
