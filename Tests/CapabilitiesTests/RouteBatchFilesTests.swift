import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import CampusRouting
@testable import Capabilities

/// `RouteBatch.run(graph:queries:congestion:profiles:)`, the file pipeline of `fieldtest route`.
@Suite("Route batch from files")
struct RouteBatchFilesTests {
    @Test func filesGiveTheSameCSVAsTheInMemoryBatch() throws {
        let dir = TemporaryFiles.url("route-files")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let map = dir.appendingPathComponent("small.geojson")
        let queries = dir.appendingPathComponent("q.csv")
        try FileManager.default.copyItem(at: RouteFixtures.smallMap, to: map)
        let q = "id,from_lat,from_lon,to_lat,to_lon,profile\nq1,0,0,0.001,0.001,walk\nq2,5,5,0,0,walk\n"
        try q.write(to: queries, atomically: true, encoding: .utf8)
        let fromFiles = try RouteBatch.run(graph: map.path, queries: queries.path, congestion: nil, profiles: nil)
        let parsed = try RouteBatch.parseQueries(Array(q.utf8), file: "q.csv")
        let inMemory = RouteBatch.csv(
            queries: parsed, routes: try RouteBatch.run(graph: try RouteFixtures.smallGraph(), queries: parsed))
        #expect(fromFiles == inMemory)
        #expect(fromFiles.contains("q1,ok,222.390160467,"))
        #expect(throws: (any Error).self) {
            try RouteBatch.run(
                graph: dir.appendingPathComponent("missing.osm").path, queries: queries.path, congestion: nil,
                profiles: nil)
        }
    }

    @Test("the profiles a queries file names are read ahead; nil when they cannot be")
    func profileNamesReadAhead() throws {
        let dir = TemporaryFiles.url("route-names")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let queries = dir.appendingPathComponent("q.csv")
        try "id,from_lat,from_lon,to_lat,to_lon,profile\n1,0,0,0,0, walk\n2,0,0,0,0,cane\n3,0,0,0,0,walk\n"
            .write(to: queries, atomically: true, encoding: .utf8)
        #expect(RouteBatch.profileNames(inQueries: queries.path) == ["walk", "cane"])
        try "id,from_lat,from_lon,to_lat,to_lon\n1,0,0,0,0\n".write(to: queries, atomically: true, encoding: .utf8)
        #expect(RouteBatch.profileNames(inQueries: queries.path) == nil)
        #expect(RouteBatch.profileNames(inQueries: dir.appendingPathComponent("missing.csv").path) == nil)
        #expect(RouteBatch.profileNames(inQueries: dir.path) == nil)
    }
}

@Suite("GeoJSON maps as downloaded")
struct GeoJSONLenientTests {
    static let text = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"highway": "footway"},
           "geometry": {"type": "LineString", "coordinates": [[20.0, 10.0], [20.0, 10.001]]}},
          {"type": "Feature", "properties": {"highway": "footway"},
           "geometry": {"type": "LineString", "coordinates": [[20.0, 10.001], [200.0, 10.002]]}},
          {"type": "Feature", "properties": {"highway": "path"},
           "geometry": {"type": "LineString", "coordinates": [[20.0, 10.001], [20.001, 10.001]]}}
        ]}
        """

    @Test("a feature with a position out of range fails the file when strict, and is skipped and counted when lenient")
    func badFeature() throws {
        #expect(throws: RoutingError.self) { _ = try MapSource(geoJSON: Data(Self.text.utf8), file: "m.geojson") }
        var report = LoadReport()
        let source = try MapSource(geoJSON: Data(Self.text.utf8), file: "m.geojson", policy: .lenient, report: &report)
        #expect(report.rowsSkipped == 1)
        #expect(report.issues.first.map { "\($0)".contains("feature 1") } == true, "\(report.issues)")
        #expect(source.ways.count == 2)
        let graph = try CampusGraph(source: source)
        #expect(graph.vertices.count >= 3)
    }
}
