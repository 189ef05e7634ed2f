import CampusRouting
import FieldtestData
import Foundation
import Testing

/// A campus as exported can hold an element that cannot be read: strictly it is an error at its
/// line; leniently it is skipped and counted, and the rest of the map routes.
@Suite("Map files with an unreadable element")
struct MapFileLenientTests {
    @Test func badNodeIsSkippedLenientlyAndLocatedStrictly() throws {
        let xml = """
            <?xml version='1.0' encoding='UTF-8'?>
            <osm version='0.6'>
              <node id='1' lat='10.0' lon='20.0'/>
              <node id='2' lat='10.001' lon='20.0'/>
              <node id='3' lat='10.002' lon='20.0'/>
              <node id='4' lat='north' lon='20.0'/>
              <way id='10'><nd ref='1'/><nd ref='2'/><nd ref='3'/><tag k='highway' v='footway'/></way>
            </osm>
            """
        let bytes = Data(xml.utf8)
        #expect(throws: RoutingError.self) { try MapFile.parse(bytes, format: .osmXML, file: "campus.osm") }
        let map = try MapFile.parse(bytes, format: .osmXML, file: "campus.osm", policy: .lenient)
        let report = try #require(map.osm?.report)
        #expect(report.rowsSkipped == 1 && report.issues.first?.line == 6)
        #expect(map.osm?.nodes.count == 3 && map.osm?.ways.count == 1)
    }
}
