import CampusRouting
import FieldtestData
import Foundation
import Testing

/// The byte scanner against the XMLParser reader it replaced: the same OSM data and the same graph
/// on every bundled map, and the same outcome on damaged inputs.
@Suite("OSM XML byte scanner matches the XMLParser oracle")
struct OSMReaderOracleTests {
    static let maps = [
        "universidad_central_del_ecuador_campus.osm", "montgomery_college_rockville_campus.osm", "helsinki_centre.osm",
    ]

    @Test("same nodes, ways, relations, tags and lines on each bundled map", arguments: maps)
    func sameData(_ name: String) throws {
        let url = RoutingFixtures.campus(name)
        let scanned = try OSMXMLLoader.load(url: url, displayName: name)
        let oracle = try XMLParserOSMOracle.load(url: url, displayName: name)
        #expect(scanned.nodes.count == oracle.nodes.count && scanned.nodes.count > 1000)
        #expect(scanned.nodes == oracle.nodes)
        #expect(scanned.ways == oracle.ways)
        #expect(scanned.relations == oracle.relations)
        #expect(scanned.report == oracle.report)
        #expect(scanned.missingNodeRefs == oracle.missingNodeRefs)
        // Coordinates bit for bit, not only ==.
        #expect(zip(scanned.nodes, oracle.nodes).allSatisfy { $0.latitude.bitPattern == $1.latitude.bitPattern })
        #expect(zip(scanned.nodes, oracle.nodes).allSatisfy { $0.longitude.bitPattern == $1.longitude.bitPattern })
    }

    @Test("same routing graph on each bundled map", arguments: maps)
    func sameGraph(_ name: String) throws {
        let url = RoutingFixtures.campus(name)
        let scanned = try CampusGraph(source: MapSource(osm: try OSMXMLLoader.load(url: url), file: name))
        let oracle = try CampusGraph(source: MapSource(osm: try XMLParserOSMOracle.load(url: url), file: name))
        #expect(scanned.vertices == oracle.vertices)
        #expect(scanned.edges == oracle.edges)
        #expect(scanned.access == oracle.access)
    }

    /// Seeded edits of a small map (flipped bytes, cut tails, spliced lines): wherever the old reader
    /// read the file, the scanner reads the same data; where the old one refused it, so does the scanner.
    @Test("same outcome on damaged copies of a small map")
    func damagedCopies() throws {
        let seed = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
             <node id="1" lat="10.0" lon="20.0"/>
             <node id="2" lat="10.001" lon="-20.5" visible="true"><tag k="name" v="A &amp; B &#233;"/></node>
             <way id="100"><nd ref="1"/><nd ref="2"/><tag k="highway" v="footway"/></way>
             <relation id="5"><member type="way" ref="100" role="outer"/></relation>
            </osm>
            """.utf8)
        var rng = SeededGenerator(seed: 27)
        let alphabet = Array("<>/=\"' &;#x.-0129\n\tnode".utf8) + [0x80, 0xC3, 0xA9]
        var agreed = 0
        for _ in 0..<400 {
            var b = seed
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0..<b.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: b[at] = alphabet.randomElement(using: &rng)!
                case 1: b.removeSubrange(at..<min(b.count, at + Int.random(in: 1...8, using: &rng)))
                default: b.insert(alphabet.randomElement(using: &rng)!, at: at)
                }
                if b.isEmpty { b = seed }
            }
            let text = String(decoding: b, as: UTF8.self)
            for policy in [LoadPolicy.strict, .lenient] {
                let new = Result { try OSMXMLLoader.parse(Data(b), file: "m.osm", policy: policy) }
                let old = Result { try XMLParserOSMOracle.parse(Data(b), file: "m.osm", policy: policy) }
                switch (new, old) {
                case (.success(let n), .success(let o)):
                    #expect(n.nodes == o.nodes && n.ways == o.ways && n.relations == o.relations, "\(text)")
                    #expect(n.report == o.report, "\(text)")
                    agreed += 1
                case (.failure(let n as DataError), .failure(let o as DataError)):
                    // Data errors in well-formed XML are the same errors. (libxml2 hands over an element
                    // with the attributes it could read before it reports the malformed tag, so where
                    // the old reader named a missing attribute the scanner may name the bad markup.)
                    if case .invalidField = n, case .invalidField = o { #expect(n == o, "\(text)") }
                    agreed += 1
                default:
                    Issue.record("scanner \(new), oracle \(old) for:\n\(text)")
                }
            }
        }
        #expect(agreed == 800)
    }
}
