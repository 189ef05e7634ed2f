import CampusRouting
import FieldtestData
import Foundation
import ScenarioEngine
import SkyScoring
import Testing

@testable import Capabilities

/// The example systems of `Examples/systems/` on real libraries from PyPI. They need those
/// libraries, which the default test run never installs: `make examples` installs them and runs
/// these tests with `FIELDTEST_EXAMPLES=1`; otherwise they are skipped.
@Suite(
    "Example systems (make examples)",
    .enabled(
        if: ProcessInfo.processInfo.environment["FIELDTEST_EXAMPLES"] == "1",
        "needs vaderSentiment, astral, networkx and scikit-learn from PyPI: run 'make examples'"))
struct ExampleSystemsTests {
    static let examples = ServedCoreTests.repo.appendingPathComponent("Examples/systems")

    static func start(_ capability: SystemCapability, _ script: String, setup: [SetupDataset] = []) throws
        -> ExternalSystem
    {
        try ExternalSystem(
            capability: capability,
            spec: ExternalSystemSpec(command: ["python3", examples.appendingPathComponent(script).path]),
            seed: 1, stderrPath: ExternalSystemTests.stderrPath(), setup: setup)
    }

    /// The Done-when of issue 22: a bundled scenario run with the VADER system reports MIC-14
    /// figures equal to VADER's own on the same tweets, computed by `vader_accuracy.py` alone.
    @Test func vaderThroughMiCityScoresAsVaderAlone() throws {
        let script = Self.examples.appendingPathComponent("vader_sentiment.py").path
        let results = try ServedCoreTests.run(
            "micity-city-day.yaml", systems: ["sentiment": SystemSetting(command: ["python3", script])])
        let rows = results.flatMap(\.rows)
        let classified = try #require(rows.first { $0.metric == "tweets_classified" }?.value)
        #expect(rows.first { $0.metric == "system_errors" }?.value == 0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "python3", Self.examples.appendingPathComponent("vader_accuracy.py").path,
            ServedCoreTests.repo.appendingPathComponent("Datasets/tweets/airline_Tweets.csv").path,
            String(Int(classified)),
        ]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        var python: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2, let v = Double(parts[1]) { python[String(parts[0])] = v }
        }
        for metric in ["accuracy", "macro_f1", "macro_recall"] {
            let row = try #require(rows.first { $0.requirement == "MIC-14" && $0.metric == metric })
            let expected = try #require(python[metric], "vader_accuracy.py printed no \(metric)")
            // Both sides divide the same integer counts; the macro means may add in another order.
            #expect(abs(row.value - expected) <= 1e-12, "\(metric): run \(row.value), VADER alone \(expected)")
            #expect(Double(row.samples) == python["samples"])
        }
    }

    @Test func astralSunTimesAgreeWithTheCalculatorWithinAMinute() throws {
        let system = try Self.start(.sun, "sun_astral.py")
        defer { system.close() }
        let queries = [
            SunQuery(id: "a", latitude: 40.81, longitude: -96.70, date: "2023-06-21", timezone: "America/Chicago"),
            SunQuery(id: "b", latitude: -33.87, longitude: 151.21, date: "2023-12-21", timezone: "Australia/Sydney"),
            SunQuery(id: "c", latitude: 1.35, longitude: 103.82, date: "2024-02-29", timezone: "Asia/Singapore"),
        ]
        let theirs = ExternalSunTimesSystem(system).sunTimes(queries)
        let ours = SolarCalculator().sunTimes(queries)
        for (t, o) in zip(theirs, ours) {
            let (t, o) = (try #require(t), try #require(o))
            // astral omits refraction's variation and uses a simpler equation of time: a minute apart at most.
            #expect(abs(try #require(t.sunrise) - (try #require(o.sunrise))) < 60)
            #expect(abs(try #require(t.sunset) - (try #require(o.sunset))) < 60)
        }
        #expect(system.faults.total == 0)
    }

    @Test func networkxRoutesAreAboutAsLongAsTheBuiltinRoutes() throws {
        let map = ServedCoreTests.repo.appendingPathComponent("Datasets/maps/montgomery_college_rockville_campus.osm")
        let system = try Self.start(
            .route, "route_networkx.py", setup: [SetupDataset(path: map.path, format: "osm-xml")])
        defer { system.close() }
        let graph = try CampusGraph(source: try MapFile.load(url: map).source)
        let queries = [
            RouteQuery(
                id: "a", from: GeoPoint(latitude: 39.0965, longitude: -77.1600),
                to: GeoPoint(latitude: 39.1010, longitude: -77.1550), profile: "walk"),
            RouteQuery(
                id: "b", from: GeoPoint(latitude: 39.0990, longitude: -77.1620),
                to: GeoPoint(latitude: 39.1040, longitude: -77.1565), profile: "walk"),
        ]
        let theirs = ExternalRoutingSystem(system).route(queries)
        let ours = BuiltinRouter(graph: graph).route(queries)
        for (t, o) in zip(theirs, ours) {
            let (t, o) = (try #require(t), try #require(o))
            #expect(t.status == "ok" && o.status == "ok")
            // Nearest-node ends instead of edge projections: within a quarter plus 100 m.
            #expect(abs(t.lengthMetres - o.lengthMetres) <= 0.25 * o.lengthMetres + 100)
        }
    }

    /// The rules `route_networkx.py` builds its graphs from are those of the built-in profiles YAML
    /// (the contract docs/system-protocol.md states), so a change to a profile shows here.
    @Test func networkxProfileRulesAreTheBuiltInProfiles() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", Self.examples.appendingPathComponent("route_networkx.py").path, "--profiles"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let rules = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        #expect(Set(rules.keys) == Set(RoutingProfiles.builtIn.profiles.map(\.name)))
        for profile in RoutingProfiles.builtIn.profiles {
            let r = try #require(rules[profile.name])
            func set(_ key: String) -> Set<String> { Set(r[key] as? [String] ?? []) }
            func tags(_ key: String) -> [String: Set<String>] {
                (r[key] as? [String: [String]] ?? [:]).mapValues(Set.init)
            }
            #expect((r["speed_mps"] as? Double) == profile.speedMetresPerSecond, "\(profile.name) speed")
            #expect(set("highways") == profile.highways, "\(profile.name) highways")
            #expect((r["mode_key"] as? String) == profile.modeKey)
            #expect(set("mode_denied") == profile.modeDenied)
            #expect(set("access_denied") == profile.accessDenied)
            #expect(set("mode_overrides_access") == profile.modeOverridesAccess)
            #expect((r["oneway_key"] as? String) == profile.onewayKey)
            #expect(tags("exclude_ways") == profile.excludeWays, "\(profile.name) exclude_ways")
            #expect(tags("exclude_nodes") == profile.excludeNodes, "\(profile.name) exclude_nodes")
            #expect((r["max_incline_percent"] as? Double) == profile.maxInclinePercent, "\(profile.name) incline")
            #expect((r["accessibility_key"] as? String) == profile.accessibilityKey)
            #expect((r["unknown_accessibility"] as? String) == profile.unknownAccessibility.rawValue)
        }
    }

    /// Every `ok` answer of `route_networkx.py` on a bundled campus is a walk the profile allows
    /// (`PathAudit` on its own `node_ids`): no forbidden or non-existent edge, walk and wheelchair.
    @Test(arguments: [
        ("montgomery_college_rockville_campus.osm", "reference_montgomery.csv"),
        ("universidad_central_del_ecuador_campus.osm", "reference_quito.csv"),
    ])
    func networkxAnswersFollowTheProfileContract(map: String, queries: String) throws {
        let url = ServedCoreTests.repo.appendingPathComponent("Datasets/maps/\(map)")
        let system = try Self.start(
            .route, "route_networkx.py", setup: [SetupDataset(path: url.path, format: "osm-xml")])
        defer { system.close() }
        let graph = try CampusGraph(source: try MapFile.load(url: url).source)
        let table = try CSVTable(
            url: ServedCoreTests.repo.appendingPathComponent("Tests/CampusRoutingTests/Fixtures/\(queries)"))
        let parsed = try RouteBatch.parseQueries(table)
        let answers = ExternalRoutingSystem(system).route(
            parsed.map { RouteQuery(id: $0.id, from: $0.from, to: $0.to, profile: $0.profile) })
        var ok = 0
        for (q, answer) in zip(parsed, answers) {
            let a = try #require(answer)
            guard a.status == "ok" else { continue }
            ok += 1
            let audit = PathAudit(graph: graph, profile: try graph.profileIndex(named: q.profile))
            guard case .valid(let length) = audit.audit(a.nodeIDs) else {
                Issue.record("\(map) \(q.id) \(q.profile): \(audit.audit(a.nodeIDs))")
                continue
            }
            #expect(abs(length - a.lengthMetres) <= 1e-6 * max(1, length))
        }
        #expect(ok >= parsed.count / 2)
    }

    @Test func knnFindsTheBuildingOfAlmostEveryFingerprint() throws {
        let train = ServedCoreTests.repo.appendingPathComponent("Datasets/positioning/ujiindoorloc_train_a.csv")
        let test = ServedCoreTests.repo.appendingPathComponent("Datasets/positioning/ujiindoorloc_train_b.csv")
        let system = try Self.start(
            .locate, "locate_knn.py", setup: [SetupDataset(path: train.path, format: "ujiindoorloc-csv")])
        defer { system.close() }
        let records = Array(try UJIIndoorLoc.load(url: test).records.prefix(200))
        let answers = ExternalPositioningSystem(system).locate(
            records.enumerated().map { LocateQuery(id: "r\($0.offset)", rssi: $0.element.rssi) })
        let hits = zip(answers, records).filter { $0.0?.building == $0.1.label?.building }.count
        #expect(Double(hits) / Double(records.count) >= 0.95)
    }
}
