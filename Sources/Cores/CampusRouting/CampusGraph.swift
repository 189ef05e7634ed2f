import FieldtestData
import Foundation

/// A routable pedestrian graph built from map ways under a set of routing profiles.
///
/// Vertices are the map points at the ends of routable ways or shared by more than one routable
/// way position (junctions); edges are the way pieces between consecutive vertices and keep their
/// full shape (intermediate node ids and coordinates). Edge length is the haversine sum along the
/// shape (R = 6,371,008.8 m). A way is routable when at least one profile accepts it; each edge stores,
/// per profile, the directions it may be used in — zero when the profile rejects the way or when any
/// node on the edge is impassable for the profile (so a blocked junction removes all its edges).
///
/// Build: O(points + way positions). Memory: O(way positions).
public struct CampusGraph: Sendable {
    /// A graph vertex.
    public struct Vertex: Sendable, Equatable {
        /// OSM node id, or nil for GeoJSON input.
        public var osmID: Int64?
        /// Position in degrees.
        public var location: GeoPoint

        /// Creates a vertex.
        public init(osmID: Int64?, location: GeoPoint) {
            self.osmID = osmID
            self.location = location
        }
    }

    /// An undirected edge between two vertices, with the way piece's shape.
    public struct Edge: Sendable, Equatable {
        /// Vertex at the start of the shape.
        public var from: Int32
        /// Vertex at the end of the shape.
        public var to: Int32
        /// The way the piece comes from, when known.
        public var wayID: Int64?
        /// OSM ids of every node along the shape, ends included (empty for GeoJSON).
        public var nodeIDs: [Int64]
        /// Positions along the shape, ends included.
        public var shape: [GeoPoint]
        /// Haversine length of the shape in metres.
        public var lengthMetres: Double
        /// The way's tags (highway, wheelchair, incline, surface, lit, indoor, level, name, ...).
        public var tags: [String: String]
        /// Tags of the nodes along the shape that have any, keyed by position in `shape`.
        public var nodeTags: [Int: [String: String]]

        /// The way's `name`, if any.
        public var name: String? { tags["name"] }

        /// Creates an edge.
        public init(
            from: Int32, to: Int32, wayID: Int64?, nodeIDs: [Int64], shape: [GeoPoint], lengthMetres: Double,
            tags: [String: String], nodeTags: [Int: [String: String]]
        ) {
            self.from = from
            self.to = to
            self.wayID = wayID
            self.nodeIDs = nodeIDs
            self.shape = shape
            self.lengthMetres = lengthMetres
            self.tags = tags
            self.nodeTags = nodeTags
        }
    }

    /// Direction bit: usable from `from` to `to`.
    public static let forwardBit: UInt8 = 1
    /// Direction bit: usable from `to` to `from`.
    public static let backwardBit: UInt8 = 2

    /// Display name of the map.
    public let file: String
    /// The profiles, in index order.
    public let profiles: [RoutingProfile]
    /// Vertices.
    public let vertices: [Vertex]
    /// Edges.
    public let edges: [Edge]
    /// Per profile, per edge: direction bits (`forwardBit`, `backwardBit`).
    public let access: [[UInt8]]
    /// CSR adjacency: arcs of vertex v are `arcOffsets[v]..<arcOffsets[v+1]`.
    let arcOffsets: [Int32]
    /// Edge of each arc.
    let arcEdge: [Int32]
    /// Far vertex of each arc.
    let arcTarget: [Int32]
    /// Whether the arc runs along the edge's shape (from → to).
    let arcForward: [Bool]
    /// Tail vertex of each arc (the vertex whose arc range holds it), for walking parent arcs back.
    let arcTail: [Int32]
    /// Edge e's shape is `shapePoints[shapeOffsets[e]..<shapeOffsets[e+1]]` (E + 1 offsets).
    let shapeOffsets: [Int]
    /// Every edge's shape points, concatenated in edge order.
    let shapePoints: [GeoPoint]
    /// Edge e's node ids are `shapeNodeIDs[nodeIDOffsets[e]..<nodeIDOffsets[e+1]]` (E + 1 offsets).
    let nodeIDOffsets: [Int]
    /// Every edge's node ids, concatenated in edge order.
    let shapeNodeIDs: [Int64]
    /// Profile names and speeds (metres per second) by profile index, read per query without copying a profile.
    let profileNames: [String]
    /// Walking or rolling speed of each profile, metres per second.
    let profileSpeeds: [Double]
    /// Per profile, per vertex: whether it has any usable arc (in or out).
    let usable: [[Bool]]
    /// Edge lengths in metres, flat for the search loop.
    let edgeLengths: [Double]
    /// Per profile: the usable arcs as a compact adjacency for the search loop, prepared on first use
    /// unless the graph was built for it.
    let preparedProfiles: PreparedProfiles
    /// Vertex positions, flat for the search loop.
    let vertexLocations: [GeoPoint]
    /// Unit-sphere Cartesian coordinates of each vertex (x, y, z interleaved), for the chord heuristic.
    let vertexXYZ: [Double]
    /// Vertex index.
    let vertexGrid: SpatialGrid
    /// Edge index (by segment bounding boxes).
    let edgeGrid: SpatialGrid
    /// Each edge's shape bounding box, for lower bounds on the distance to it (`snapToEdge`).
    let edgeBoxes: [EdgeBox]
    /// Way references to points missing from the source (clipped extract).
    public let missingNodeRefs: Int

    /// Builds the graph of `source` for `profiles`. Throws `.emptyGraph` when no way is routable.
    public init(source: MapSource, profiles: RoutingProfiles = .builtIn) throws(RoutingError) {
        try self.init(source: source, profiles: profiles, preparing: nil, prepared: { _, _ in [:] })
    }

    /// Builds the graph of `source`, preparing the profiles at the indices `preparing` (nil: all; the
    /// others when first used), each one's adjacency (arcs, components, landmark distances) taken
    /// from `prepared` when it offers one that fits the graph (a cache), else computed.
    init(
        source: MapSource, profiles: RoutingProfiles, preparing: [Int]?,
        prepared: (_ vertexCount: Int, _ edgeCount: Int) -> [Int: ProfileAdjacency]
    ) throws(RoutingError) {
        let profs = profiles.profiles
        let points = source.points
        let ways = source.ways
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        // 1. Which ways are routable, and how, per profile (each way alone: in slices on every core).
        let routable = ParallelSlices.map(count: ways.count, jobs: jobs, minimumPerSlice: 256) { range in
            range.compactMap { i -> (way: Int, directions: [TravelDirections?])? in
                let dirs = profs.map { $0.directions(wayTags: ways[i].tags) }
                guard dirs.contains(where: { $0 != nil }), ways[i].points.allSatisfy({ $0 >= 0 && $0 < points.count })
                else { return nil }
                return (i, dirs)
            }
        }.flatMap { $0 }
        // 2. Vertices: way ends and positions used more than once.
        var uses = [UInt8](repeating: 0, count: points.count)
        var isVertex = [Bool](repeating: false, count: points.count)
        for (i, _) in routable {
            let w = ways[i]
            for p in w.points { uses[p] = uses[p] == 255 ? 255 : uses[p] + 1 }
            if let f = w.points.first { isVertex[f] = true }
            if let l = w.points.last { isVertex[l] = true }
        }
        var vertexOf = [Int32](repeating: -1, count: points.count)
        var vertices: [Vertex] = []
        for p in 0..<points.count where isVertex[p] || uses[p] >= 2 {
            vertexOf[p] = Int32(vertices.count)
            vertices.append(Vertex(osmID: points[p].osmID, location: points[p].location))
        }
        // 3. Edges between consecutive vertices along each way, with per-profile access. Each way's
        // edges start at a known index, so slices of ways on every core fill one array in place.
        var firstEdge = [Int](repeating: 0, count: routable.count + 1)
        for (k, (i, _)) in routable.enumerated() {
            let w = ways[i].points
            firstEdge[k + 1] = firstEdge[k] + (1..<max(1, w.count)).reduce(0) { $0 + (vertexOf[w[$1]] >= 0 ? 1 : 0) }
        }
        let edgeCount = firstEdge[routable.count]
        let vertexIndex = vertexOf
        let starts = firstEdge
        var accessBits = [UInt8](repeating: 0, count: edgeCount * profs.count)
        let edges = [Edge](unsafeUninitializedCapacity: edgeCount) { buffer, initialized in
            nonisolated(unsafe) let edgeSlots = buffer
            accessBits.withUnsafeMutableBufferPointer { bits in
                nonisolated(unsafe) let accessSlots = bits
                _ = ParallelSlices.map(count: routable.count, jobs: jobs, minimumPerSlice: 256) { range in
                    for k in range {
                        Self.appendEdges(
                            of: ways[routable[k].way], directions: routable[k].directions, points: points,
                            vertexOf: vertexIndex, profiles: profs, into: edgeSlots, access: accessSlots,
                            startingAt: starts[k])
                    }
                }
            }
            initialized = edgeCount
        }
        let access = profs.indices.map { pi in (0..<edgeCount).map { accessBits[$0 * profs.count + pi] } }
        guard !edges.isEmpty else { throw .emptyGraph(file: source.file) }
        self.init(
            file: source.file, profiles: profs, vertices: vertices, edges: edges, access: access,
            missingNodeRefs: source.missingNodeRefs, preparing: preparing,
            prepared: prepared(vertices.count, edges.count))
    }

    /// Writes the edges of way `w` (the pieces between consecutive vertices) into `edges` from index
    /// `first` on, and each one's direction bits per profile into `access` (edge-major: edge e's bits
    /// for profile p at `e × profiles.count + p`). The slots written are uninitialised before.
    private static func appendEdges(
        of w: MapSource.Way, directions: [TravelDirections?], points: [MapSource.Point], vertexOf: [Int32],
        profiles: [RoutingProfile], into edges: UnsafeMutableBufferPointer<Edge>,
        access: UnsafeMutableBufferPointer<UInt8>, startingAt first: Int
    ) {
        var e = first
        var start = 0
        for j in 1..<w.points.count where vertexOf[w.points[j]] >= 0 {
            let piece = w.points[start...j]
            let shape = piece.map { points[$0].location }
            var nodeTags: [Int: [String: String]] = [:]
            for (pos, p) in piece.enumerated() where !points[p].tags.isEmpty { nodeTags[pos] = points[p].tags }
            (edges.baseAddress! + e).initialize(
                to: Edge(
                    from: vertexOf[w.points[start]], to: vertexOf[w.points[j]], wayID: w.osmID,
                    nodeIDs: piece.compactMap { points[$0].osmID }, shape: shape,
                    lengthMetres: Geodesy.pathLengthMetres(shape), tags: w.tags, nodeTags: nodeTags))
            for (pi, profile) in profiles.enumerated() {
                var bits: UInt8 = 0
                if let d = directions[pi] {
                    let blocked = nodeTags.values.contains { profile.blocks(nodeTags: $0) }
                    if !blocked { bits = (d.forward ? forwardBit : 0) | (d.backward ? backwardBit : 0) }
                }
                access[e * profiles.count + pi] = bits
            }
            e += 1
            start = j
        }
    }

    /// Assembles a graph from vertices, edges and per-profile access bits (used by the builders and
    /// by synthetic benchmark graphs). Builds the CSR adjacency and spatial indexes. O(V + E).
    public init(
        file: String, profiles: [RoutingProfile], vertices: [Vertex], edges: [Edge], access: [[UInt8]],
        missingNodeRefs: Int = 0
    ) {
        self.init(
            file: file, profiles: profiles, vertices: vertices, edges: edges, access: access,
            missingNodeRefs: missingNodeRefs, preparing: nil, prepared: [:])
    }

    /// The assembling initialiser. The profiles at the indices `preparing` (nil: all) are prepared from
    /// now on, on other threads (a search or snap of one waits for it), the others when first used. An adjacency in `prepared` (by profile index, e.g. from a cache) is
    /// used when each of its arcs is an arc of this graph that its profile may use, else it is rebuilt.
    init(
        file: String, profiles: [RoutingProfile], vertices: [Vertex], edges: [Edge], access: [[UInt8]],
        missingNodeRefs: Int, preparing: [Int]?, prepared: [Int: ProfileAdjacency]
    ) {
        self.file = file
        self.profiles = profiles
        self.vertices = vertices
        self.edges = edges
        self.access = access
        self.missingNodeRefs = missingNodeRefs
        let (offsets, arcEdge, arcTarget, arcForward, arcTail) = Self.arcs(vertexCount: vertices.count, edges: edges)
        self.arcTail = arcTail
        let (shapePoints, shapeOffsets, shapeNodeIDs, nodeIDOffsets) = Self.flattenedShapes(edges)
        self.shapeOffsets = shapeOffsets
        self.shapePoints = shapePoints
        self.nodeIDOffsets = nodeIDOffsets
        self.shapeNodeIDs = shapeNodeIDs
        self.profileNames = profiles.map(\.name)
        self.profileSpeeds = profiles.map(\.speedMetresPerSecond)
        self.arcOffsets = offsets
        self.arcEdge = arcEdge
        self.arcTarget = arcTarget
        self.arcForward = arcForward
        self.usable = Self.usableVertices(
            profileCount: profiles.count, vertexCount: vertices.count, edges: edges, access: access)
        let lengths = edges.map(\.lengthMetres)
        self.edgeLengths = lengths
        let vertexCount = vertices.count
        let table = PreparedProfiles(count: profiles.count) { [offsets, arcEdge, arcTarget, arcForward] p in
            ProfileAdjacency(
                vertexCount: vertexCount, arcOffsets: offsets, arcEdge: arcEdge, arcTarget: arcTarget,
                arcForward: arcForward, access: p < access.count ? access[p] : [], edgeLengths: lengths)
        }
        for (p, adjacency) in prepared
        where p < profiles.count
            && adjacency.fits(
                vertexCount: vertexCount, arcOffsets: offsets, arcEdge: arcEdge, arcTarget: arcTarget,
                arcForward: arcForward, access: p < access.count ? access[p] : [], edgeLengths: lengths)
        {
            table.offer(adjacency, for: p)
        }
        // Profiles are independent (each one's arcs, components and landmark searches): prepared on
        // other threads, one each, since their landmark Dijkstras are most of a large map's load.
        // Meanwhile the spatial indexes are built here and the caller goes on (e.g. reading its
        // queries); the first search or snap of a profile waits for it.
        table.prepareInBackground(
            (preparing ?? Array(profiles.indices)).filter { $0 >= 0 && $0 < profiles.count },
            jobs: ProcessInfo.processInfo.activeProcessorCount)
        self.preparedProfiles = table
        let indexes = SpatialIndexes(
            vertices: vertices, edges: edges, shapePoints: shapePoints, shapeOffsets: shapeOffsets)
        self.vertexLocations = indexes.vertexLocations
        self.vertexXYZ = indexes.vertexXYZ
        self.vertexGrid = indexes.vertexGrid
        self.edgeGrid = indexes.edgeGrid
        self.edgeBoxes = indexes.edgeBoxes
    }

    /// The compressed sparse row adjacency of `edges`: each vertex's arcs (one per edge end) from
    /// `offsets[v]` to `offsets[v + 1]`, each with its edge, head, direction and tail. O(V + E).
    static func arcs(vertexCount: Int, edges: [Edge]) -> (
        offsets: [Int32], edge: [Int32], target: [Int32], forward: [Bool], tail: [Int32]
    ) {
        var degree = [Int32](repeating: 0, count: vertexCount + 1)
        for e in edges {
            degree[Int(e.from)] += 1
            degree[Int(e.to)] += 1
        }
        var offsets = [Int32](repeating: 0, count: vertexCount + 1)
        for v in 0..<vertexCount { offsets[v + 1] = offsets[v] + degree[v] }
        var fill = offsets
        var arcEdge = [Int32](repeating: 0, count: edges.count * 2)
        var arcTarget = [Int32](repeating: 0, count: edges.count * 2)
        var arcForward = [Bool](repeating: true, count: edges.count * 2)
        var arcTail = [Int32](repeating: 0, count: edges.count * 2)
        for (i, e) in edges.enumerated() {
            let a = Int(fill[Int(e.from)])
            fill[Int(e.from)] += 1
            arcEdge[a] = Int32(i)
            arcTarget[a] = e.to
            arcForward[a] = true
            arcTail[a] = e.from
            let b = Int(fill[Int(e.to)])
            fill[Int(e.to)] += 1
            arcEdge[b] = Int32(i)
            arcTarget[b] = e.from
            arcForward[b] = false
            arcTail[b] = e.to
        }
        return (offsets, arcEdge, arcTarget, arcForward, arcTail)
    }

    /// Every edge's shape points and node IDs in one array each, edge i's from `offsets[i]` to `offsets[i + 1]`.
    static func flattenedShapes(_ edges: [Edge]) -> (
        points: [GeoPoint], pointOffsets: [Int], nodeIDs: [Int64], nodeIDOffsets: [Int]
    ) {
        var shapeOffsets = [0]
        var nodeIDOffsets = [0]
        shapeOffsets.reserveCapacity(edges.count + 1)
        nodeIDOffsets.reserveCapacity(edges.count + 1)
        var shapePoints: [GeoPoint] = []
        var shapeNodeIDs: [Int64] = []
        for e in edges {
            shapePoints.append(contentsOf: e.shape)
            shapeNodeIDs.append(contentsOf: e.nodeIDs)
            shapeOffsets.append(shapePoints.count)
            nodeIDOffsets.append(shapeNodeIDs.count)
        }
        return (shapePoints, shapeOffsets, shapeNodeIDs, nodeIDOffsets)
    }

    /// For each profile, whether each vertex ends an edge the profile may use.
    static func usableVertices(profileCount: Int, vertexCount: Int, edges: [Edge], access: [[UInt8]]) -> [[Bool]] {
        var usable = [[Bool]](repeating: [Bool](repeating: false, count: vertexCount), count: profileCount)
        for p in 0..<profileCount {
            for (i, e) in edges.enumerated() where i < access[p].count && access[p][i] != 0 {
                usable[p][Int(e.from)] = true
                usable[p][Int(e.to)] = true
            }
        }
        return usable
    }

    /// The vertex and edge indexes of a graph, built together.
    private struct SpatialIndexes: Sendable {
        var vertexLocations: [GeoPoint]
        var vertexXYZ: [Double]
        var vertexGrid: SpatialGrid
        var edgeGrid: SpatialGrid
        var edgeBoxes: [EdgeBox]

        init(vertices: [Vertex], edges: [Edge], shapePoints: [GeoPoint], shapeOffsets: [Int]) {
            vertexLocations = vertices.map(\.location)
            var xyz: [Double] = []
            xyz.reserveCapacity(3 * vertices.count)
            for v in vertices { xyz.append(contentsOf: CampusGraph.unitVector(v.location)) }
            vertexXYZ = xyz
            let refLat =
                vertices.isEmpty ? 0 : vertices.reduce(0) { $0 + $1.location.latitude } / Double(vertices.count)
            var vg = SpatialGrid(cellMetres: 100, referenceLatitude: refLat)
            for (i, v) in vertices.enumerated() { vg.insert(Int32(i), at: v.location) }
            var eg = SpatialGrid(cellMetres: 100, referenceLatitude: refLat)
            for (i, e) in edges.enumerated() {
                for s in 1..<max(2, e.shape.count) where s < e.shape.count {
                    eg.insert(Int32(i), segmentFrom: e.shape[s - 1], to: e.shape[s])
                }
            }
            vertexGrid = vg
            edgeGrid = eg
            edgeBoxes = (0..<edges.count).map { e in EdgeBox(shapePoints[shapeOffsets[e]..<shapeOffsets[e + 1]]) }
        }
    }

    /// The unit vector of `p` on the sphere: [x, y, z].
    static func unitVector(_ p: GeoPoint) -> [Double] {
        let lat = p.latitude * .pi / 180
        let lon = p.longitude * .pi / 180
        return [cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)]
    }

    /// Index of the profile named `name`.
    public func profileIndex(named name: String) throws(RoutingError) -> Int {
        guard let i = profiles.firstIndex(where: { $0.name == name }) else {
            throw .unknownProfile(name: name, known: profiles.map(\.name))
        }
        return i
    }

    /// Profile p's arcs as the searches read them (prepared now if they were not yet).
    func adjacency(_ p: Int) -> ProfileAdjacency { preparedProfiles.adjacency(p) }

    /// Every profile's adjacency, each prepared now if it was not yet.
    var profileAdjacency: [ProfileAdjacency] { (0..<preparedProfiles.count).map(adjacency) }

    /// Number of directed arcs usable by profile `p`.
    public func usableArcCount(profile p: Int) -> Int {
        access[p].reduce(0) { $0 + ($1 & Self.forwardBit != 0 ? 1 : 0) + ($1 & Self.backwardBit != 0 ? 1 : 0) }
    }

    /// The nearest vertex to `point` usable by profile `p` within `maxMetres` (haversine), with its distance.
    /// Ties go to the lower vertex index. O(vertices within the radius).
    public func snap(_ point: GeoPoint, profile p: Int, maxMetres: Double = 200) -> (vertex: Int32, metres: Double)? {
        var best: (vertex: Int32, metres: Double)?
        vertexGrid.forEachCandidate(near: point, radiusMetres: maxMetres) { v in
            guard usable[p][Int(v)] else { return }
            let d = Geodesy.haversineMetres(point, vertices[Int(v)].location)
            guard d <= maxMetres else { return }
            if let b = best, d > b.metres || (d == b.metres && v > b.vertex) { return }
            best = (v, d)
        }
        return best
    }

    /// The edge nearest to `point` within `maxMetres` (any profile), with the distance in metres.
    /// O(edges near the point × their shape length).
    public func nearestEdge(to point: GeoPoint, maxMetres: Double) -> (edge: Int32, metres: Double)? {
        var best: (edge: Int32, metres: Double)?
        edgeGrid.forEachCandidate(near: point, radiusMetres: maxMetres) { e in
            if let b = best, b.edge == e { return }
            let d = Geodesy.distanceToPolyline(point, edges[Int(e)].shape).metres
            guard d <= maxMetres else { return }
            if let b = best, d > b.metres || (d == b.metres && e > b.edge) { return }
            best = (e, d)
        }
        return best
    }

    /// Edges with any part within `metres` of `point`. O(edges near the point).
    public func edges(near point: GeoPoint, within metres: Double) -> [Int32] {
        var found = Set<Int32>()
        edgeGrid.forEachCandidate(near: point, radiusMetres: metres) { e in
            if !found.contains(e), Geodesy.distanceToPolyline(point, edges[Int(e)].shape).metres <= metres {
                found.insert(e)
            }
        }
        return found.sorted()
    }
}
