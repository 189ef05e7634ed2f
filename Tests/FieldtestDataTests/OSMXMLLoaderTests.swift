import Foundation
import Testing

@testable import FieldtestData

/// Fixture and bundled-dataset locations for the map loader tests.
enum MapFixtures {
    static func url(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/maps/\(name)", withExtension: nil))
    }

    static let datasets = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Datasets")
}

@Suite("OSM XML loader")
struct OSMXMLLoaderTests {
    @Test("reads nodes, ways, relations and tags; counts dangling refs")
    func tiny() throws {
        let data = try OSMXMLLoader.load(url: try MapFixtures.url("tiny.osm"), displayName: "tiny.osm")
        #expect(data.nodes.count == 3)
        #expect(data.ways.count == 1)
        #expect(data.relations.count == 1)
        #expect(data.elementCount == 5)
        let n2 = try #require(data.node(2))
        #expect(abs(n2.latitude - 10.001) < 1e-12)
        #expect(n2.tags["kerb"] == "raised")
        #expect(n2.line == 4)
        let way = try #require(data.ways.first)
        #expect(way.nodeRefs == [1, 2, 3, 99])
        #expect(way.tags["name"] == "Main Walk")
        #expect(data.missingNodeRefs == 1)
        #expect(data.waysWithMissingNodes == 1)
        #expect(data.presentRuns(of: way) == [[0, 1, 2]])
        let rel = try #require(data.relations.first)
        #expect(
            rel.members == [OSMMember(kind: .way, ref: 100, role: "outer"), OSMMember(kind: .node, ref: 1, role: "")])
    }

    /// A JOSM save keeps deleted elements (action="delete", a deleted node may have no
    /// coordinates) and an Overpass download adds <bounds>, <meta> and <note>: none of them is map.
    @Test("deleted elements and download metadata are passed over")
    func editorAndOverpassFiles() throws {
        let xml = """
            <?xml version='1.0' encoding='UTF-8'?>
            <osm version='0.6' generator='JOSM'>
              <note>The data included in this document is from www.openstreetmap.org.</note>
              <meta osm_base="2024-01-01T00:00:00Z"/>
              <bounds minlat='10' minlon='20' maxlat='10.1' maxlon='20.1' origin='CGImap 0.8.3'/>
              <node id='-101' action='modify' visible='true' lat='10.0' lon='20.0'/>
              <node id='-102' visible='true' lat='10.001' lon='20.001'><tag k='kerb' v='flush'/></node>
              <node id='7' action='delete' visible='true' version='3'/>
              <node id='8' visible='false' version='4' changeset='1' timestamp='2020-01-01T00:00:00Z'/>
              <way id='-201' action='modify' visible='true'>
                <nd ref='-101'/><nd ref='-102'/><tag k='highway' v='footway'/><tag k='surface:note' v='any tag'/>
              </way>
              <way id='9' action='delete' visible='true'><nd ref='7'/><nd ref='8'/></way>
              <relation id='-301' visible='true'><member type='way' ref='-201' role=''/><tag k='type' v='route'/></relation>
            </osm>
            """
        let data = try OSMXMLLoader.parse(Data(xml.utf8), file: "josm.osm")
        #expect(data.nodes.map(\.id) == [-101, -102])
        #expect(data.ways.map(\.id) == [-201] && data.ways[0].tags["surface:note"] == "any tag")
        #expect(data.relations.count == 1)
        #expect(data.report.rowsSkipped == 0)
    }

    @Test("a hole in a way splits it into runs")
    func runs() {
        let data = OSMData(
            nodes: [
                OSMNode(id: 1, latitude: 0, longitude: 0), OSMNode(id: 2, latitude: 0, longitude: 1),
                OSMNode(id: 4, latitude: 0, longitude: 3), OSMNode(id: 5, latitude: 0, longitude: 4),
            ],
            ways: [OSMWay(id: 9, nodeRefs: [1, 2, 3, 4, 5, 6, 1])], relations: [])
        #expect(data.presentRuns(of: data.ways[0]) == [[0, 1], [2, 3]])
        #expect(data.missingNodeRefs == 2)
    }

    @Test("latitude out of range is a located error")
    func badLatitude() throws {
        #expect(
            throws: DataError.invalidField(
                file: "bad_lat.osm", line: 4, field: "node.lat", value: "91.5", reason: "outside -90…90")
        ) {
            try OSMXMLLoader.load(url: try MapFixtures.url("bad_lat.osm"), displayName: "bad_lat.osm")
        }
    }

    @Test("lenient load skips the bad node and reports it")
    func lenient() throws {
        let data = try OSMXMLLoader.load(
            url: try MapFixtures.url("bad_lat.osm"), displayName: "bad_lat.osm", policy: .lenient)
        #expect(data.nodes.map(\.id) == [1, 3])
        #expect(data.report.rowsSkipped == 1)
        #expect(data.report.issues.first?.line == 4)
    }

    @Test("a way without id is a located error")
    func missingID() throws {
        let url = try MapFixtures.url("missing_id.osm")
        do throws(DataError) {
            _ = try OSMXMLLoader.load(url: url, displayName: "missing_id.osm")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 4)
            #expect(error.description.contains("missing attribute 'id'"))
        }
    }

    @Test("truncated XML is a bad layout with a line")
    func truncated() throws {
        let url = try MapFixtures.url("truncated.osm")
        do throws(DataError) {
            _ = try OSMXMLLoader.load(url: url, displayName: "truncated.osm")
            Issue.record("expected an error")
        } catch {
            guard case .badLayout(let file, let line, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(file == "truncated.osm")
            #expect(line >= 5)
        }
    }

    /// Found by the fuzzer: Foundation's XML parser trapped on an invalid byte in an attribute name.
    @Test("invalid UTF-8 is a located error, not a crash in the XML parser")
    func invalidUTF8() throws {
        let url = try MapFixtures.url("invalid_utf8_name.osm")
        #expect(throws: DataError.invalidUTF8(file: "bad.osm", line: 18, field: nil)) {
            _ = try OSMXMLLoader.load(url: url, displayName: "bad.osm")
        }
    }

    @Test("bundled campus counts match the source documentation")
    func campus() throws {
        let url = MapFixtures.datasets.appendingPathComponent("maps/universidad_central_del_ecuador_campus.osm")
        let data = try OSMXMLLoader.load(url: url)
        #expect(data.nodes.count == 1680)
        #expect(data.ways.count == 250)
        #expect(data.relations.count == 3)
        #expect(data.nodes.allSatisfy { $0.latitude < 0 })
    }
}
