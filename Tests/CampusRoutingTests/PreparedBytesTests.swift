import CampusRouting
import FieldtestData
import Foundation
import Testing

/// A graph's prepared adjacency as bytes and back (what `GraphCache` stores): offered to a build of
/// the same map it is taken as is; malformed bytes are refused with the reason.
@Suite("Prepared adjacency bytes")
struct PreparedBytesTests {
    @Test("bytes of a graph's prepared profiles are taken by a build of the same map")
    func roundTrip() throws {
        let source = try MapSource(geoJSON: Data(SmallMap.geoJSON.utf8), file: "small.geojson")
        let built = try CampusGraph(source: source)
        let indices = Array(built.profiles.indices)
        let bytes = built.preparedBytes(profiles: indices)
        #expect(!bytes.isEmpty && bytes.count % 8 == 0)
        let decoded = try bytes.withUnsafeBytes { raw in
            try CampusGraph.preparedAdjacency(decoding: raw, count: indices.count).get()
        }
        #expect(decoded.count == indices.count)
        var asked = 0
        let rebuilt = try CampusGraph(source: source, profiles: .builtIn, preparing: indices) {
            asked += 1
            return decoded
        }
        #expect(asked == 1)
        #expect(rebuilt.uses(decoded, for: indices))
        #expect(rebuilt.preparedBytes(profiles: indices) == bytes)
        // Not offered: the graph computes its own, with the same bytes.
        let own = try CampusGraph(source: source, profiles: .builtIn, preparing: indices) { nil }
        #expect(!own.uses(decoded, for: indices))
        #expect(own.preparedBytes(profiles: indices) == bytes)
    }

    @Test("truncated or overlong bytes are refused with the reason")
    func malformed() throws {
        let g = try CampusGraph(source: try MapSource(geoJSON: Data(SmallMap.geoJSON.utf8), file: "small.geojson"))
        let bytes = g.preparedBytes(profiles: [0])
        func reason(_ b: [UInt8], count: Int = 1) -> String? {
            b.withUnsafeBytes { raw in
                if case .failure(let e) = CampusGraph.preparedAdjacency(decoding: raw, count: count) { return e.reason }
                return nil
            }
        }
        #expect(reason(bytes) == nil)
        #expect(reason(Array(bytes.dropLast(8))) == "the cache file's arrays are malformed")
        #expect(reason(bytes + [0, 0, 0, 0, 0, 0, 0, 0]) == "the cache file has bytes past its arrays")
        #expect(reason(bytes, count: 2) == "the cache file's arrays are malformed")
    }
}
