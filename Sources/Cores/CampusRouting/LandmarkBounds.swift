/// Landmark lower bounds for A* — the ALT method (A*, Landmarks, Triangle inequality; Goldberg &
/// Harrelson, "Computing the shortest path: A* search meets graph theory", SODA 2005).
///
/// For a landmark L with exact distances d(L, ·) and d(·, L) over a profile's arcs (metres), the
/// triangle inequality gives two lower bounds on the distance from v to t:
/// d(L, t) − d(L, v) and d(v, L) − d(t, L). Their maximum over the landmarks is a feasible potential
/// (admissible and consistent), and so is its maximum with the chord bound, which A* already uses;
/// on campus graphs, whose footways wind between buildings, it is usually much tighter than the
/// straight line, so fewer vertices are settled. Congestion only slows edges (factors ≥ 1), so bounds
/// on length remain bounds on cost.
///
/// Landmarks are chosen by the "farthest" rule in the largest weakly connected component (each next
/// landmark is the vertex farthest from those already chosen); other components fall back to the chord
/// bound. Unreachable distances are +∞; a bound of +∞ proves the vertex cannot reach the target, and a
/// bound that is not a number (∞ − ∞) is ignored. Bounds are shrunk by a relative 10⁻⁹ (and the chord's
/// own margin) so floating-point rounding of the distance sums can never make them overestimate.
///
/// Storage: 2·L doubles per vertex, interleaved per vertex (`d(L_k, v)` then `d(v, L_k)`), so one
/// vertex's bounds are one or two cache lines. Build: 2·L Dijkstra searches (L when every arc has a
/// reverse arc of the same length), O(L·(V + E) log V).
struct LandmarkBounds: Sendable {
    /// Number of landmarks (0 when the graph has no component worth covering).
    let count: Int
    /// Component (smallest vertex index) the landmarks cover.
    let component: Int32
    /// Per vertex v: `distances[2·L·v + k]` = d(L_k, v), `distances[2·L·v + L + k]` = d(v, L_k) (metres, +∞ unreachable).
    let distances: [Double]
    /// Landmark vertices, in the order chosen.
    let landmarks: [Int32]

    /// Relative shrink applied to every landmark bound.
    static let shrink = 1 - 1e-9
    /// Landmarks chosen for a graph of `vertexCount` vertices: 16 up to 262,144 vertices, 8 up to
    /// 1,048,576, then 4 — the bounds take 2·L·8 bytes per vertex (64 MiB at the first limit) and
    /// 2·L Dijkstra searches at load (the whole `bench route` set-up, 62,500-vertex grid included, takes about 1 s).
    static func defaultCount(vertexCount: Int) -> Int {
        vertexCount <= 262_144 ? 16 : vertexCount <= 1_048_576 ? 8 : 4
    }
    /// Components smaller than this are not covered (the chord bound is already close there).
    static let minimumComponentSize = 32

    /// Landmarks as stored (a cache file): `distances` laid out as described on the property.
    init(count: Int, component: Int32, distances: [Double], landmarks: [Int32]) {
        self.count = count
        self.component = component
        self.distances = distances
        self.landmarks = landmarks
    }

    /// No landmarks.
    init() {
        count = 0
        component = -1
        distances = []
        landmarks = []
    }

    /// Chooses up to `count` landmarks in the largest weak component of `adjacency` and computes their
    /// distances to and from every vertex.
    init(forward: Arcs, backward: Arcs, component: [Int32], count: Int? = nil) {
        let n = component.count
        let wanted = count ?? Self.defaultCount(vertexCount: n)
        var sizes: [Int32: Int] = [:]
        for c in component { sizes[c, default: 0] += 1 }
        // Largest component; ties to the smallest root, so the choice is deterministic.
        guard let (root, size) = sizes.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
            size >= Self.minimumComponentSize, wanted > 0
        else {
            self.count = 0
            self.component = -1
            self.distances = []
            self.landmarks = []
            return
        }
        let members = (0..<n).filter { component[$0] == root }
        let l = min(wanted, members.count)
        var from: [[Double]] = []
        var to: [[Double]] = []
        var chosen: [Int32] = []
        // Distance of each member to the chosen set (min over landmarks of either direction's distance).
        var nearest = [Double](repeating: .infinity, count: n)
        // The first landmark is the member farthest from the component's smallest vertex.
        let seed = Self.dijkstra(from: Int(root), forward)
        var next = Self.farthest(members, seed.map { $0.isFinite ? $0 : -1 })
        // Where every arc has its reverse of the same length (most walking profiles), the distances
        // to a landmark are the distances from it: one search per landmark instead of two.
        let symmetric = Self.isSymmetric(forward, backward)
        while chosen.count < l {
            guard !chosen.contains(Int32(next)) else { break }
            chosen.append(Int32(next))
            let f = Self.dijkstra(from: next, forward)
            let b = symmetric ? f : Self.dijkstra(from: next, backward)
            from.append(f)
            to.append(b)
            for v in members { nearest[v] = min(nearest[v], f[v], b[v]) }
            next = Self.farthest(members, nearest.map { $0.isFinite ? $0 : .greatestFiniteMagnitude })
        }
        let k = chosen.count
        var distances = [Double](repeating: .infinity, count: 2 * k * n)
        for v in 0..<n {
            for j in 0..<k {
                distances[2 * k * v + j] = from[j][v]
                distances[2 * k * v + k + j] = to[j][v]
            }
        }
        self.count = k
        self.component = root
        self.distances = distances
        self.landmarks = chosen
    }

    /// The landmark lower bound on the distance from v to t, or `floor` when that is larger: the maximum
    /// over landmarks of d(L,t) − d(L,v) and d(v,L) − d(t,L), shrunk by `shrink`. +∞ proves t unreachable
    /// from v; ∞ − ∞ terms (NaN) are skipped. `bounds` is `distances`; `rowV` = 2·L·v, `rowT` = 2·L·t. O(L).
    @inline(__always)
    static func bound(_ bounds: UnsafeBufferPointer<Double>, count l: Int, rowV: Int, rowT: Int, floor: Double)
        -> Double
    {
        var best = floor
        for k in 0..<l {
            let a = (bounds[rowT + k] - bounds[rowV + k]) * shrink
            let b = (bounds[rowV + l + k] - bounds[rowT + l + k]) * shrink
            if a > best { best = a }
            if b > best { best = b }
        }
        return best
    }

    /// `bound` towards a target given by its own row `target` (d(L_k, t) then d(t, L_k), as a vertex's
    /// row in `distances`), e.g. a point inside an edge whose row is derived from the edge's ends. O(L).
    @inline(__always)
    static func bound(
        _ bounds: UnsafeBufferPointer<Double>, count l: Int, rowV: Int, target: UnsafeBufferPointer<Double>,
        floor: Double
    ) -> Double {
        // The largest term is shrunk once: rounding is monotone, so shrinking the largest gives the
        // largest of the shrunk terms, the same value as shrinking each.
        var largest = -Double.infinity
        for k in 0..<l {
            let a = target[k] - bounds[rowV + k]
            let b = bounds[rowV + l + k] - target[l + k]
            if a > largest { largest = a }
            if b > largest { largest = b }
        }
        let shrunk = largest * shrink
        return shrunk > floor ? shrunk : floor
    }

    /// `bound` for vertices `v` and `t` (0 when no landmark covers t's component).
    func bound(from v: Int, to t: Int) -> Double {
        guard count > 0 else { return 0 }
        return distances.withUnsafeBufferPointer {
            Self.bound($0, count: count, rowV: 2 * count * v, rowT: 2 * count * t, floor: 0)
        }
    }

    /// The member with the largest value (ties: smallest index).
    private static func farthest(_ members: [Int], _ value: [Double]) -> Int {
        var best = members[0]
        for v in members where value[v] > value[best] { best = v }
        return best
    }

    /// Whether `forward` and `backward` hold the same arcs, each vertex's (target, length) pairs
    /// compared as multisets: then Dijkstra gives the same distances on either, since a vertex's
    /// distance is the least of its in-neighbours' distances plus the arc, whatever order arcs are
    /// relaxed in. O(E log degree).
    static func isSymmetric(_ forward: Arcs, _ backward: Arcs) -> Bool {
        guard forward.offsets == backward.offsets else { return false }
        var a: [(Int32, Double)] = []
        var b: [(Int32, Double)] = []
        for v in 0..<(forward.offsets.count - 1) {
            let arcs = Int(forward.offsets[v])..<Int(forward.offsets[v + 1])
            a.removeAll(keepingCapacity: true)
            b.removeAll(keepingCapacity: true)
            for arc in arcs {
                a.append((forward.targets[arc], forward.lengths[arc]))
                b.append((backward.targets[arc], backward.lengths[arc]))
            }
            a.sort { $0 < $1 }
            b.sort { $0 < $1 }
            guard a.elementsEqual(b, by: { $0 == $1 }) else { return false }
        }
        return true
    }

    /// One direction of a profile's arcs as CSR arrays: arcs of v are `offsets[v]..<offsets[v+1]`.
    struct Arcs {
        let offsets: [Int32]
        let targets: [Int32]
        let lengths: [Double]
    }

    /// Exact distances in metres from `source` along `arcs` (the reverse arcs give distances to
    /// `source`); +∞ where unreachable. Dijkstra with a 4-ary heap, O((V + E) log V).
    static func dijkstra(from source: Int, _ arcs: Arcs) -> [Double] {
        let n = arcs.offsets.count - 1
        var distance = [Double](repeating: .infinity, count: n)
        var done = [Bool](repeating: false, count: n)
        var heap = QuaternaryHeap()
        distance[source] = 0
        heap.push(0, Int32(source))
        while let (d, v32) = heap.pop() {
            let v = Int(v32)
            if done[v] { continue }
            done[v] = true
            for arc in Int(arcs.offsets[v])..<Int(arcs.offsets[v + 1]) {
                let w = Int(arcs.targets[arc])
                let nd = d + arcs.lengths[arc]
                if nd < distance[w] {
                    distance[w] = nd
                    heap.push(nd, Int32(w))
                }
            }
        }
        return distance
    }
}
