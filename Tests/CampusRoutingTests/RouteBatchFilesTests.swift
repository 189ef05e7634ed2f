import Foundation
import Testing

@testable import CampusRouting

/// `RouteBatch.run(graph:queries:congestion:profiles:)`, the file pipeline of `fieldtest route`.
@Suite("Route batch from files")
struct RouteBatchFilesTests {
    @Test func filesGiveTheSameCSVAsTheInMemoryBatch() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("route-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let map = dir.appendingPathComponent("small.geojson")
        let queries = dir.appendingPathComponent("q.csv")
        try SmallMap.geoJSON.write(to: map, atomically: true, encoding: .utf8)
        let q = "id,from_lat,from_lon,to_lat,to_lon,profile\nq1,0,0,0.001,0.001,walk\nq2,5,5,0,0,walk\n"
        try q.write(to: queries, atomically: true, encoding: .utf8)
        let fromFiles = try RouteBatch.run(graph: map.path, queries: queries.path, congestion: nil, profiles: nil)
        let parsed = try RouteBatch.parseQueries(Array(q.utf8), file: "q.csv")
        let inMemory = RouteBatch.csv(
            queries: parsed, routes: try RouteBatch.run(graph: try SmallMap.graph(), queries: parsed))
        #expect(fromFiles == inMemory)
        #expect(fromFiles.contains("q1,ok,222.390160467,"))
        #expect(throws: (any Error).self) {
            try RouteBatch.run(
                graph: dir.appendingPathComponent("missing.osm").path, queries: queries.path, congestion: nil,
                profiles: nil)
        }
    }
}
