import CampusRouting
import FieldtestData
import Foundation
import Testing

@Suite("Venues, search, surroundings, emergency routes and audits")
struct VenueTests {
    static func quito() throws -> (OSMData, CampusGraph, VenueDirectory) {
        let osm = try OSMXMLLoader.load(url: RoutingFixtures.quito)
        let g = try CampusGraph(source: MapSource(osm: osm, file: "quito"))
        return (osm, g, VenueDirectory(osm: osm, graph: g))
    }

    @Test("named buildings get entrances; nearest outline node when untagged")
    func directory() throws {
        let (osm, g, dir) = try Self.quito()
        let buildings = dir.venues(ofKind: [.building])
        #expect(buildings.count >= 40)
        let walk = try g.profileIndex(named: "walk")
        for v in buildings where !v.hasTaggedEntrance {
            // The chosen outline node is the one nearest the walk graph.
            let way = try #require(osm.ways.first { "way/\($0.id)" == v.ref })
            let outline = way.nodeRefs.compactMap { osm.node($0) }.map {
                GeoPoint(latitude: $0.latitude, longitude: $0.longitude)
            }
            let best = outline.compactMap { g.snap($0, profile: walk, maxMetres: 500)?.metres }.min()
            let chosen = try #require(v.entrances.first)
            if let best {
                #expect(abs((g.snap(chosen, profile: walk, maxMetres: 500)?.metres ?? .infinity) - best) < 1e-9)
            }
        }
    }

    @Test("search: prefix, word prefix, misspelling, accents, not found")
    func search() throws {
        let dir = VenueDirectory(venues: [
            Venue(
                ref: "a", name: "Biblioteca General", kind: .building, category: "library",
                location: GeoPoint(latitude: 0, longitude: 0), entrances: [], hasTaggedEntrance: false),
            Venue(
                ref: "b", name: "Facultad de Ingeniería", kind: .building, category: "university",
                location: GeoPoint(latitude: 0, longitude: 0), entrances: [], hasTaggedEntrance: false),
            Venue(
                ref: "c", name: "Teatro Universitario", kind: .pointOfInterest, category: "theatre",
                location: GeoPoint(latitude: 0, longitude: 0), entrances: [], hasTaggedEntrance: false),
        ])
        let s = VenueSearch(directory: dir)
        #expect(s.search("bibl").map(\.venue.ref) == ["a"])
        #expect(s.search("bibl").first?.rank == 0)
        #expect(s.search("inge").map(\.venue.ref) == ["b"])
        #expect(s.search("inge").first?.rank == 1)
        #expect(s.search("ingenieria").map(\.venue.ref) == ["b"])  // accent folded
        #expect(s.search("teatr unvi").map(\.venue.ref) == ["c"])  // one deletion
        #expect(s.search("Bibilotecca").map(\.venue.ref) == ["a"])  // transposition + insertion
        #expect(s.search("zzzz").isEmpty)
        #expect(s.search("  ").isEmpty)
    }

    @Test("search finds every named campus building from a 4-letter prefix within the top 5")
    func campusSearch() throws {
        let (_, _, dir) = try Self.quito()
        let s = VenueSearch(directory: dir)
        let named = dir.venues.filter { VenueSearch.normalise($0.name).count >= 4 }
        var hits = 0
        for v in named
        where s.search(String(VenueSearch.normalise(v.name).prefix(4)), limit: 50).contains(where: {
            $0.venue.ref == v.ref
        }) {
            hits += 1
        }
        #expect(hits == named.count)
    }

    @Test("events along a route exclude expired ones; POIs near the path")
    func surroundings() throws {
        let g = try SmallMap.graph()
        var router = AStarRouter()
        let r = router.route(in: g, from: SmallMap.a, to: SmallMap.c, profile: try g.profileIndex(named: "walk"))
        let events = [
            CampusEvent(title: "Open day", location: GeoPoint(latitude: 0.0001, longitude: 0.0005), start: 0, end: 100),
            CampusEvent(title: "Old fair", location: GeoPoint(latitude: 0.0001, longitude: 0.0005), start: 0, end: 50),
            CampusEvent(title: "Far gig", location: GeoPoint(latitude: 0.01, longitude: 0.01), start: 0, end: 100),
        ]
        #expect(RouteSurroundings.events(along: r, events: events, now: 60, within: 30).map(\.title) == ["Open day"])
        #expect(
            RouteSurroundings.events(near: SmallMap.a, events: events, now: 10, within: 100).map(\.title) == [
                "Old fair", "Open day",
            ])
        let dir = VenueDirectory(venues: [
            Venue(
                ref: "k", name: "Kiosk", kind: .pointOfInterest, category: "cafe",
                location: GeoPoint(latitude: 0.0005, longitude: 0.0011), entrances: [], hasTaggedEntrance: true)
        ])
        #expect(RouteSurroundings.venues(along: r, in: dir, within: 20).map(\.name) == ["Kiosk"])
        #expect(RouteSurroundings.venues(along: r, in: dir, within: 5).isEmpty)
    }

    @Test("emergency route goes to the nearest reachable exit, wheelchair-friendly when asked")
    func emergency() throws {
        let g = try SmallMap.graph()
        var router = AStarRouter()
        let exits = [SmallMap.e, SmallMap.c, SmallMap.b]  // E unreachable, C and B reachable
        let walk = try g.profileIndex(named: "walk")
        let w = EmergencyRouting.nearest(in: g, from: SmallMap.a, destinations: exits, profile: walk, router: &router)
        #expect(w.destination == 2)
        #expect(abs(w.route.lengthMetres - SmallMap.milliDegree) < 1e-6)
        // B is only reachable by wheelchair via the long way and C; C is nearer than B then.
        let wc = try g.profileIndex(named: "wheelchair")
        let r = EmergencyRouting.nearest(in: g, from: SmallMap.a, destinations: exits, profile: wc, router: &router)
        #expect(r.destination != nil)
        #expect(RouteAudit(route: r.route, graph: g).isWheelchairPassable)
        let none = EmergencyRouting.nearest(
            in: g, from: SmallMap.a, destinations: [SmallMap.e], profile: walk, router: &router)
        #expect(none.route.status == .noRoute)
    }

    @Test("audit counts steps and unknown accessibility")
    func audit() throws {
        let g = try SmallMap.graph()
        var router = AStarRouter()
        let walk = router.route(in: g, from: SmallMap.a, to: SmallMap.c, profile: try g.profileIndex(named: "walk"))
        let a = RouteAudit(route: walk, graph: g)
        #expect(a.stepsEdges == 1)
        #expect(a.unknownAccessibilityEdges == 2)
        #expect(abs(a.unknownAccessibilityMetres - 2 * SmallMap.milliDegree) < 1e-6)
        #expect(!a.isWheelchairPassable)
        #expect(a.impassableEdges == 1)
        let wc = router.route(in: g, from: SmallMap.a, to: SmallMap.c, profile: try g.profileIndex(named: "wheelchair"))
        let b = RouteAudit(route: wc, graph: g)
        #expect(b.isWheelchairPassable)
        #expect(b.unknownAccessibilityEdges == 0)
        #expect(b.impassableEdges == 0)
    }
}
