import CampusRouting
import Foundation
import Testing

@Suite("Routing profiles: rules tag by tag")
struct RoutingProfileTests {
    let walk = RoutingProfiles.builtIn.profile(named: "walk")!
    let wheelchair = RoutingProfiles.builtIn.profile(named: "wheelchair")!
    let strict = RoutingProfiles.builtIn.profile(named: "wheelchair-strict")!
    static let both = TravelDirections(forward: true, backward: true)

    @Test("built-in YAML parses into the documented profiles")
    func builtIn() {
        #expect(
            RoutingProfiles.builtIn.profiles.map(\.name) == [
                "walk", "wheelchair", "wheelchair-strict", "manual-wheelchair", "powered-wheelchair", "cane",
            ])
        #expect(abs(walk.speedMetresPerSecond - 1.4) < 1e-12)
        #expect(abs(wheelchair.speedMetresPerSecond - 1.0) < 1e-12)
        #expect(walk.highways.count == 17)
        #expect(wheelchair.highways == walk.highways)
    }

    @Test(
        "walk accepts each listed highway",
        arguments: [
            "footway", "path", "pedestrian", "steps", "living_street",
            "residential", "service", "track", "unclassified", "tertiary", "tertiary_link", "secondary",
            "secondary_link",
            "primary", "primary_link", "cycleway", "corridor",
        ])
    func walkHighways(_ highway: String) {
        #expect(walk.directions(wayTags: ["highway": highway]) == Self.both)
    }

    @Test("walk rejects other highways", arguments: ["motorway", "trunk", "bus_stop", "construction", "proposed"])
    func walkRejects(_ highway: String) {
        #expect(walk.directions(wayTags: ["highway": highway]) == nil)
        #expect(walk.directions(wayTags: [:]) == nil)
    }

    @Test("foot and access rules")
    func access() {
        #expect(walk.directions(wayTags: ["highway": "footway", "foot": "no"]) == nil)
        #expect(walk.directions(wayTags: ["highway": "service", "access": "private"]) == nil)
        #expect(walk.directions(wayTags: ["highway": "service", "access": "no"]) == nil)
        for ok in ["yes", "designated", "permissive"] {
            #expect(walk.directions(wayTags: ["highway": "service", "access": "private", "foot": ok]) == Self.both)
        }
        #expect(walk.directions(wayTags: ["highway": "service", "access": "private", "foot": "destination"]) == nil)
        #expect(walk.directions(wayTags: ["highway": "service", "access": "destination"]) == Self.both)
    }

    @Test("pedestrians ignore oneway unless oneway:foot")
    func oneway() {
        #expect(walk.directions(wayTags: ["highway": "residential", "oneway": "yes"]) == Self.both)
        #expect(
            walk.directions(wayTags: ["highway": "footway", "oneway:foot": "yes"])
                == TravelDirections(forward: true, backward: false))
        #expect(
            walk.directions(wayTags: ["highway": "footway", "oneway:foot": "-1"])
                == TravelDirections(forward: false, backward: true))
        #expect(walk.directions(wayTags: ["highway": "footway", "oneway:foot": "no"]) == Self.both)
    }

    @Test("wheelchair way rules")
    func wheelchairWays() {
        #expect(wheelchair.directions(wayTags: ["highway": "steps"]) == nil)
        #expect(wheelchair.directions(wayTags: ["highway": "footway", "wheelchair": "no"]) == nil)
        #expect(wheelchair.directions(wayTags: ["highway": "footway", "wheelchair": "limited"]) == Self.both)
        #expect(wheelchair.directions(wayTags: ["highway": "footway", "incline": "8%"]) == Self.both)
        #expect(wheelchair.directions(wayTags: ["highway": "footway", "incline": "8.5%"]) == nil)
        #expect(wheelchair.directions(wayTags: ["highway": "footway", "incline": "-12%"]) == nil)
        #expect(wheelchair.directions(wayTags: ["highway": "footway", "incline": "5°"]) == nil)  // tan 5° = 8.75 %
        #expect(wheelchair.directions(wayTags: ["highway": "footway", "incline": "up"]) == Self.both)
        #expect(wheelchair.directions(wayTags: ["highway": "footway", "foot": "no"]) == nil)
        #expect(walk.directions(wayTags: ["highway": "footway", "incline": "30%"]) == Self.both)
    }

    @Test("wheelchair node barriers")
    func wheelchairNodes() {
        #expect(wheelchair.blocks(nodeTags: ["kerb": "raised"]))
        #expect(!wheelchair.blocks(nodeTags: ["kerb": "lowered"]))
        #expect(!wheelchair.blocks(nodeTags: ["kerb": "flush"]))
        for b in ["stile", "turnstile", "kissing_gate"] { #expect(wheelchair.blocks(nodeTags: ["barrier": b])) }
        #expect(!wheelchair.blocks(nodeTags: ["barrier": "gate"]))
        #expect(wheelchair.blocks(nodeTags: ["wheelchair": "no"]))
        #expect(!walk.blocks(nodeTags: ["kerb": "raised", "barrier": "stile"]))
    }

    @Test("strict handling forbids untagged accessibility")
    func strictUnknown() {
        #expect(strict.directions(wayTags: ["highway": "footway"]) == nil)
        #expect(strict.directions(wayTags: ["highway": "footway", "wheelchair": "yes"]) == Self.both)
        #expect(wheelchair.directions(wayTags: ["highway": "footway"]) == Self.both)
    }

    @Test("incline parsing", arguments: [("10%", 10.0), ("-4 %", -4.0), ("3", 3.0), ("45°", 100.0), ("2,5%", 2.5)])
    func incline(_ raw: String, _ percent: Double) throws {
        let v = try #require(RoutingProfile.inclinePercent(raw))
        #expect(abs(v - percent) < 1e-9)
    }

    @Test("user profile file with inheritance")
    func userYAML() throws {
        let yaml = """
            version: 1
            profiles:
              base:
                speed_mps: 1.2
                highways: [footway]
              hurried:
                inherits: base
                speed_mps: 2
            """
        let set = try RoutingProfiles(yaml: yaml, file: "mine.yaml")
        #expect(set.profiles.map(\.name) == ["base", "hurried"])
        #expect(set.profile(named: "hurried")?.highways == ["footway"])
        #expect(abs((set.profile(named: "hurried")?.speedMetresPerSecond ?? 0) - 2) < 1e-12)
    }

    @Test("profile errors are located with a hint")
    func yamlErrors() {
        #expect(
            throws: RoutingError.invalidProfile(
                file: "p.yaml", line: 4, reason: "unknown key 'speed_mp' in profile 'x'; did you mean 'speed_mps'?")
        ) {
            try RoutingProfiles(
                yaml: "version: 1\nprofiles:\n  x:\n    speed_mp: 1\n    highways: [footway]\n", file: "p.yaml")
        }
        #expect(
            throws: RoutingError.invalidProfile(
                file: "p.yaml", line: 1, reason: "unsupported version '2'; supported versions: 1")
        ) {
            try RoutingProfiles(yaml: "version: 2\nprofiles: {}\n", file: "p.yaml")
        }
        #expect(
            throws: RoutingError.invalidProfile(
                file: "p.yaml", line: 3,
                reason: "'speed_mps' is -1.0; it must be in 0.05…20 metres per second (walking is about 1.4)")
        ) {
            try RoutingProfiles(
                yaml: "version: 1\nprofiles:\n  x: {speed_mps: -1, highways: [footway]}\n", file: "p.yaml")
        }
    }

    @Test("speed_mps and max_incline_percent outside their documented ranges are located errors")
    func yamlRanges() throws {
        func load(_ body: String) throws(RoutingError) -> RoutingProfiles {
            try RoutingProfiles(yaml: "version: 1\nprofiles:\n  x:\n    highways: [footway]\n" + body, file: "p.yaml")
        }
        // A subnormal speed used to be accepted and gave infinite durations.
        #expect(
            throws: RoutingError.invalidProfile(
                file: "p.yaml", line: 5,
                reason: "'speed_mps' is 1e-320; it must be in 0.05…20 metres per second (walking is about 1.4)")
        ) {
            try load("    speed_mps: 1e-320\n")
        }
        #expect(
            throws: RoutingError.invalidProfile(
                file: "p.yaml", line: 5,
                reason: "'speed_mps' is 21.0; it must be in 0.05…20 metres per second (walking is about 1.4)")
        ) {
            try load("    speed_mps: 21\n")
        }
        #expect(
            throws: RoutingError.invalidProfile(
                file: "p.yaml", line: 6,
                reason:
                    "'max_incline_percent' is -5.0; it must be in 0…100 percent (it limits the incline in both directions), or null for no limit"
            )
        ) {
            try load("    speed_mps: 1\n    max_incline_percent: -5\n")
        }
        #expect(
            throws: RoutingError.invalidProfile(
                file: "p.yaml", line: 6,
                reason:
                    "'max_incline_percent' is 100.5; it must be in 0…100 percent (it limits the incline in both directions), or null for no limit"
            )
        ) {
            try load("    speed_mps: 1\n    max_incline_percent: 100.5\n")
        }
        let edges = try load("    speed_mps: 0.05\n    max_incline_percent: 0\n")
        #expect(edges.profiles.first?.speedMetresPerSecond == 0.05)
        #expect(edges.profiles.first?.maxInclinePercent == 0)
        #expect(try load("    speed_mps: 20\n    max_incline_percent: null\n").profiles.first?.maxInclinePercent == nil)
    }
}

@Suite("Routing profiles: hostile documents")
struct RoutingProfileLimitTests {
    @Test("a document with more profiles than the limit is refused at the first one too many")
    func tooManyProfiles() throws {
        var yaml = "version: 1\nprofiles:\n"
        for i in 0..<(RoutingProfiles.maximumProfiles + 1) {
            yaml += "  p\(i):\n    inherits: walk\n"
        }
        yaml = yaml.replacingOccurrences(
            of: "  p0:\n    inherits: walk\n", with: "  walk:\n    speed_mps: 1.4\n    highways: [footway]\n")
        #expect {
            _ = try RoutingProfiles(yaml: yaml, file: "many.yaml")
        } throws: { error in
            guard case RoutingError.invalidProfile(let file, let line, let reason) = error else { return false }
            // walk takes 3 lines, the others 2
            return file == "many.yaml" && line == 4 + 2 * RoutingProfiles.maximumProfiles
                && reason.contains("more than")
        }
    }
}
