import ArgumentParser
import CampusRouting
import Capabilities
import FieldtestData
import Foundation
import HeapModule

/// The operations a lazy-deletion search needs from its priority queue.
protocol HeapBenchQueue {
    init()
    mutating func push(_ key: Double, _ value: Int32)
    mutating func pop() -> (key: Double, value: Int32)?
    mutating func clear()
}

extension QuaternaryHeap: HeapBenchQueue {
    mutating func clear() { removeAll() }
}

/// A queue entry for swift-collections' `Heap`, in the same total order as `QuaternaryHeap`.
struct HeapBenchEntry: Comparable {
    var key: Double
    var value: Int32
    static func < (a: HeapBenchEntry, b: HeapBenchEntry) -> Bool {
        a.key < b.key || (a.key == b.key && a.value < b.value)
    }
}

/// swift-collections' `Heap` behind the same operations.
struct CollectionsHeap: HeapBenchQueue {
    var heap = Heap<HeapBenchEntry>()
    init() {}
    @inline(__always) mutating func push(_ key: Double, _ value: Int32) {
        heap.insert(HeapBenchEntry(key: key, value: value))
    }
    @inline(__always) mutating func pop() -> (key: Double, value: Int32)? { heap.popMin().map { ($0.key, $0.value) } }
    mutating func clear() { heap = Heap<HeapBenchEntry>(minimumCapacity: heap.count) }
}

/// A profile's usable arcs in compressed rows, with unit-sphere vertex positions for the chord bound.
struct HeapBenchGraph {
    var offsets: [Int32]
    var targets: [Int32]
    var lengths: [Double]
    var xyz: [Double]
}

/// The usable arcs of profile `p`.
func heapBenchGraph(_ g: CampusGraph, profile p: Int) -> HeapBenchGraph {
    var lists = [[(Int32, Double)]](repeating: [], count: g.vertices.count)
    for (i, e) in g.edges.enumerated() {
        let bits = g.access[p][i]
        if bits & CampusGraph.forwardBit != 0 { lists[Int(e.from)].append((e.to, e.lengthMetres)) }
        if bits & CampusGraph.backwardBit != 0 { lists[Int(e.to)].append((e.from, e.lengthMetres)) }
    }
    var offsets: [Int32] = [0]
    var targets: [Int32] = []
    var lengths: [Double] = []
    for l in lists {
        for (t, len) in l {
            targets.append(t)
            lengths.append(len)
        }
        offsets.append(Int32(targets.count))
    }
    var xyz: [Double] = []
    for v in g.vertices {
        let la = v.location.latitude * .pi / 180
        let lo = v.location.longitude * .pi / 180
        xyz += [cos(la) * cos(lo), cos(la) * sin(lo), sin(la)]
    }
    return HeapBenchGraph(offsets: offsets, targets: targets, lengths: lengths, xyz: xyz)
}

/// Lazy-deletion A* with the chord heuristic, as `AStarRouter` runs it, over any queue.
struct HeapBenchSearch<Q: HeapBenchQueue> {
    var queue = Q()
    var cost: [Double] = []
    var mark: [UInt32] = []
    var generation: UInt32 = 0

    mutating func run(_ g: HeapBenchGraph, _ s: Int32, _ t: Int32) -> Double? {
        let n = g.offsets.count - 1
        if cost.count != n {
            cost = [Double](repeating: 0, count: n)
            mark = [UInt32](repeating: 0, count: n)
        }
        generation &+= 1
        let open = generation << 1
        let shut = open | 1
        queue.clear()
        let scale = Geodesy.earthRadiusMetres * (1 - 1e-9)
        let ti = Int(t) * 3
        let tx = g.xyz[ti]
        let ty = g.xyz[ti + 1]
        let tz = g.xyz[ti + 2]
        @inline(__always) func h(_ v: Int) -> Double {
            let dx = g.xyz[3 * v] - tx
            let dy = g.xyz[3 * v + 1] - ty
            let dz = g.xyz[3 * v + 2] - tz
            return scale * (dx * dx + dy * dy + dz * dz).squareRoot()
        }
        cost[Int(s)] = 0
        mark[Int(s)] = open
        queue.push(h(Int(s)), s)
        while let (_, v32) = queue.pop() {
            let v = Int(v32)
            if mark[v] == shut { continue }
            mark[v] = shut
            if v32 == t { return cost[v] }
            let base = cost[v]
            for a in Int(g.offsets[v])..<Int(g.offsets[v + 1]) {
                let w = Int(g.targets[a])
                let m = mark[w]
                if m == shut { continue }
                let nc = base + g.lengths[a]
                if m != open || nc < cost[w] {
                    mark[w] = open
                    cost[w] = nc
                    queue.push(nc + h(w), Int32(w))
                }
            }
        }
        return nil
    }
}

/// `fieldtest-bench heap`: the router's priority queue, `QuaternaryHeap`, against swift-collections'
/// `Heap` on the router's workload: lazy-deletion A* over each graph's walk arcs with the chord
/// heuristic (as `AStarRouter` without landmarks), generic over the queue, both queues on the same
/// seeded query pairs, interleaved per repetition in one run; best of `repeats`. `AStarRouter` itself
/// is timed beside them for scale. The summed route lengths of the two queues must agree.
struct BenchHeap: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "heap", abstract: "The router's 4-ary heap against swift-collections' Heap, on route queries.")

    @OptionGroup var goals: GoalOptions

    @Option(
        help:
            "Datasets folder (default: $FIELDTEST_DATASETS, else ./Datasets, else the Datasets folder of the checkout this executable was built in)."
    ) var datasets: String?
    @Option(help: "Queries per map graph, 1…1000000.") var queries = 2000
    @Option(help: "Queries on the synthetic city grid (250 × 250), 1…1000000.") var gridQueries = 200
    @Option(help: "Timed repetitions (best is reported), 1…100.") var repeats = 7
    @Option(help: "Seed for query pairs and grid jitter.") var seed: UInt64 = 42

    func validate() throws {
        if !(1...1_000_000).contains(queries) {
            throw ValidationError("--queries must be in 1…1000000 (got \(queries))")
        }
        if !(1...1_000_000).contains(gridQueries) {
            throw ValidationError("--grid-queries must be in 1…1000000 (got \(gridQueries))")
        }
        if !(1...100).contains(repeats) { throw ValidationError("--repeats must be in 1…100 (got \(repeats))") }
    }

    func run() throws {
        var rng = SeededGenerator(seed: seed)
        var graphs: [(String, CampusGraph, Int)] = []
        for (name, url) in try BenchSupport.files(.osmXML, in: datasets) {
            let graph = try BenchSupport.guarded {
                try CampusGraph(source: try MapFile.load(url: url, displayName: url.lastPathComponent).source)
            }
            graphs.append((name, graph, queries))
        }
        graphs.append(("synthetic-grid-250", BenchRoute.grid(side: 250, rng: &rng), gridQueries))
        let clock = ContinuousClock()
        print(
            "graph | queries | QuaternaryHeap µs/query | swift-collections Heap µs/query | Heap/Quaternary | AStarRouter µs/query"
        )
        for (name, g, count) in graphs {
            let p = try BenchSupport.guarded { try g.profileIndex(named: "walk") }
            let c = heapBenchGraph(g, profile: p)
            let usable = (0..<g.vertices.count).filter { c.offsets[$0 + 1] > c.offsets[$0] }
            guard usable.count >= 2 else { continue }
            let pairs = (0..<count).map { _ in
                (
                    Int32(usable[Int.random(in: 0..<usable.count, using: &rng)]),
                    Int32(usable[Int.random(in: 0..<usable.count, using: &rng)])
                )
            }
            var quaternary = HeapBenchSearch<QuaternaryHeap>()
            var collections = HeapBenchSearch<CollectionsHeap>()
            var router = AStarRouter()
            router.usesLandmarks = false
            var best = [Double](repeating: .infinity, count: 3)
            var sums = [Double](repeating: 0, count: 3)
            for _ in 0..<repeats {
                for k in 0..<3 {
                    var sum = 0.0
                    let start = clock.now
                    for (s, t) in pairs {
                        switch k {
                        case 0: sum += quaternary.run(c, s, t) ?? 0
                        case 1: sum += collections.run(c, s, t) ?? 0
                        default:
                            let r = router.route(in: g, fromVertex: s, toVertex: t, profile: p)
                            if r.status == .ok { sum += r.lengthMetres }
                        }
                    }
                    let d = clock.now - start
                    best[k] = min(best[k], Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
                    sums[k] = sum
                }
            }
            guard abs(sums[0] - sums[1]) <= 1e-6 * max(1, sums[0]) else {
                throw ValidationError("\(name): the two queues' route lengths disagree (\(sums[0]) m vs \(sums[1]) m)")
            }
            let us = best.map { $0 / Double(pairs.count) * 1e6 }
            print(
                "\(name) | \(pairs.count) | "
                    + [us[0], us[1], us[1] / us[0], us[2]].map { String(format: "%.2f", $0) }.joined(separator: " | "))
        }
    }
}
