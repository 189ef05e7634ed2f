import CampusRouting
import FieldtestData
import Foundation
import ScenarioEngine
import SkyScoring
import Testing

@testable import SystemsUnderTest

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
