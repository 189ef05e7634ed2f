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

/// The byte scanner's XML rules: what it decodes, what it refuses, and where it says so.
@Suite("OSM XML byte scanner")
struct OSMXMLScannerTests {
    static func parse(_ body: String, policy: LoadPolicy = .strict) throws(DataError) -> OSMData {
        try OSMXMLLoader.parse(
            Data("<?xml version='1.0'?>\n<osm version='0.6'>\n\(body)\n</osm>\n".utf8), file: "t.osm", policy: policy)
    }

    /// The line and reason of the error `body` raises.
    static func failure(_ body: String) -> (line: Int, reason: String)? {
        do throws(DataError) {
            _ = try parse(body)
            return nil
        } catch {
            guard case .badLayout(_, let line, let reason) = error else { return (error.line ?? 0, "\(error)") }
            return (line, reason)
        }
    }

    @Test("entity and character references are decoded, white space in values normalised")
    func decoding() throws {
        let data = try Self.parse(
            "<node id='1' lat='1' lon='2'><tag k='name' v='A &amp; B &lt;&gt; &quot;q&quot; &apos;s&apos; &#233;&#x20AC;'/>"
                + "<tag k='note' v='two\n\tlines'/></node>")
        #expect(data.nodes[0].tags["name"] == "A & B <> \"q\" 's' é€")
        #expect(data.nodes[0].tags["note"] == "two  lines")
    }

    @Test("ids and coordinates in other spellings are read as the number they write")
    func numbersAsText() throws {
        let data = try Self.parse("<node id=' 7 ' lat='+1.5e1' lon='-0.25'/><node id='&#56;' lat='.5' lon='3.'/>")
        #expect(data.nodes.map(\.id) == [7, 8])
        #expect(data.nodes[0].latitude == 15 && data.nodes[0].longitude == -0.25)
        #expect(data.nodes[1].latitude == 0.5 && data.nodes[1].longitude == 3)
    }

    /// The fast decimal path must give exactly what `Double(String)` gives.
    @Test("coordinates read from bytes equal Double(String) bit for bit")
    func decimalsExact() throws {
        var rng = SeededGenerator(seed: 7)
        var body = ""
        var expected: [(Double, Double)] = []
        for i in 0..<2000 {
            let lat = String(
                format: "%.\(Int.random(in: 0...9, using: &rng))f", Double.random(in: -90...90, using: &rng))
            let lon = String(
                format: "%.\(Int.random(in: 0...12, using: &rng))f", Double.random(in: -180...180, using: &rng))
            body += "<node id='\(i)' lat='\(lat)' lon='\(lon)'/>\n"
            expected.append((Double(lat)!, Double(lon)!))
        }
        let data = try Self.parse(body)
        #expect(data.nodes.count == expected.count)
        for (n, e) in zip(data.nodes, expected) {
            #expect(n.latitude.bitPattern == e.0.bitPattern && n.longitude.bitPattern == e.1.bitPattern)
        }
    }

    @Test(
        "malformed or unsafe XML is a located error",
        arguments: [
            ("<!DOCTYPE osm [<!ENTITY a 'aaaa'>]>", 3, "DOCTYPE"),
            ("<node id='1' lat='1' lon='2'><tag k='x' v='&a;'/></node>", 3, "entity &a; is not defined"),
            ("<node id='1' lat='1' lon='2'>\n<tag k='x' v='1'/>\n</way>", 5, "does not match"),
            ("<node id='1' lat='1' lon='2' id='2'/>", 3, "appears twice"),
            ("<node id='1'lat='1' lon='2'/>", 3, "separated by white space"),
            ("<node id='1' lat='1 < 2' lon='2'/>", 3, "'<' in the value"),
            ("<node id='1' lat='1' lon='2'/>\u{1}", 3, "not allowed"),
            ("<node id='1' lat='1' lon='2'/>\n<!-- a -- b -->", 4, "'--' inside a comment"),
            ("<?xml version='1.0'?>", 3, "only at the very start"),
            ("<node id='1' lat='1' lon='2' & />", 3, "needs a name"),
        ])
    func malformed(_ body: String, line: Int, reason: String) throws {
        let found = try #require(Self.failure(body))
        #expect(found.line == line)
        #expect(found.reason.contains(reason), "\(found.reason)")
    }

    @Test("one root element: text or a second element after it is an error")
    func oneRoot() throws {
        for tail in ["<osm/>", "stray"] {
            let xml = "<osm version='0.6'><node id='1' lat='1' lon='2'/></osm>\n\(tail)\n"
            #expect(throws: DataError.self) { try OSMXMLLoader.parse(Data(xml.utf8), file: "t.osm") }
        }
        let ok = "<?xml version='1.0'?><!-- c --><osm><![CDATA[ <x> ]]><node id='1' lat='1' lon='2'/></osm><?pi x?>\n"
        #expect(try OSMXMLLoader.parse(Data(ok.utf8), file: "t.osm").nodes.count == 1)
    }

    @Test("an element spread over lines is located at the line of its closing '>'")
    func multiLineTag() throws {
        #expect(
            throws: DataError.invalidField(
                file: "t.osm", line: 5, field: "node.lon", value: "200", reason: "outside -180…180")
        ) { try Self.parse("<node id='1'\n  lat='1'\n  lon='200'/>") }
    }

    @Test("an empty file or one without <osm> says what it expected")
    func noRoot() throws {
        for text in ["", "   \n", "<other/>"] {
            #expect(
                throws: DataError.badLayout(
                    file: "t.osm", line: 1, reason: "no <osm> root element; expected OpenStreetMap XML 0.6")
            ) {
                try OSMXMLLoader.parse(Data(text.utf8), file: "t.osm")
            }
        }
    }
}
