import CampusRouting
import FieldtestData
import FieldtestTestSupport
import Foundation
import SkyScoring
import Testing

@testable import Capabilities

/// `fieldtest evaluate`: the built-in cores in process and served over the protocol score as the
/// references say they should, and deliberately wrong systems score badly.
@Suite("System evaluation")
struct SystemEvaluationTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let datasets = repo.appendingPathComponent("Datasets")
    static let wrong = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/wrong_systems.py").path

    /// The built `fieldtest` (next to the test bundle, or in the checkout's debug products).
    static var executable: String {
        let products = Bundle.main.bundleURL
        let candidates = [
            products.appendingPathComponent("fieldtest"),
            products.deletingLastPathComponent().appendingPathComponent("fieldtest"),
            repo.appendingPathComponent(".build/debug/fieldtest"),
        ]
        return (candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]).path
    }

    /// `fieldtest serve <capability>` as a `--system` command.
    static func served(_ capability: String) -> String {
        "'\(executable)' serve \(capability) --datasets '\(datasets.path)'"
    }

    static func folder() throws -> URL {
        let dir = TemporaryFiles.url("evaluate")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A new file `name` holding `text`, in a fresh temporary folder.
    static func temporaryFile(_ name: String, _ text: String) throws -> URL {
        let url = try folder().appendingPathComponent(name)
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url
    }

    static func evaluate(
        _ capability: CapabilityDefinition, input: URL, system: String = "builtin",
        configure: (inout SystemEvaluation.Request) -> Void = { _ in }
    ) throws -> SystemEvaluation.Report {
        var r = SystemEvaluation.Request(capability: capability, inputs: [input.path], datasets: datasets, output: nil)
        r.system = system
        configure(&r)
        return try SystemEvaluation.evaluate(r)
    }

    /// Whether two reports' figures are the same but for rounding (1e-6 relative, 1e-6 absolute).
    /// An external system's `system_errors` rows, which the built-in core has not, are left out.
    static func close(_ a: [SystemEvaluation.Figure], _ b: [SystemEvaluation.Figure]) -> Bool {
        let a = a.filter { !$0.metric.hasPrefix("system_errors") }
        let b = b.filter { !$0.metric.hasPrefix("system_errors") }
        return a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.metric == y.metric && x.scope == y.scope && x.rows == y.rows
                    && (x.value == y.value
                        || (x.value.flatMap { u in y.value.map { v in abs(u - v) <= 1e-6 * max(1, abs(v)) } } ?? false))
            }
    }

    // MARK: sun

    static let sunInput = """
        id,latitude,longitude,date,timezone
        paris,48.8566,2.3522,2024-06-21,Europe/Paris
        quito,-0.18,-78.47,2024-03-20,America/Guayaquil
        lincoln,40.81,-96.68,2023-12-21,America/Chicago
        sydney,-33.87,151.21,2024-09-01,Australia/Sydney
        tromso-polar-night,69.65,18.96,2024-12-21,Europe/Oslo
        """

    @Test func theBuiltInSunAgreesWithTheSPAReferenceAndAWrongSystemDoesNot() throws {
        let dir = try Self.folder()
        let input = dir.appendingPathComponent("sun.csv")
        try Self.sunInput.write(to: input, atomically: true, encoding: .utf8)
        let builtin = try Self.evaluate(.sun, input: input)
        #expect(builtin.system == "builtin")
        #expect(builtin.value("rows") == 5 && builtin.value("no_answer") == 0)
        for event in ["sunrise", "sunset"] {
            // Four places rise and set; the polar night has no event on either side.
            #expect(builtin.value("compared", scope: event) == 4)
            #expect(builtin.value("presence_mismatch", scope: event) == 0)
            #expect(try #require(builtin.value("error_max_s", scope: event)) < 30, "\(builtin.csv)")
            #expect(builtin.value("within_tolerance_rate", scope: event) == 1)
        }
        let fixed = try Self.evaluate(.sun, input: input, system: "python3 '\(Self.wrong)' fixed")
        #expect(fixed.system == "wrong-sun fixed")
        // 06:00Z is hours away from Paris's, Quito's, Lincoln's and Sydney's sunrise, and Tromsø has none.
        #expect(try #require(fixed.value("error_mean_s", scope: "sunrise")) > 3600)
        #expect(fixed.value("presence_mismatch", scope: "sunrise") == 1)
        let never = try Self.evaluate(.sun, input: input, system: "python3 '\(Self.wrong)' never")
        #expect(never.value("compared", scope: "sunset") == 0 && never.value("error_mean_s", scope: "sunset") == nil)
        #expect(never.value("presence_mismatch", scope: "sunset") == 4)
    }

    @Test func labelledSunTimesReplaceTheSPAReference() throws {
        let dir = try Self.folder()
        let input = dir.appendingPathComponent("labelled.csv")
        // The built-in answers, moved 120 s later, as the labels: its error must then be 120 s exactly.
        let queries = [
            SunQuery(id: "p", latitude: 48.8566, longitude: 2.3522, date: "2024-06-21", timezone: "Europe/Paris")
        ]
        let day = try #require(SolarCalculator().sunTimes(queries)[0])
        let label = ISO8601DateFormatter().string(
            from: Date(timeIntervalSince1970: (try #require(day.solarNoon)).rounded() + 120))
        try "id,latitude,longitude,date,timezone,solar_noon\np,48.8566,2.3522,2024-06-21,Europe/Paris,\(label)\n"
            .write(to: input, atomically: true, encoding: .utf8)
        let report = try Self.evaluate(.sun, input: input) { $0.toleranceSeconds = 100 }
        // The label is the built-in's noon rounded to the second, plus 120 s.
        #expect(abs(try #require(report.value("error_mean_s", scope: "solar_noon")) - 120) <= 0.5)
        #expect(report.value("within_tolerance", scope: "solar_noon") == 0)
        // Not labelled: still scored against the SPA.
        #expect(report.value("compared", scope: "sunrise") == 1)
        #expect(report.value("compared", scope: "civil_dawn") == nil)

        try "id,latitude,longitude,date,timezone,sunrise\np,48.8566,2.3522,2024-06-21,Europe/Paris,6am\n"
            .write(to: input, atomically: true, encoding: .utf8)
        #expect(
            throws: DataError.invalidField(
                file: input.path, line: 2, field: "sunrise", value: "6am",
                reason: "expected a UTC time YYYY-MM-DDTHH:MM:SSZ, or empty for no event")
        ) {
            try Self.evaluate(.sun, input: input)
        }
    }

    // MARK: route

    /// Seeded queries between points near the map's vertices (some off the network, so snapping matters).
    static func routeQueries(_ graph: CampusGraph, count: Int, seed: UInt64) -> String {
        var rng = SeededGenerator(seed: seed)
        var text = "id,from_lat,from_lon,to_lat,to_lon,profile\n"
        for i in 0..<count {
            let a = graph.vertices[Int.random(in: 0..<graph.vertices.count, using: &rng)].location
            let b = graph.vertices[Int.random(in: 0..<graph.vertices.count, using: &rng)].location
            let jitter = { Double.random(in: -0.0004...0.0004, using: &rng) }
            text +=
                "q\(i),\(a.latitude + jitter()),\(a.longitude + jitter()),\(b.latitude),\(b.longitude),"
                + (i % 3 == 0 ? "wheelchair" : "walk") + "\n"
        }
        return text
    }

    @Test func theBuiltInRouterIsOptimalInProcessAndServedAndWrongRoutersAreCaught() throws {
        let map = Self.datasets.appendingPathComponent("maps/montgomery_college_rockville_campus.osm")
        let graph = try CampusGraph(source: try MapFile.load(url: map).source)
        let dir = try Self.folder()
        let input = dir.appendingPathComponent("queries.csv")
        try Self.routeQueries(graph, count: 60, seed: 7).write(to: input, atomically: true, encoding: .utf8)
        let builtin = try Self.evaluate(.route, input: input) { $0.graph = map.path }
        #expect(builtin.value("queries") == 60 && builtin.value("no_answer") == 0)
        #expect(builtin.value("status_agreement") == 1, "\(builtin.csv)")
        let routed = try #require(builtin.value("length_error_max_m"))
        #expect(routed < 0.01, "\(builtin.csv)")
        #expect(try #require(builtin.value("optimality_max")) < 1.000001)
        #expect(builtin.value("suboptimal") == 0 && builtin.value("path_mismatch") == 0)

        let served = try Self.evaluate(.route, input: input, system: Self.served("route")) { $0.graph = map.path }
        #expect(served.system.hasPrefix("fieldtest-builtin-route"))
        // The same figures, but for the last digits of lengths that went through JSON.
        #expect(Self.close(served.figures, builtin.figures), "\(served.csv)")

        let half = try Self.evaluate(.route, input: input, system: "python3 '\(Self.wrong)' half") {
            $0.graph = map.path
        }
        #expect(try #require(half.value("shorter_than_optimal")) > 0)
        #expect(try #require(half.value("optimality_mean")) < 1)
        let none = try Self.evaluate(.route, input: input, system: "python3 '\(Self.wrong)' none") {
            $0.graph = map.path
        }
        // Every query the oracle routes is a wrong no_route (the built-in, which agrees with it, routes them all).
        let routable = try #require(builtin.figures.first { $0.metric == "length_error_mean_m" }).rows
        #expect(none.value("wrong_no_route") == Double(routable))
        #expect(none.value("reference_ok") == Double(routable) && routable >= 30, "\(builtin.csv)")
        #expect(try #require(none.value("status_agreement")) < 0.5)
    }

    /// An answer is judged on its own nodes: a pair no way joins is a non-existent edge, steps for a
    /// wheelchair and a one-way walked backwards are forbidden edges, none of them enters the lengths
    /// (never "shorter than optimal"), and a valid path is measured against the shortest walk between
    /// its own ends, with the distance from the query points to them.
    @Test func routeAnswersAreJudgedOnTheirOwnPath() throws {
        // A square 1-2-3-4 of footways, steps 3-5 and a footway 1→6 one-way for pedestrians.
        let osm = """
            <?xml version="1.0"?><osm version="0.6">
            <node id="1" lat="0" lon="0"/><node id="2" lat="0" lon="0.001"/><node id="3" lat="0.001" lon="0.001"/>
            <node id="4" lat="0.001" lon="0"/><node id="5" lat="0.002" lon="0.001"/><node id="6" lat="-0.001" lon="0"/>
            <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="1"/><tag k="highway" v="footway"/></way>
            <way id="11"><nd ref="3"/><nd ref="5"/><tag k="highway" v="steps"/></way>
            <way id="12"><nd ref="1"/><nd ref="6"/><tag k="highway" v="footway"/><tag k="oneway:foot" v="yes"/></way>
            </osm>
            """
        let dir = try Self.folder()
        let map = dir.appendingPathComponent("square.osm")
        try osm.write(to: map, atomically: true, encoding: .utf8)
        let input = dir.appendingPathComponent("queries.csv")
        let queries = """
            id,from_lat,from_lon,to_lat,to_lon,profile
            valid:1_2_3,0,-0.0001,0.001,0.001,walk
            detour:2_1_2_3,0,0.001,0.001,0.001,walk
            wall:1_3,0,0,0.001,0.001,walk
            steps:3_5,0.001,0.001,0.002,0.001,wheelchair
            backwards:6_1,-0.001,0,0,0,walk
            nowhere:1_99,0,0,0.001,0.001,walk
            """
        try queries.write(to: input, atomically: true, encoding: .utf8)
        let r = try Self.evaluate(.route, input: input, system: "python3 '\(Self.wrong)' ids") { $0.graph = map.path }
        #expect(r.value("nonexistent_edges") == 2, "\(r.csv)")
        #expect(r.value("forbidden_edges") == 2, "\(r.csv)")
        #expect(r.value("shorter_than_optimal") == 0 && r.value("suboptimal") == 1, "\(r.csv)")
        // The two valid paths' length errors: 0 (1-2-3) and two sides walked twice (2-1-2-3).
        #expect(r.figures.first { $0.metric == "length_error_max_m" }?.rows == 2)
        let side = Geodesy.haversineMetres(GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 0.001))
        #expect(abs(try #require(r.value("length_error_max_m")) - 2 * side) < 0.01, "\(r.csv)")
        // The first query starts 11 m west of node 1; every other end is on its node.
        #expect(abs(try #require(r.value("end_offset_max_m")) - side / 10) < 0.01, "\(r.csv)")
    }

    @Test func theOracleFindsTheShortestWalkOnAHandMadeGraph() throws {
        // A square a-b-c-d with a long diagonal a-c: a→c is 2 sides, not the diagonal (3 km).
        let osm = """
            <?xml version="1.0"?><osm version="0.6">
            <node id="1" lat="0" lon="0"/><node id="2" lat="0" lon="0.001"/><node id="3" lat="0.001" lon="0.001"/>
            <node id="4" lat="0.001" lon="0"/><node id="5" lat="0.0005" lon="0.03"/>
            <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="1"/><tag k="highway" v="footway"/></way>
            <way id="11"><nd ref="1"/><nd ref="5"/><nd ref="3"/><tag k="highway" v="footway"/></way>
            </osm>
            """
        let dir = try Self.folder()
        let file = dir.appendingPathComponent("square.osm")
        try osm.write(to: file, atomically: true, encoding: .utf8)
        let graph = try CampusGraph(source: try MapFile.load(url: file).source)
        let oracle = ShortestPathOracle(graph: graph)
        let walk = try graph.profileIndex(named: "walk")
        let side = Geodesy.haversineMetres(GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 0.001))
        let up = Geodesy.haversineMetres(
            GeoPoint(latitude: 0, longitude: 0.001), GeoPoint(latitude: 0.001, longitude: 0.001))
        guard
            case .shortest(let metres) = oracle.shortest(
                from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 0.001, longitude: 0.001),
                profile: walk)
        else {
            Issue.record("no route")
            return
        }
        #expect(abs(metres - (side + up)) < 0.01)
        #expect(
            oracle.shortest(
                from: GeoPoint(latitude: 10, longitude: 10), to: GeoPoint(latitude: 0, longitude: 0), profile: walk)
                == .noSnap)
    }

    // MARK: locate

    @Test func theBuiltInLocatorScoresAsTheBatchAndAWrongOneIsFarOff() throws {
        let train = Self.datasets.appendingPathComponent("positioning/ujiindoorloc_train_a.csv")
        let other = try String(
            contentsOf: Self.datasets.appendingPathComponent("positioning/ujiindoorloc_train_b.csv"), encoding: .utf8)
        let dir = try Self.folder()
        let input = dir.appendingPathComponent("labelled.csv")
        // The header and every 50th fingerprint (the file runs building by building).
        let lines = other.split(separator: "\n")
        let picked = [lines[0]] + stride(from: 1, to: lines.count, by: 50).map { lines[$0] }
        try (picked.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let builtin = try Self.evaluate(.locate, input: input) { $0.training = [train.path] }
        #expect(builtin.value("fingerprints") == Double(picked.count - 1) && builtin.value("no_answer") == 0)
        #expect(try #require(builtin.value("building_hit_rate")) > 0.95, "\(builtin.csv)")
        #expect(try #require(builtin.value("error_mean_m")) < 20)
        let p50 = try #require(builtin.value("error_p50_m"))
        let p95 = try #require(builtin.value("error_p95_m"))
        #expect(p50 <= p95 && p95 <= (builtin.value("error_max_m") ?? 0))
        let served = try Self.evaluate(.locate, input: input, system: Self.served("locate")) {
            $0.training = [train.path]
        }
        #expect(Self.close(served.figures, builtin.figures), "\(served.csv)")
        let origin = try Self.evaluate(.locate, input: input, system: "python3 '\(Self.wrong)' origin") {
            $0.training = [train.path]
        }
        // UJIIndoorLoc coordinates are about (−7,500 m, 4,864,900 m): (0, 0) is millions of metres off,
        // and "building 0" is right exactly for the fingerprints taken in building 0.
        #expect(try #require(origin.value("error_mean_m")) > 1_000_000)
        let buildings = try UJIIndoorLoc.load(url: input).records.compactMap { $0.label?.building }
        let inBuilding0 = Double(buildings.filter { $0 == 0 }.count) / Double(buildings.count)
        #expect(origin.value("building_hit_rate") == inBuilding0)
        #expect(inBuilding0 < 0.9 && inBuilding0 < (builtin.value("building_hit_rate") ?? 0))
    }

    // MARK: sentiment

    @Test func aSentimentSystemThatAlwaysSaysPositiveScoresTheShareOfPositives() throws {
        let dir = try Self.folder()
        let input = dir.appendingPathComponent("tweets.csv")
        try """
        text,label
        I love this great day,positive
        worst delayed flight ever,negative
        the meeting is at noon,neutral
        thanks for the awesome help,positive
        """.write(to: input, atomically: true, encoding: .utf8)
        let happy = try Self.evaluate(.sentiment, input: input, system: "python3 '\(Self.wrong)' happy")
        #expect(happy.value("tweets") == 4 && happy.value("no_answer") == 0)
        #expect(happy.value("accuracy") == 0.5)
        #expect(happy.value("recall", scope: "positive") == 1 && happy.value("recall", scope: "negative") == 0)
        #expect(happy.value("precision", scope: "positive") == 0.5)
        #expect(try #require(happy.value("macro_recall")) == 1.0 / 3)
        #expect(happy.value("pearson_r") == nil)  // no ratings in a text,label file
        let builtin = try Self.evaluate(.sentiment, input: input)
        let served = try Self.evaluate(.sentiment, input: input, system: Self.served("sentiment"))
        #expect(Self.close(served.figures, builtin.figures))
    }

    @Test func optionsThatDoNotFitTheCapabilityAreUsageErrors() throws {
        let input = URL(fileURLWithPath: "/nonexistent.csv")
        #expect(throws: SystemEvaluation.UsageError.self) { try Self.evaluate(.route, input: input) }
        #expect(throws: SystemEvaluation.UsageError.self) {
            try Self.evaluate(.sun, input: input) { $0.graph = "m.osm" }
        }
        #expect(throws: SystemEvaluation.UsageError.self) { try Self.evaluate(.locate, input: input) }
        #expect(throws: SystemEvaluation.UsageError.self) {
            try Self.evaluate(.sun, input: input) { $0.toleranceSeconds = -1 }
        }
    }

    /// Type 7, as every Fieldtest quantile: h = p(n − 1) over the sorted absolute errors, linear between
    /// neighbours (numpy.percentile's default: 2.5, 3.85, 5 and 1.5 here).
    @Test(arguments: [([3.0, 1, 2, 4], 50.0, 2.5), ([3.0, 1, 2, 4], 95, 3.85), ([5.0], 95, 5), ([-2.0, 1], 50, 1.5)])
    func percentilesAreType7OfTheAbsoluteErrors(errors: [Double], p: Double, expected: Double) throws {
        let value = try #require(ErrorSummary(errors).percentile(p))
        #expect(abs(value - expected) < 1e-12)
    }
}
