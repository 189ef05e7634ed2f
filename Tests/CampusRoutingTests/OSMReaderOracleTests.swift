import CampusRouting
import Foundation
import Testing

@testable import FieldtestData

/// The byte scanner against an independent reader built on Foundation's XMLParser (libxml2): the same
/// OSM data and the same graph on every bundled map, and the same outcome on unusual, cut and damaged
/// inputs.
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

    /// Inputs that well-formed but unusual OSM XML, or a broken file, can hold; the expected verdict
    /// (read or refused) is checked too, so a case cannot pass by both readers failing on a typo.
    @Test(
        "tricky inputs give the oracle's data, or are refused where it refuses them",
        arguments: trickyCases)
    func tricky(_ body: String, read: Bool) {
        let document = Self.document(body)
        for policy in [LoadPolicy.strict, .lenient] {
            let wasRead = Self.expectSame(document, policy: policy)
            if policy == .strict { #expect(wasRead == read, "\(body)") }
        }
    }

    @Test("a document cut anywhere gives the oracle's outcome")
    func truncations() {
        let whole = Self.document(
            "<node id='1' lat='1' lon='2'><tag k='name' v='A &amp; B'/></node>\n"
                + "<way id='2'><nd ref='1'/><tag k='highway' v='footway'/></way>\n"
                + "<relation id='3'><member type='way' ref='2' role='outer'/></relation>")
        for end in 0...whole.count { Self.expectSame(Array(whole[..<end]), policy: .strict) }
    }

    /// The data of `bytes` read in `parts` parts (of any size), when the reader takes that path.
    static func inParts(_ bytes: [UInt8], parts: Int = 2, policy: LoadPolicy = .strict) -> OSMData? {
        bytes.withUnsafeBytes {
            OSMXMLLoader.parseInParts(bytes: $0, file: "t.osm", policy: policy, parts: parts, minimumPartBytes: 1)
        }
    }

    static func expectSameData(_ a: OSMData, _ b: OSMData, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.nodes == b.nodes && a.ways == b.ways && a.relations == b.relations, sourceLocation: sourceLocation)
        #expect(a.report == b.report && a.missingNodeRefs == b.missingNodeRefs, sourceLocation: sourceLocation)
        #expect(a.nodes.map(\.line) == b.nodes.map(\.line), sourceLocation: sourceLocation)
        #expect(a.ways.map(\.line) == b.ways.map(\.line), sourceLocation: sourceLocation)
    }

    /// The unusual documents of `tricky`: a body, and whether the oracle reads it (strict).
    static let trickyCases: [(String, Bool)] = [
        // Entities, character references and white space normalised in values.
        ("<node id='1' lat='1' lon='2'><tag k='a&amp;b' v='&lt;&gt;&quot;&apos;&#233;&#x20AC;'/></node>", true),
        ("<node id='1' lat='1' lon='2'><tag k='note' v='two\n\tlines\r\nthree'/></node>", true),
        ("<node id='&#49;' lat='&#49;.5' lon='2'/>", true),
        // CDATA, comments and processing instructions between and inside elements.
        (
            "<!-- c --><node id='1' lat='1' lon='2'><![CDATA[ <tag k='x' v='y'/> ]]><!-- <nd ref='1'/> --></node>",
            true
        ),
        ("<?pi data?><way id='3'><nd ref='1'/><!--\n\n--><nd ref='2'/></way>", true),
        // Attributes in any order, either quote, white space around '='.
        ("<node lon=\"2\" lat='1' id = \"5\" version='3'/>", true),
        ("<node\n  id='1'\n  lat='1'\n  lon='2'\n/>", true),
        ("<member type='way' ref='1'/>", false),
        (
            "<relation id='9'><member role='outer' ref='1' type='way'/><member ref='2' type='node'/></relation>",
            true
        ),
        // Self-closing against open-and-closed elements, and empty open ones.
        ("<node id='1' lat='1' lon='2'></node><node id='2' lat='1' lon='2'/><way id='3'></way>", true),
        // A key given twice keeps its last value; a tag without v is an empty value.
        ("<way id='3'><tag k='name' v='A'/><tag k='name' v='B'/><tag k='x'/></way>", true),
        // Keys and values the reader reuses: equal heads and lengths, different bytes; long repeats.
        (
            "<way id='3'><tag k='building:levels' v='a value longer than 15'/>"
                + "<tag k='building:colour' v='a value longer than 16'/><tag k='name' v='a value longer than 15'/>"
                + "<tag k='n' v=''/><tag k='m' v=''/></way><relation id='4'><member type='way' ref='3' role='outer'/>"
                + "<member type='way' ref='3' role='outer'/><member type='way' ref='3' role='outex'/></relation>",
            true
        ),
        // Names sharing their first eight bytes are different names; names like the reader's are not theirs.
        ("<node timestamp1='a' timestamp2='b' idx='7' id='1' lat='1' lon='2' la='0' lont='9'/>", true),
        ("<node id='1' lat='1' lon='2' timestamp='a' timestamp='b'/>", false),
        ("<node id='1' lat='1' lon='2' i='1' d='2'/><tag k='stray' v='outside'/>", true),
        // More attributes and deeper nesting than the scanner's first buffers hold.
        (
            "<node id='1' lat='1' lon='2' "
                + (0..<40).map { "a\($0)='\($0)'" }.joined(separator: " ") + "/>", true
        ),
        (String(repeating: "<x>", count: 40) + String(repeating: "</x>", count: 40), true),
        // Deleted elements, and values that are not plain ('false' spelled with a reference).
        (
            "<node id='7' action='delete'/><node id='8' visible='fals&#101;'/><node id='9' visible='true' lat='1' lon='1'/>",
            true
        ),
        // Numbers in other spellings, and numbers that are not.
        ("<node id=' 7 ' lat='+1.5e1' lon='-0.25'/><node id='8' lat='.5' lon='3.'/>", true),
        ("<node id='99999999999999999999' lat='1' lon='2'/>", false),
        ("<node id='1' lat='1.0000000000000001' lon='179.99999999999999999'/>", true),
        ("<node id='1' lat='90.0000001' lon='2'/>", false),
        ("<node id='1' lat='1' lon='2'><tag v='no key'/></node>", false),
        ("<nd ref='1'/>", false),
        ("<way id='x1'/>", false),
        ("<relation id='1'><member type='area' ref='1' role=''/></relation>", false),
        ("<relation id='1'><member type='way' role=''/></relation>", false),
        // Malformed XML, located by line.
        ("<node id='1' lat='1' lon='2'>\n<tag k='x' v='1'/>\n</way>", false),
        ("<node id='1' lat='1' lon='2'/>\n<!-- a -- b -->", false),
        ("<node id='1'lat='1' lon='2'/>", false),
        ("<node id='1' lat='1' lon='2' & />", false),
        ("<node id='1' lat='1' lon='2'><tag k='x' v='&a;'/></node>", false),
        ("<!DOCTYPE osm>", false),
        ("<node id='1' lat='1' lon='2'/>\n\n<way id='2'>\n<nd ref='1'/>", false),
    ]

    static var trickyBodies: [String] { trickyCases.map(\.0) }

    @Test("a bundled map read in 2, 3 or 8 parts gives what the oracle reads", arguments: maps)
    func inParts(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: RoutingFixtures.campus(name)))
        let oracle = try XMLParserOSMOracle.parse(Data(bytes), file: "t.osm", policy: .strict)
        for parts in [2, 3, 8] { Self.expectSameData(try #require(Self.inParts(bytes, parts: parts)), oracle) }
    }

    /// Documents whose middle falls in a comment, a CDATA section, a way, a processing instruction or a
    /// bad element, and the unusual and cut documents above: read in two parts only when that gives
    /// the whole read's data; otherwise (nil) the reader reads them whole, with its errors.
    @Test("a cut in the wrong place or a fault anywhere is left to the whole read")
    func partsOrWhole() {
        let nodes = (1...40).map { "<node id='\($0)' lat='1' lon='2'/>" }.joined(separator: "\n")
        let middle = (41...80).map { "<node id='\($0)' lat='1' lon='2'/>" }.joined(separator: "\n")
        var bodies = [
            nodes + "\n" + middle,
            nodes + "\n<!--\n" + middle + "\n-->",
            nodes + "\n<x><![CDATA[\n" + middle + "\n]]></x>",
            nodes + "\n<way id='1'>\n" + middle + "\n</way>",
            nodes + "\n<?pi\n" + middle + "\n?>",
            nodes + "\n" + middle + "\n<node id='x' lat='1' lon='2'/>",
            nodes + "\n" + middle + "\n<node id='81' lat='1' lon='200'/>",
            "<bounds/>\n" + nodes + "\n" + middle + "\n</osm><osm>",
            nodes + "\n</osm>\n" + middle,
        ]
        bodies += Self.trickyBodies
        var split = 0
        for body in bodies {
            let bytes = Self.document(body)
            for (policy, count) in [(LoadPolicy.lenient, 2)] + (2...12).map({ (LoadPolicy.strict, $0) }) {
                let whole = Result { try OSMXMLLoader.parse(Data(bytes), file: "t.osm", policy: policy) }
                guard let parts = Self.inParts(bytes, parts: count, policy: policy) else { continue }
                split += 1
                guard case .success(let data) = whole else {
                    Issue.record("read in parts, refused whole: \(body.prefix(200))")
                    continue
                }
                Self.expectSameData(parts, data)
            }
        }
        #expect(split >= 4, "\(split)")
        // Cut anywhere: whatever the parts read is what the whole read gives.
        let whole = Self.document(nodes + "\n" + middle + "\n<way id='2'><nd ref='1'/></way>")
        for end in stride(from: 0, through: whole.count, by: 7) {
            let bytes = Array(whole[..<end])
            guard let parts = Self.inParts(bytes, parts: 1 + end % 6) else { continue }
            guard let data = try? OSMXMLLoader.parse(Data(bytes), file: "t.osm", policy: .strict) else {
                Issue.record("read in parts, refused whole: cut at \(end)")
                continue
            }
            Self.expectSameData(parts, data)
        }
    }

    static func document(_ body: String) -> [UInt8] {
        Array("<?xml version='1.0' encoding='UTF-8'?>\n<osm version='0.6'>\n\(body)\n</osm>\n".utf8)
    }

    /// Records an issue unless the reader and the oracle agree on `bytes` under `policy`: the same
    /// data, or both refusing (with the same error when both name a field); returns whether it was read.
    @discardableResult
    static func expectSame(_ bytes: [UInt8], policy: LoadPolicy, sourceLocation: SourceLocation = #_sourceLocation)
        -> Bool
    {
        let text = String(decoding: bytes.prefix(400), as: UTF8.self)
        let new = Result { try OSMXMLLoader.parse(Data(bytes), file: "t.osm", policy: policy) }
        let old = Result { try XMLParserOSMOracle.parse(Data(bytes), file: "t.osm", policy: policy) }
        switch (new, old) {
        case (.success(let n), .success(let o)):
            #expect(
                n.nodes == o.nodes && n.ways == o.ways && n.relations == o.relations, "\(policy) \(text)",
                sourceLocation: sourceLocation)
            #expect(n.report == o.report, "\(policy) \(text)", sourceLocation: sourceLocation)
            #expect(
                zip(n.nodes, o.nodes).allSatisfy {
                    $0.latitude.bitPattern == $1.latitude.bitPattern
                        && $0.longitude.bitPattern == $1.longitude.bitPattern
                }, "coordinates differ in their bits: \(text)", sourceLocation: sourceLocation)
            return true
        case (.failure(let n as DataError), .failure(let o as DataError)):
            if case .invalidField = n, case .invalidField = o {
                #expect(n == o, "\(policy) \(text)", sourceLocation: sourceLocation)
            }
            return false
        default:
            Issue.record("reader \(new), oracle \(old) for:\n\(text)", sourceLocation: sourceLocation)
            return false
        }
    }
}
