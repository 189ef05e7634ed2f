import CampusRouting
import FieldtestData

/// Route on a campus graph in-process: build a graph from map data, then ask the A* router for the
/// cheapest walk between two points. Lengths are metres, durations seconds, coordinates WGS 84.
enum RouteOnCampus: InProcessExample {
    static func run() throws {
        // snippet.map
        // A tiny map: three footpaths around a square, and one flight of steps across it. A real map comes
        // from an OpenStreetMap extract with `MapFile.load(url:)`.
        let corners = [
            GeoPoint(latitude: 39.0950, longitude: -77.1530), GeoPoint(latitude: 39.0950, longitude: -77.1520),
            GeoPoint(latitude: 39.0958, longitude: -77.1520), GeoPoint(latitude: 39.0958, longitude: -77.1530),
        ]
        let points = corners.enumerated().map { MapSource.Point(osmID: Int64($0.offset + 1), location: $0.element) }
        let ways = [
            MapSource.Way(osmID: 10, points: [0, 1, 2], tags: ["highway": "footway"]),
            MapSource.Way(osmID: 11, points: [2, 3], tags: ["highway": "footway"]),
            MapSource.Way(osmID: 12, points: [0, 3], tags: ["highway": "steps"]),
        ]
        let graph = try CampusGraph(source: MapSource(file: "square", points: points, ways: ways))
        // snippet.end

        // snippet.route
        // Walkers take the steps; a wheelchair goes the long way round, on paths its profile allows.
        var router = AStarRouter()
        for profile in ["walk", "wheelchair"] {
            let route = router.route(
                in: graph, from: corners[0], to: corners[3], profile: try graph.profileIndex(named: profile))
            print(
                profile, route.status, Int(route.lengthMetres.rounded()), "m", Int(route.durationSeconds.rounded()), "s"
            )
        }
        // snippet.end
    }
}
