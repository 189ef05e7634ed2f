import FieldtestData

/// Judges a path given as OSM node ids on its own terms: every consecutive pair of nodes must be
/// adjacent along one way of the map that the profile may walk in that direction, and the path's
/// length is recomputed from the map's node positions (haversine), never taken from the answer.
///
/// This is the routing contract an external routing system is held to (docs/system-protocol.md):
/// an answer is judged on the path it reports, not re-snapped onto the harness's own routes, so a
/// correct router with other snapping is not penalised, and a path through a wall is never
/// "shorter than optimal" — it is counted as using an edge that does not exist or is forbidden.
///
/// Building the index is O(total way nodes); each audit is O(path length).
public struct PathAudit: Sendable {
    /// A consecutive pair of nodes of a path that the contract does not allow.
    public struct Offence: Sendable, Equatable, CustomStringConvertible {
        /// Why the pair is not allowed.
        public enum Kind: String, Sendable {
            /// No way of the map joins the two nodes (or a node is not on the map).
            case nonexistentEdge = "nonexistent_edge"
            /// A way joins them, but the profile may not walk it in that direction.
            case forbiddenEdge = "forbidden_edge"
        }
        /// What is wrong.
        public var kind: Kind
        /// 0-based index of the pair's first node in the path.
        public var index: Int
        /// The pair's OSM node ids.
        public var from: Int64, to: Int64

        /// An offence of `kind` at the pair `from`→`to` that starts at 0-based `index` of the path.
        public init(kind: Kind, index: Int, from: Int64, to: Int64) {
            self.kind = kind
            self.index = index
            self.from = from
            self.to = to
        }

        public var description: String { "\(kind.rawValue) \(from)→\(to) (step \(index + 1))" }
    }

    /// The verdict on one path.
    public enum Verdict: Sendable, Equatable {
        /// Every step is allowed; the path's length, metres, recomputed from the map.
        case valid(lengthMetres: Double)
        /// The first step that is not allowed.
        case offence(Offence)
    }

    struct Pair: Hashable {
        var a: Int64, b: Int64
    }

    /// Directed node pairs the profile may walk, and every pair joined by a way in either direction.
    let allowed: Set<Pair>
    let joined: Set<Pair>
    let positions: [Int64: GeoPoint]

    /// The contract of `graph`'s profile `p`.
    public init(graph: CampusGraph, profile p: Int) {
        var allowed = Set<Pair>()
        var joined = Set<Pair>()
        var positions: [Int64: GeoPoint] = [:]
        for (i, e) in graph.edges.enumerated() where e.nodeIDs.count == e.shape.count {
            let bits = graph.access[p][i]
            for k in 0..<e.nodeIDs.count {
                positions[e.nodeIDs[k]] = e.shape[k]
                guard k > 0 else { continue }
                let a = e.nodeIDs[k - 1]
                let b = e.nodeIDs[k]
                joined.insert(Pair(a: a, b: b))
                joined.insert(Pair(a: b, b: a))
                if bits & CampusGraph.forwardBit != 0 { allowed.insert(Pair(a: a, b: b)) }
                if bits & CampusGraph.backwardBit != 0 { allowed.insert(Pair(a: b, b: a)) }
            }
        }
        self.allowed = allowed
        self.joined = joined
        self.positions = positions
    }

    /// The position of node `id`, when it lies on a way of the map (with node ids).
    public func position(of id: Int64) -> GeoPoint? { positions[id] }

    /// The verdict on the path through `nodes` (a single node of the map is a valid path of length 0;
    /// an empty path has no length to judge and is valid with length 0). A node that is on no way of
    /// the map makes its step a `nonexistent_edge` (a lone such node: the pair of it with itself).
    public func audit(_ nodes: [Int64]) -> Verdict {
        var length = 0.0
        if let first = nodes.first, positions[first] == nil {
            let next = nodes.count > 1 ? nodes[1] : first
            return .offence(Offence(kind: .nonexistentEdge, index: 0, from: first, to: next))
        }
        for k in nodes.indices.dropFirst() {
            let pair = Pair(a: nodes[k - 1], b: nodes[k])
            if pair.a == pair.b { continue }
            guard joined.contains(pair), let p = positions[pair.a], let q = positions[pair.b] else {
                return .offence(Offence(kind: .nonexistentEdge, index: k - 1, from: pair.a, to: pair.b))
            }
            guard allowed.contains(pair) else {
                return .offence(Offence(kind: .forbiddenEdge, index: k - 1, from: pair.a, to: pair.b))
            }
            length += Geodesy.haversineMetres(p, q)
        }
        return .valid(lengthMetres: length)
    }
}
