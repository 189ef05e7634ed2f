import FieldtestData
import Foundation

/// The routing-relevant content of a map, independent of its file format:
/// points (with OSM ids when known) and `highway` ways as runs of point indices.
public struct MapSource: Sendable {
    /// A map point.
    public struct Point: Sendable, Equatable {
        /// OSM node id, or nil for formats without ids (GeoJSON).
        public var osmID: Int64?
        /// Position in degrees.
        public var location: GeoPoint
        /// Node tags (empty for GeoJSON vertices).
        public var tags: [String: String]

        /// Creates a point.
        public init(osmID: Int64?, location: GeoPoint, tags: [String: String] = [:]) {
            self.osmID = osmID
            self.location = location
            self.tags = tags
        }
    }

    /// A way: ordered point indices (at least two) and tags.
    public struct Way: Sendable, Equatable {
        /// OSM way id, or nil.
        public var osmID: Int64?
        /// Indices into `points`, in way order.
        public var points: [Int]
        /// Way tags.
        public var tags: [String: String]

        /// Creates a way.
        public init(osmID: Int64?, points: [Int], tags: [String: String]) {
            self.osmID = osmID
            self.points = points
            self.tags = tags
        }
    }

    /// Display name of the source file (for messages).
    public var file: String
    /// All points.
    public var points: [Point]
    /// Ways carrying a `highway` tag.
    public var ways: [Way]
    /// Way references to points missing from the file (clipped extracts).
    public var missingNodeRefs: Int

    /// Creates a source.
    public init(file: String, points: [Point], ways: [Way], missingNodeRefs: Int = 0) {
        self.file = file
        self.points = points
        self.ways = ways
        self.missingNodeRefs = missingNodeRefs
    }

    /// The `highway` ways of an OSM extract; ways clipped by the extract edge become their present runs.
    /// O(elements).
    public init(osm: OSMData, file: String) {
        self.file = file
        // In slices on every core, each filling its own range of the one array.
        let nodes = osm.nodes
        self.points = [Point](unsafeUninitializedCapacity: nodes.count) { buffer, initialized in
            nonisolated(unsafe) let slots = buffer
            _ = ParallelSlices.map(
                count: nodes.count, jobs: ProcessInfo.processInfo.activeProcessorCount, minimumPerSlice: 4096
            ) { range in
                for i in range {
                    let n = nodes[i]
                    (slots.baseAddress! + i).initialize(
                        to: Point(
                            osmID: n.id, location: GeoPoint(latitude: n.latitude, longitude: n.longitude),
                            tags: n.tags))
                }
            }
            initialized = nodes.count
        }
        var ways: [Way] = []
        for w in osm.ways where w.tags["highway"] != nil {
            for run in osm.presentRuns(of: w) { ways.append(Way(osmID: w.id, points: run, tags: w.tags)) }
        }
        self.ways = ways
        self.missingNodeRefs = osm.missingNodeRefs
    }
}
