import FieldtestData
import Foundation

/// What a named place is.
public enum VenueKind: String, Sendable, Equatable {
    /// A building (`building=*` way or relation member) with a name.
    case building
    /// A named amenity, shop, office, leisure, tourism or historic feature (POI).
    case pointOfInterest = "poi"
    /// An exit (`entrance=exit|emergency`, `exit=*`).
    case exit
    /// An assembly point (`emergency=assembly_point`).
    case assemblyPoint = "assembly_point"
}

/// A named place on campus and where to walk to reach it.
public struct Venue: Sendable, Equatable {
    /// OSM reference such as `way/123` or `node/45`.
    public var ref: String
    /// Display name.
    public var name: String
    /// What it is.
    public var kind: VenueKind
    /// Main tag value describing it (e.g. `library`, `university`).
    public var category: String
    /// Representative position (polygon vertex mean, or the node) in degrees.
    public var location: GeoPoint
    /// Entrance positions: nodes tagged `entrance=*`/`door=*` on the outline; when there are none,
    /// the outline node nearest to the walk graph; for point venues, the point itself.
    public var entrances: [GeoPoint]
    /// Whether the entrances are tagged ones (false when taken from the nearest outline node).
    public var hasTaggedEntrance: Bool

    /// Creates a venue.
    public init(
        ref: String, name: String, kind: VenueKind, category: String, location: GeoPoint,
        entrances: [GeoPoint], hasTaggedEntrance: Bool
    ) {
        self.ref = ref
        self.name = name
        self.kind = kind
        self.category = category
        self.location = location
        self.entrances = entrances
        self.hasTaggedEntrance = hasTaggedEntrance
    }
}

/// The named places of an OSM map: buildings with entrances, POIs, exits and assembly points.
/// Built once from the OSM data and the graph; searched offline. Build O(elements).
public struct VenueDirectory: Sendable {
    /// All venues, in file order (nodes, then ways).
    public let venues: [Venue]

    /// Creates a directory from explicit venues (e.g. a cached copy).
    public init(venues: [Venue]) { self.venues = venues }

    /// Collects venues from `osm`; outline entrances fall back to the node nearest `graph`'s walk vertices.
    public init(osm: OSMData, graph: CampusGraph) {
        let walk = (try? graph.profileIndex(named: "walk")) ?? 0
        var out: [Venue] = []
        let poiKeys = ["amenity", "shop", "office", "leisure", "tourism", "historic"]
        func kind(of tags: [String: String]) -> (VenueKind, String)? {
            if tags["emergency"] == "assembly_point" { return (.assemblyPoint, "assembly_point") }
            if let e = tags["entrance"], e == "exit" || e == "emergency" { return (.exit, e) }
            if tags["exit"] != nil, tags["exit"] != "no" { return (.exit, "exit") }
            guard tags["name"] != nil else { return nil }
            if let b = tags["building"] { return (.building, tags["amenity"] ?? b) }
            for k in poiKeys { if let v = tags[k] { return (.pointOfInterest, v) } }
            return nil
        }
        for n in osm.nodes {
            guard let (k, cat) = kind(of: n.tags) else { continue }
            let p = GeoPoint(latitude: n.latitude, longitude: n.longitude)
            out.append(
                Venue(
                    ref: "node/\(n.id)", name: n.tags["name"] ?? n.tags["ref"] ?? k.rawValue, kind: k, category: cat,
                    location: p, entrances: [p], hasTaggedEntrance: true))
        }
        for w in osm.ways {
            guard w.tags["highway"] == nil, let (k, cat) = kind(of: w.tags) else { continue }
            let nodes = w.nodeRefs.compactMap { osm.node($0) }
            guard !nodes.isEmpty else { continue }
            let centre = GeoPoint(
                latitude: nodes.reduce(0) { $0 + $1.latitude } / Double(nodes.count),
                longitude: nodes.reduce(0) { $0 + $1.longitude } / Double(nodes.count))
            var entrances = nodes.filter { $0.tags["entrance"] != nil || $0.tags["door"] != nil }
                .map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
            let tagged = !entrances.isEmpty
            if !tagged {
                let outline = nodes.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
                let best = outline.min { a, b in
                    (graph.snap(a, profile: walk, maxMetres: 500)?.metres ?? .infinity, a.latitude, a.longitude)
                        < (graph.snap(b, profile: walk, maxMetres: 500)?.metres ?? .infinity, b.latitude, b.longitude)
                }
                entrances = best.map { [$0] } ?? [centre]
            }
            out.append(
                Venue(
                    ref: "way/\(w.id)", name: w.tags["name"] ?? w.tags["ref"] ?? k.rawValue, kind: k, category: cat,
                    location: centre, entrances: entrances, hasTaggedEntrance: tagged))
        }
        self.venues = out
    }

    /// Venues of the given kinds.
    public func venues(ofKind kinds: Set<VenueKind>) -> [Venue] { venues.filter { kinds.contains($0.kind) } }
}
