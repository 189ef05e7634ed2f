import Dispatch
import FieldtestData
import Synchronization

extension CampusGraph {
    /// Each profile's `ProfileAdjacency`, prepared when the graph is built for the profiles asked for
    /// there, and for any other the first time a search or snap needs it (once: a second caller waits
    /// for the first's result). A batch of walking queries so skips the landmark searches of five
    /// wheelchair profiles; what any profile answers does not depend on when it was prepared.
    final class PreparedProfiles: Sendable {
        /// One profile's adjacency once built.
        private final class Slot: Sendable {
            let value = Mutex<ProfileAdjacency?>(nil)
        }
        private let slots: [Slot]
        /// Builds profile p's adjacency.
        private let build: @Sendable (Int) -> ProfileAdjacency

        /// `count` profiles, none prepared yet.
        init(count: Int, build: @escaping @Sendable (Int) -> ProfileAdjacency) {
            self.slots = (0..<count).map { _ in Slot() }
            self.build = build
        }

        /// Number of profiles.
        var count: Int { slots.count }

        /// Profile p's adjacency, built now if it was not yet.
        func adjacency(_ p: Int) -> ProfileAdjacency {
            slots[p].value.withLock { slot in
                if let slot { return slot }
                let built = build(p)
                slot = built
                return built
            }
        }

        /// Profile p's adjacency if it is prepared, without building it.
        func preparedAdjacency(_ p: Int) -> ProfileAdjacency? { slots[p].value.withLock { $0 } }

        /// Takes `adjacency` (e.g. from a cache, checked by the caller) as profile p's.
        func offer(_ adjacency: ProfileAdjacency, for p: Int) { slots[p].value.withLock { $0 = adjacency } }

        /// Starts preparing `profiles` (indices) on other threads and returns: a caller asking for
        /// one of them meanwhile waits for its build (or builds it, when it asks first).
        func prepareInBackground(_ profiles: [Int], jobs: Int) {
            guard !profiles.isEmpty else { return }
            DispatchQueue.global().async { self.prepare(profiles, jobs: jobs) }
        }

        /// Prepares `profiles` (indices) on up to `jobs` threads, one profile per thread at a time.
        func prepare(_ profiles: [Int], jobs: Int) {
            _ = ParallelSlices.map(count: profiles.count, jobs: jobs) { range in
                range.map { self.adjacency(profiles[$0]) }
            }
        }
    }

    /// The arcs one profile may use, as a compact CSR (compressed sparse row) adjacency with
    /// contiguous arrays, so the search loop reads target, length and edge of each usable arc
    /// sequentially and never tests access bits or follows the edge records.
    ///
    /// Arcs of vertex v are `offsets[v]..<offsets[v+1]`, in the order of the full adjacency
    /// (so searches settle and break ties exactly as over the full graph). Build O((V + E)·α(V)).
    /// A class, so a query takes one reference to it instead of copying eleven array references.
    final class ProfileAdjacency: Sendable {
        /// Start of each vertex's arcs; V + 1 entries.
        let offsets: [Int32]
        /// Far vertex of each usable arc.
        let targets: [Int32]
        /// Edge length in metres of each usable arc.
        let lengths: [Double]
        /// Index of each usable arc in the full adjacency (`arcEdge`, `arcForward`).
        let arcs: [Int32]
        /// Edge index of each usable arc (for per-edge congestion factors).
        let edges: [Int32]
        /// Target, full-adjacency arc and length of each usable arc side by side, so relaxing an arc
        /// reads one 16-byte record.
        let records: [Record]

        /// One usable arc as the search loop reads it.
        struct Record: Sendable {
            /// Far vertex.
            let target: Int32
            /// Index in the full adjacency.
            let arc: Int32
            /// Edge length in metres.
            let length: Double
        }
        /// Weakly connected component of each vertex over the usable arcs (smallest vertex index in it).
        /// No path joins vertices of different components, so a search between them can stop at once
        /// instead of exhausting the start's component.
        let component: [Int32]
        /// Vertices in each component, indexed by the component's root (0 for vertices that are not roots).
        let componentSizes: [Int32]
        /// Root of the component with the most vertices (ties: the smaller root); -1 for an empty graph.
        let largestComponent: Int32
        /// Reverse CSR: the usable arcs u→v grouped by their head v (`reverseOffsets[v]..<reverseOffsets[v+1]`),
        /// for a backward search from the target. `reverseTargets` holds the tail u; lengths, full-adjacency
        /// arc indices and edge indices are those of the forward arc u→v.
        let reverseOffsets: [Int32]
        /// Tail vertex of each reverse arc.
        let reverseTargets: [Int32]
        /// Edge length in metres of each reverse arc.
        let reverseLengths: [Double]
        /// Index in the full adjacency of the forward arc each reverse arc mirrors.
        let reverseArcs: [Int32]
        /// Edge index of each reverse arc.
        let reverseEdges: [Int32]
        /// ALT landmark distances for tighter A* lower bounds (see `LandmarkBounds`).
        let landmarks: LandmarkBounds

        /// The arcs of the full adjacency whose direction bit is set in `access`.
        init(
            vertexCount: Int, arcOffsets: [Int32], arcEdge: [Int32], arcTarget: [Int32], arcForward: [Bool],
            access: [UInt8], edgeLengths: [Double]
        ) {
            var offsets = [Int32](repeating: 0, count: vertexCount + 1)
            var targets: [Int32] = []
            var lengths: [Double] = []
            var arcs: [Int32] = []
            var edges: [Int32] = []
            for v in 0..<vertexCount {
                for a in Int(arcOffsets[v])..<Int(arcOffsets[v + 1]) {
                    let e = Int(arcEdge[a])
                    let bit = arcForward[a] ? CampusGraph.forwardBit : CampusGraph.backwardBit
                    guard e < access.count, access[e] & bit != 0 else { continue }
                    targets.append(arcTarget[a])
                    lengths.append(edgeLengths[e])
                    arcs.append(Int32(a))
                    edges.append(Int32(e))
                }
                offsets[v + 1] = Int32(targets.count)
            }
            let component = Self.components(vertexCount: vertexCount, offsets: offsets, targets: targets)
            self.component = component
            var sizes = [Int32](repeating: 0, count: vertexCount)
            for c in component { sizes[Int(c)] += 1 }
            self.componentSizes = sizes
            var largest: Int32 = -1
            for r in 0..<vertexCount where largest < 0 || sizes[r] > sizes[Int(largest)] { largest = Int32(r) }
            self.largestComponent = largest
            // Counting sort of the usable arcs by head vertex; within a head, tails in increasing order.
            var rOffsets = [Int32](repeating: 0, count: vertexCount + 1)
            for w in targets { rOffsets[Int(w) + 1] += 1 }
            for v in 0..<vertexCount { rOffsets[v + 1] += rOffsets[v] }
            var fill = rOffsets
            let m = targets.count
            var rTargets = [Int32](repeating: 0, count: m)
            var rLengths = [Double](repeating: 0, count: m)
            var rArcs = [Int32](repeating: 0, count: m)
            var rEdges = [Int32](repeating: 0, count: m)
            for v in 0..<vertexCount {
                for a in Int(offsets[v])..<Int(offsets[v + 1]) {
                    let w = Int(targets[a])
                    let slot = Int(fill[w])
                    fill[w] += 1
                    rTargets[slot] = Int32(v)
                    rLengths[slot] = lengths[a]
                    rArcs[slot] = arcs[a]
                    rEdges[slot] = edges[a]
                }
            }
            self.reverseOffsets = rOffsets
            self.reverseTargets = rTargets
            self.reverseLengths = rLengths
            self.reverseArcs = rArcs
            self.reverseEdges = rEdges
            self.offsets = offsets
            self.targets = targets
            self.lengths = lengths
            self.arcs = arcs
            self.edges = edges
            self.records = (0..<targets.count).map { Record(target: targets[$0], arc: arcs[$0], length: lengths[$0]) }
            self.landmarks = LandmarkBounds(
                forward: .init(offsets: offsets, targets: targets, lengths: lengths),
                backward: .init(offsets: rOffsets, targets: rTargets, lengths: rLengths),
                component: component)
        }

        /// Each vertex's connected component (arcs taken as undirected), named by its smallest vertex.
        static func components(vertexCount: Int, offsets: [Int32], targets: [Int32]) -> [Int32] {
            // Union–find with path halving (Tarjan 1975); the root is the component's smallest vertex.
            var parent = (0..<vertexCount).map { Int32($0) }
            func find(_ x: Int) -> Int {
                var x = x
                while Int(parent[x]) != x {
                    parent[x] = parent[Int(parent[x])]
                    x = Int(parent[x])
                }
                return x
            }
            for v in 0..<vertexCount {
                for a in Int(offsets[v])..<Int(offsets[v + 1]) {
                    let ra = find(v)
                    let rb = find(Int(targets[a]))
                    if ra != rb { parent[max(ra, rb)] = Int32(min(ra, rb)) }
                }
            }
            return (0..<vertexCount).map { Int32(find($0)) }
        }

        /// An adjacency from its stored arrays (a cache file); `records` is rebuilt from them.
        init(
            offsets: [Int32], targets: [Int32], lengths: [Double], arcs: [Int32], edges: [Int32],
            component: [Int32], componentSizes: [Int32], largestComponent: Int32, reverseOffsets: [Int32],
            reverseTargets: [Int32], reverseLengths: [Double], reverseArcs: [Int32], reverseEdges: [Int32],
            landmarks: LandmarkBounds
        ) {
            self.offsets = offsets
            self.targets = targets
            self.lengths = lengths
            self.arcs = arcs
            self.edges = edges
            self.component = component
            self.componentSizes = componentSizes
            self.largestComponent = largestComponent
            self.reverseOffsets = reverseOffsets
            self.reverseTargets = reverseTargets
            self.reverseLengths = reverseLengths
            self.reverseArcs = reverseArcs
            self.reverseEdges = reverseEdges
            self.records = (0..<min(targets.count, arcs.count, lengths.count)).map {
                Record(target: targets[$0], arc: arcs[$0], length: lengths[$0])
            }
            self.landmarks = landmarks
        }

        /// Whether this adjacency (e.g. read from a cache) is the one this graph's arcs and `access`
        /// give: exactly the usable arcs, in order, with their targets, edges and lengths; and every
        /// other array of the right size and in range. O(V + E + L·V).
        func fits(
            vertexCount n: Int, arcOffsets: [Int32], arcEdge: [Int32], arcTarget: [Int32], arcForward: [Bool],
            access: [UInt8], edgeLengths: [Double]
        ) -> Bool {
            let m = targets.count
            guard offsets.count == n + 1, offsets.first == 0, offsets.last == Int32(m), arcOffsets.count == n + 1,
                [lengths.count, arcs.count, edges.count, records.count].allSatisfy({ $0 == m }),
                [reverseTargets.count, reverseLengths.count, reverseArcs.count, reverseEdges.count].allSatisfy({
                    $0 == m
                }),
                reverseOffsets.count == n + 1, reverseOffsets.first == 0, reverseOffsets.last == Int32(m),
                component.count == n, componentSizes.count == n, largestComponent >= -1, Int(largestComponent) < n
            else { return false }
            var usable = 0
            for a in 0..<arcEdge.count {
                let e = Int(arcEdge[a])
                let bit = arcForward[a] ? CampusGraph.forwardBit : CampusGraph.backwardBit
                if e < access.count, access[e] & bit != 0 { usable += 1 }
            }
            guard usable == m else { return false }
            var previous = -1
            for v in 0..<n {
                guard offsets[v] <= offsets[v + 1], reverseOffsets[v] <= reverseOffsets[v + 1] else { return false }
                for i in Int(offsets[v])..<Int(offsets[v + 1]) {
                    let a = Int(arcs[i])
                    guard a > previous, a >= Int(arcOffsets[v]), a < Int(arcOffsets[v + 1]) else { return false }
                    let e = Int(arcEdge[a])
                    let bit = arcForward[a] ? CampusGraph.forwardBit : CampusGraph.backwardBit
                    guard e < access.count, access[e] & bit != 0, targets[i] == arcTarget[a], edges[i] == Int32(e),
                        lengths[i].bitPattern == edgeLengths[e].bitPattern
                    else { return false }
                    previous = a
                }
            }
            let inRange = { (x: Int32) in x >= 0 && Int(x) < n }
            guard component.allSatisfy(inRange), reverseTargets.allSatisfy(inRange),
                reverseArcs.allSatisfy({ $0 >= 0 && Int($0) < arcEdge.count }),
                reverseEdges.allSatisfy({ $0 >= 0 && Int($0) < edgeLengths.count })
            else { return false }
            return landmarks.count == landmarks.landmarks.count
                && landmarks.distances.count == 2 * landmarks.count * n && landmarks.landmarks.allSatisfy(inRange)
        }
    }
}
