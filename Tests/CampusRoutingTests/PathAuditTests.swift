import CampusRouting
import FieldtestData
import Foundation
import Testing

/// `PathAudit`: a path of OSM node ids is judged on its own steps against a profile's contract.
@Suite("Path audit: a route's own nodes against the profile's contract")
struct PathAuditTests {
    /// Footways 1-2-3 and 3-4 (one-way for pedestrians), steps 2-5, and a stile on node 6 of 3-6.
    static let osm = """
        <?xml version="1.0"?><osm version="0.6">
        <node id="1" lat="0" lon="0"/><node id="2" lat="0" lon="0.001"/><node id="3" lat="0" lon="0.002"/>
        <node id="4" lat="0" lon="0.003"/><node id="5" lat="0.001" lon="0.001"/>
        <node id="6" lat="0.001" lon="0.002"><tag k="barrier" v="stile"/></node>
        <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="footway"/></way>
        <way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="footway"/><tag k="oneway:foot" v="yes"/></way>
        <way id="12"><nd ref="2"/><nd ref="5"/><tag k="highway" v="steps"/></way>
        <way id="13"><nd ref="3"/><nd ref="6"/><tag k="highway" v="footway"/></way>
        </osm>
        """

    static func graph() throws -> CampusGraph {
        try CampusGraph(source: try MapFile.parse(Data(osm.utf8), format: .osmXML, file: "path-audit.osm").source)
    }

    static func isValid(_ v: PathAudit.Verdict) -> Bool {
        if case .valid = v { return true }
        return false
    }

    @Test func pathAuditJudgesEachStepOfTheProfilesContract() throws {
        let g = try Self.graph()
        let walk = PathAudit(graph: g, profile: try g.profileIndex(named: "walk"))
        let wheelchair = PathAudit(graph: g, profile: try g.profileIndex(named: "wheelchair"))
        let side = Geodesy.haversineMetres(GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 0.001))
        guard case .valid(let length) = walk.audit([1, 2, 3, 4]) else {
            Issue.record("1-2-3-4 is a walk")
            return
        }
        #expect(abs(length - 3 * side) < 1e-6)
        #expect(walk.audit([1, 3]) == .offence(.init(kind: .nonexistentEdge, index: 0, from: 1, to: 3)))
        #expect(walk.audit([2, 3, 4, 3]) == .offence(.init(kind: .forbiddenEdge, index: 2, from: 4, to: 3)))
        #expect(wheelchair.audit([1, 2, 5]) == .offence(.init(kind: .forbiddenEdge, index: 1, from: 2, to: 5)))
        #expect(Self.isValid(walk.audit([1, 2, 5])))
        // The stile makes the whole piece 3-6 impassable for a wheelchair, not for a walker.
        #expect(wheelchair.audit([3, 6]) == .offence(.init(kind: .forbiddenEdge, index: 0, from: 3, to: 6)))
        #expect(Self.isValid(walk.audit([6, 3])))
    }

    /// A node that is on no way of the map is a non-existent edge even alone or repeated, so an
    /// answer cannot pass as a walk of length 0 from a made-up node.
    @Test func pathAuditRefusesANodeOffTheMapEvenAlone() throws {
        let g = try Self.graph()
        let walk = PathAudit(graph: g, profile: try g.profileIndex(named: "walk"))
        #expect(walk.audit([99]) == .offence(.init(kind: .nonexistentEdge, index: 0, from: 99, to: 99)))
        #expect(walk.audit([99, 99]) == .offence(.init(kind: .nonexistentEdge, index: 0, from: 99, to: 99)))
        #expect(walk.audit([1, 99]) == .offence(.init(kind: .nonexistentEdge, index: 0, from: 1, to: 99)))
        #expect(walk.audit([2]) == .valid(lengthMetres: 0))
        #expect(walk.audit([]) == .valid(lengthMetres: 0))
        #expect(walk.position(of: 2) == GeoPoint(latitude: 0, longitude: 0.001))
    }
}
