import CampusRouting
import Capabilities
import FieldtestData
import Foundation
import ScenarioEngine

/// A named place on the campus a user can search for, route to, and hold events at.
public struct NavUPVenue: Sendable, Equatable {
    /// Display name (OSM `name`).
    public var name: String
    /// Where routes to the venue end: its first `entrance` node, else the centroid of its outline (degrees).
    public var location: GeoPoint
    /// `building`, `amenity` or `leisure` value that made it a venue.
    public var kind: String
}

/// A place to evacuate to: a building entrance or an assembly area (NAV-F9, NAV-F18).
public struct NavUPExit: Sendable, Equatable {
    /// Name for reports.
    public var name: String
    /// Position, degrees.
    public var location: GeoPoint
    /// Projection onto the nearest usable edge, per profile index; nil when the exit is not reachable in
    /// that profile's graph.
    public var snaps: [EdgeSnap?]
}

/// The campus as the NavUP driver uses it: the routing graph with its `walk` and `wheelchair` profiles,
/// the venues, POIs and exits read from the same OSM file. Built once per dataset and shared across
/// sweep cases (immutable).
///
/// Venues: ways or nodes with a `name` and a `building`, `amenity` or `leisure` tag, located at their
/// first node tagged `entrance` when they have one (the dataset notes that entrances are sparse), else at
/// the mean of their outline's nodes; whole-campus outlines (`amenity=university|college|school`) are not
/// venues; venues farther than 200 m from the walk graph are dropped.
/// Exits: every node tagged `entrance` or `emergency=assembly_point` within 50 m of a profile's graph,
/// and the centres of `amenity=parking` and `leisure=pitch|park` areas (open assembly areas) within 200 m.
public final class NavUPCampus: @unchecked Sendable {
    /// Routing graph with every built-in profile.
    public let graph: CampusGraph
    /// Index of the `walk` profile.
    public let walk: Int
    /// Index of the `wheelchair` profile.
    public let wheelchair: Int
    /// Searchable venues, sorted by name.
    public let venues: [NavUPVenue]
    /// Named points of interest (amenity/shop/tourism nodes).
    public let pois: [NavUPVenue]
    /// Evacuation targets.
    public let exits: [NavUPExit]
    /// Bounding-box centre of the graph, degrees (heat-map origin).
    public let origin: GeoPoint
    /// Map elements read and skipped (with the first reasons) when the map was loaded.
    public let loadReport: LoadReport

    /// Loads `url` (OSM XML) and builds everything. Errors are located in the file.
    public init(url: URL, displayName: String) throws {
        // A campus as exported: an element that cannot be read is skipped (counted in the OSM report).
        let map = try MapFile.load(url: url, displayName: displayName, policy: .lenient)
        let graph = try CampusGraph(source: map.source)
        loadReport = map.report
        self.graph = graph
        walk = try graph.profileIndex(named: "walk")
        wheelchair = try graph.profileIndex(named: "wheelchair")
        var venues: [NavUPVenue] = []
        var pois: [NavUPVenue] = []
        var exits: [NavUPExit] = []
        var seenExit = Set<Int64>()
        func exitSnaps(_ p: GeoPoint, within metres: Double) -> [EdgeSnap?] {
            (0..<graph.profiles.count).map { graph.snapToEdge(p, profile: $0, maxMetres: metres) }
        }
        if let osm = map.osm {
            for node in osm.nodes {
                let p = GeoPoint(latitude: node.latitude, longitude: node.longitude)
                if node.tags["entrance"] != nil || node.tags["emergency"] == "assembly_point",
                    seenExit.insert(node.id).inserted
                {
                    exits.append(
                        NavUPExit(
                            name: node.tags["name"] ?? "entrance \(node.id)", location: p,
                            snaps: exitSnaps(p, within: 50)))
                }
                guard let name = node.tags["name"] else { continue }
                if let kind = node.tags["amenity"] ?? node.tags["shop"] ?? node.tags["tourism"] {
                    pois.append(NavUPVenue(name: name, location: p, kind: kind))
                }
                if let kind = node.tags["building"] ?? node.tags["amenity"] ?? node.tags["leisure"] {
                    venues.append(NavUPVenue(name: name, location: p, kind: kind))
                }
            }
            for way in osm.ways {
                let points = way.nodeRefs.compactMap { osm.node($0) }
                guard !points.isEmpty else { continue }
                let lat = points.reduce(0) { $0 + $1.latitude } / Double(points.count)
                let lon = points.reduce(0) { $0 + $1.longitude } / Double(points.count)
                let centre = GeoPoint(latitude: lat, longitude: lon)
                if way.tags["amenity"] == "parking" || way.tags["leisure"] == "pitch" || way.tags["leisure"] == "park" {
                    exits.append(
                        NavUPExit(
                            name: way.tags["name"] ?? "assembly area \(way.id)", location: centre,
                            snaps: exitSnaps(centre, within: 200)))
                }
                guard way.tags["highway"] == nil, let name = way.tags["name"],
                    let kind = way.tags["building"] ?? way.tags["amenity"] ?? way.tags["leisure"],
                    !Self.campusOutlines.contains(way.tags["amenity"] ?? "")
                else { continue }
                let entrance = points.first { $0.tags["entrance"] != nil }
                let location = entrance.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) } ?? centre
                venues.append(NavUPVenue(name: name, location: location, kind: kind))
            }
        }
        let walkIndex = walk
        self.venues = venues.filter { graph.snapToEdge($0.location, profile: walkIndex) != nil }
            .sorted {
                ($0.name, $0.location.latitude, $0.location.longitude) < (
                    $1.name, $1.location.latitude, $1.location.longitude
                )
            }
        self.pois = pois
        self.exits = exits
        let lats = graph.vertices.map(\.location.latitude)
        let lons = graph.vertices.map(\.location.longitude)
        origin = GeoPoint(
            latitude: ((lats.min() ?? 0) + (lats.max() ?? 0)) / 2,
            longitude: ((lons.min() ?? 0) + (lons.max() ?? 0)) / 2)
    }

    /// `amenity` values of whole-campus outlines, which are not venues of their own.
    static let campusOutlines: Set<String> = ["university", "college", "school"]

    /// The venue called exactly `name` (first in name order), if any.
    public func venue(named name: String) -> NavUPVenue? { venues.first { $0.name == name } }

    /// A place given as a venue name or as `lat,lon` in degrees; nil for an unknown
    /// name and for coordinates that are not finite or out of range (|lat| > 90, |lon| > 180).
    public func place(_ text: String) -> GeoPoint? {
        if let v = venue(named: text) { return v.location }
        if case .coordinates(let lat, let lon) = PlaceText.read(text) { return GeoPoint(latitude: lat, longitude: lon) }
        return nil
    }
}
