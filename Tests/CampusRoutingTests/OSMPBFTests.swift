import CampusRouting
import FieldtestData
import Foundation
import Testing

/// The PBF reader gives the same map as the XML reader, and damaged PBF files are located errors.
@Suite("OSM PBF maps")
struct OSMPBFTests {
    static let pbf = RoutingFixtures.fixture("universidad_central_del_ecuador_campus.osm.pbf")

    /// `data` with every element's line set to 0 (PBF has no lines).
    static func withoutLines(_ data: OSMData) -> OSMData {
        OSMData(
            nodes: data.nodes.map { OSMNode(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, tags: $0.tags) },
            ways: data.ways.map { OSMWay(id: $0.id, nodeRefs: $0.nodeRefs, tags: $0.tags) },
            relations: data.relations.map { OSMRelation(id: $0.id, members: $0.members, tags: $0.tags) },
            report: data.report)
    }

    @Test("a PBF made from a bundled map reads to the same data as its XML")
    func sameDataAsXML() throws {
        let xml = Self.withoutLines(try OSMXMLLoader.load(url: RoutingFixtures.quito))
        let pbf = try OSMPBFLoader.load(url: Self.pbf)
        #expect(pbf.nodes.count == 1680 && pbf.ways.count == 250 && pbf.relations.count == 3)
        #expect(pbf.nodes == xml.nodes)
        #expect(zip(pbf.nodes, xml.nodes).allSatisfy { $0.latitude.bitPattern == $1.latitude.bitPattern })
        #expect(pbf.ways == xml.ways)
        #expect(pbf.relations == xml.relations)
        #expect(pbf.report == xml.report)
    }

    @Test("plain (non-dense) nodes read like dense ones")
    func plainNodes() throws {
        let pbf = try OSMPBFLoader.load(url: RoutingFixtures.fixture("tiny_plain_nodes.osm.pbf"))
        #expect(pbf.nodes.map(\.id) == [1, 2, 3])
        #expect(pbf.nodes[1].tags == ["kerb": "raised"] && pbf.nodes[1].latitude == 10.001)
        #expect(pbf.ways.first?.nodeRefs == [1, 2, 3, 99])
        #expect(
            pbf.relations.first?.members == [
                OSMMember(kind: .way, ref: 100, role: "outer"), OSMMember(kind: .node, ref: 1, role: ""),
            ])
    }

    @Test("the routing graph from the PBF is the XML's graph")
    func sameGraph() throws {
        let fromPBF = try CampusGraph(source: try RoutingFixtures.map(Self.pbf).source)
        let fromXML = try CampusGraph(source: try RoutingFixtures.map(RoutingFixtures.quito).source)
        #expect(fromPBF.vertices == fromXML.vertices)
        #expect(fromPBF.edges == fromXML.edges)
        #expect(fromPBF.access == fromXML.access)
    }

    /// The block number and offset of a damaged PBF, from its error.
    static func failure(_ bytes: [UInt8]) -> DataError? {
        do throws(DataError) {
            _ = try OSMPBFLoader.parse(Data(bytes), file: "d.osm.pbf")
            return nil
        } catch { return error }
    }

    @Test("a truncated PBF is an error at its last block")
    func truncated() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.pbf))
        for cut in [bytes.count - 1, bytes.count / 2, 20, 2] {
            let error = try #require(Self.failure(Array(bytes[..<cut])), "cut at \(cut)")
            #expect(error.description.contains("truncated"), "\(error)")
            #expect((error.line ?? 0) >= 1)
        }
    }

    @Test("a corrupt zlib stream is an error naming its block")
    func badZlib() throws {
        var bytes = [UInt8](try Data(contentsOf: Self.pbf))
        // The second block is the first OSMData block; damage the middle of its compressed bytes.
        let headerLength = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let firstBlobSize = try #require(Self.blobSize(bytes, at: 0))
        let second = 4 + headerLength + firstBlobSize
        let secondHeaderLength = Int(bytes[second + 2]) << 8 | Int(bytes[second + 3])
        let secondBlobStart = second + 4 + secondHeaderLength
        for i in secondBlobStart + 40..<secondBlobStart + 60 { bytes[i] ^= 0x5A }
        let error = try #require(Self.failure(bytes))
        guard case .badLayout(_, let line, let reason) = error else {
            Issue.record("expected a bad layout, got \(error)")
            return
        }
        #expect(line == 2)
        #expect(reason.contains("block 2 (byte \(second))"), "\(reason)")
        #expect(reason.contains("inflate") || reason.contains("protobuf"), "\(reason)")
    }

    @Test("an XML file or noise is not taken for PBF")
    func notPBF() throws {
        #expect(Self.failure(Array("<osm/>".utf8)) != nil)
        #expect(Self.failure([]) != nil)
        #expect(!OSMPBFLoader.looksLikePBF(Array("<?xml version='1.0'?>".utf8)))
    }

    /// The `datasize` of the BlobHeader at `offset` (field 3, a varint), read by hand.
    static func blobSize(_ b: [UInt8], at offset: Int) -> Int? {
        let length = Int(b[offset + 2]) << 8 | Int(b[offset + 3])
        var i = offset + 4
        let end = i + length
        while i < end {
            let key = b[i]
            i += 1
            if key == 0x18 {
                var v = 0
                var shift = 0
                while b[i] & 0x80 != 0 {
                    v |= Int(b[i] & 0x7F) << shift
                    shift += 7
                    i += 1
                }
                return v | Int(b[i]) << shift
            }
            guard key & 7 == 2 else { return nil }
            i += Int(b[i]) + 1
        }
        return nil
    }
}
