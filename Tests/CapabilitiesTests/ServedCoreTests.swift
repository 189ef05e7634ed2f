import CampusRouting
import FieldtestApps
import FieldtestData
import FieldtestTestSupport
import Foundation
import MetricReports
import Positioning
import ScenarioEngine
import SkyScoring
import Testing
import TweetSentiment

@testable import Capabilities

/// The protocol end to end: the built-in cores served by `fieldtest serve` (the built executable)
/// answer as they do in process, and a bundled scenario gives the same non-latency rows.
@Suite("Served built-in cores")
struct ServedCoreTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

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

    static func serve(_ capability: SystemCapability, setup: [SetupDataset] = []) throws -> ExternalSystem {
        try ExternalSystem(
            capability: capability,
            spec: ExternalSystemSpec(
                command: [
                    executable, "serve", capability.name, "--datasets",
                    repo.appendingPathComponent("Datasets").path,
                ]),
            seed: 1, stderrPath: ExternalSystemTests.stderrPath(), setup: setup)
    }

    /// Rows as compared: no latency rows, no run ID, no `system:` rows (only the external run has them).
    static func comparable(_ rows: [MetricRow]) -> [String] {
        let kept = rows.filter { $0.kind != .latency && !$0.requirement.hasPrefix("system:") }.map { row -> MetricRow in
            var row = row
            row.runID = ""
            return row
        }
        return MetricsCSV.render(kept).split(separator: "\n").dropFirst().map(String.init)
    }

    static func run(_ file: String, systems: [String: SystemSetting] = [:]) throws -> [CaseResult] {
        let manifest = try DatasetManifest(root: repo.appendingPathComponent("Datasets"))
        var scenario = try ScenarioLoader(manifest: manifest, registry: .bundled)
            .load(repo.appendingPathComponent("Scenarios/" + file), displayName: "Scenarios/" + file)
        scenario.systems = systems
        return try ScenarioRunner.run(
            ScenarioRunner.cases(of: scenario), jobs: 1, runID: "check", datasets: DatasetStore(manifest: manifest),
            apps: .bundled)
    }

    @Test func servedSentimentReproducesTheInProcessRowsOfABundledScenario() throws {
        let inProcess = try Self.run("micity-rate-limit.yaml")
        let served = try Self.run(
            "micity-rate-limit.yaml",
            systems: ["sentiment": SystemSetting(command: [Self.executable, "serve", "sentiment"])])
        let a = Self.comparable(inProcess.flatMap(\.rows))
        let b = Self.comparable(served.flatMap(\.rows))
        #expect(a.count > 10)
        #expect(a == b)
        let record = try #require(served.first?.systems.first)
        #expect(record.identity.name == "fieldtest-builtin-sentiment")
        #expect(record.faults.isEmpty)
        #expect(record.requests > 0)
        let errors = served.flatMap(\.rows).filter { $0.requirement == "system:sentiment" }
        #expect(errors.map(\.metric) == ["system_errors"])
        #expect(errors.first?.status == .pass)
        #expect(inProcess.first?.systems.isEmpty == true)
    }

    /// Heavy tier: the whole NavUP positioning day twice, once through the served locator.
    @Test(.heavy) func servedLocatorReproducesTheInProcessRowsOfNavUPPositioning() throws {
        let inProcess = try Self.run("navup-positioning.yaml")
        let served = try Self.run(
            "navup-positioning.yaml", systems: ["locate": SystemSetting(command: [Self.executable, "serve", "locate"])])
        #expect(Self.comparable(inProcess.flatMap(\.rows)) == Self.comparable(served.flatMap(\.rows)))
        #expect(served.first?.systems.first?.faults.isEmpty == true)
    }

    @Test func aMisbehavingSystemFailsItsSystemErrorsRowsAndTheRunGoesOn() throws {
        let results = try Self.run(
            "micity-rate-limit.yaml",
            systems: [
                "sentiment": SystemSetting(
                    command: ["python3", ExternalSystemTests.fixture, "wrong-type"], timeoutSeconds: 5)
            ])
        let rows = results.flatMap(\.rows).filter { $0.requirement == "system:sentiment" }
        #expect(rows.map(\.metric) == ["system_errors", "system_errors_wrong_type"])
        #expect(rows.allSatisfy { $0.status == .fail && $0.value > 0 })
        // Unanswered tweets stay unclassified, which miCity's own coverage check reports.
        let classified = results.flatMap(\.rows).first { $0.metric == "tweets_classified" }
        #expect(classified?.value == 0)
    }

    @Test func aSystemThatFailsTheHandshakeStopsTheRunAndSaysWhy() throws {
        #expect {
            _ = try Self.run(
                "micity-rate-limit.yaml",
                systems: ["sentiment": SystemSetting(command: ["python3", ExternalSystemTests.fixture, "bad-hello"])])
        } throws: { error in
            (error as? SystemError).map { "\($0)".contains("failed the handshake") } ?? false
        }
    }

    /// SkyScape asks its sun-times system for every sunrise and sunset it shows: the built-in
    /// calculator served out of process gives the rows it gives in process.
    @Test func servedSunReproducesTheInProcessRowsOfASkyScapeScenario() throws {
        let inProcess = try Self.run("skyscape-tromso.yaml")
        let served = try Self.run(
            "skyscape-tromso.yaml", systems: ["sun": SystemSetting(command: [Self.executable, "serve", "sun"])])
        let a = Self.comparable(inProcess.flatMap(\.rows))
        #expect(a.contains { $0.contains(",SKY-P2,sun_event_abs_error_max,") })
        #expect(a == Self.comparable(served.flatMap(\.rows)))
        let record = try #require(served.first?.systems.first)
        #expect(record.identity.name == "fieldtest-builtin-sun")
        #expect(record.faults.isEmpty && record.requests > 0)
    }

    /// A system whose times are ten minutes late fails the sun-time accuracy rows (SKY-P2 against
    /// the SPA reference, and SKY-M1's reminders, which fire 30 min before the system's events).
    @Test func sunTimesTenMinutesOffFailTheAccuracyRows() throws {
        let shifted = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/shifted_sun.py").path
        let rows = try Self.run(
            "skyscape-tromso.yaml",
            systems: ["sun": SystemSetting(command: ["python3", shifted, Self.executable, "600"])]
        ).flatMap(\.rows)
        let p2 = try #require(rows.first { $0.requirement == "SKY-P2" && $0.metric == "sun_event_abs_error_max" })
        #expect(p2.value >= 590 && p2.status == .fail, "\(p2)")
        let m1 = try #require(rows.first { $0.requirement == "SKY-M1" && $0.metric == "reminder_abs_error_max" })
        #expect(m1.value >= 590 && m1.status == .fail, "\(m1)")
        let inProcess = try Self.run("skyscape-tromso.yaml").flatMap(\.rows)
        #expect(
            inProcess.first { $0.requirement == "SKY-P2" && $0.metric == "sun_event_abs_error_max" }?.status == .pass)
    }

    @Test func servedSunAnswersAsTheCalculator() throws {
        let queries = [
            SunQuery(id: "a", latitude: 40.81, longitude: -96.70, date: "2023-06-21", timezone: "America/Chicago"),
            SunQuery(id: "b", latitude: 69.65, longitude: 18.96, date: "2023-06-21", timezone: "Europe/Oslo"),
            SunQuery(id: "c", latitude: 1.35, longitude: 103.82, date: "2024-02-29", timezone: "Asia/Singapore"),
        ]
        let system = try Self.serve(.sun)
        defer { system.close() }
        let served = ExternalSunTimesSystem(system).sunTimes(queries)
        // The wire carries times to the second, as `fieldtest sun` writes them.
        let local = SolarCalculator().sunTimes(queries).map { t -> SunTimes? in
            guard var t else { return nil }
            for path in [
                \SunTimes.sunrise, \.sunset, \.solarNoon, \.civilDawn, \.civilDusk, \.goldenHourMorningStart,
                \.goldenHourMorningEnd, \.goldenHourEveningStart, \.goldenHourEveningEnd, \.dayLengthSeconds,
            ] {
                t[keyPath: path] = t[keyPath: path].map { $0.rounded() }
            }
            return t
        }
        #expect(served == local)
        #expect(served[1]?.note == "polar_day")
        #expect(system.faults.total == 0)
    }

    @Test func servedRoutingAnswersAsTheBuiltinRouter() throws {
        let map = Self.repo.appendingPathComponent("Datasets/maps/montgomery_college_rockville_campus.osm").path
        let system = try Self.serve(.route, setup: [SetupDataset(path: map, format: "osm-xml")])
        defer { system.close() }
        let graph = try CampusGraph(source: try MapFile.load(url: URL(fileURLWithPath: map)).source)
        var rng = SeededGenerator(seed: 11)
        let queries = (0..<20).map { i in
            RouteQuery(
                id: "q\(i)",
                from: GeoPoint(
                    latitude: 39.0960 + Double(rng.next() % 1000) / 100_000,
                    longitude: -77.1640 + Double(rng.next() % 1000) / 100_000),
                to: GeoPoint(
                    latitude: 39.0960 + Double(rng.next() % 1000) / 100_000,
                    longitude: -77.1640 + Double(rng.next() % 1000) / 100_000),
                profile: i % 2 == 0 ? "walk" : "wheelchair")
        }
        let served = ExternalRoutingSystem(system).route(queries)
        let local = BuiltinRouter(graph: graph).route(queries)
        #expect(served.count == local.count)
        for (s, l) in zip(served, local) {
            let (s, l) = (try #require(s), try #require(l))
            #expect(s.status == l.status)
            #expect(s.nodeIDs == l.nodeIDs)
            #expect(s.path.count == l.path.count)
            // Numbers cross the wire in Swift's shortest round-trip text; allow the last bits.
            let close = { (a: Double, b: Double) in abs(a - b) <= 1e-9 * max(1, abs(b)) }
            #expect(close(s.lengthMetres, l.lengthMetres) && close(s.durationSeconds, l.durationSeconds))
            for (p, q) in zip(s.path, l.path) where !(close(p.latitude, q.latitude) && close(p.longitude, q.longitude))
            {
                Issue.record("path point \(p) differs from \(q)")
            }
        }
        #expect(served.contains { $0?.status == "ok" })
        #expect(system.faults.total == 0)
    }

    @Test func servedLocatorAnswersAsTheFingerprintLocator() throws {
        let train = Self.repo.appendingPathComponent("Datasets/positioning/ujiindoorloc_train_a.csv").path
        let queriesFile = Self.repo.appendingPathComponent("Datasets/positioning/ujiindoorloc_train_b.csv")
        let system = try Self.serve(.locate, setup: [SetupDataset(path: train, format: "ujiindoorloc-csv")])
        defer { system.close() }
        let records = try UJIIndoorLoc.load(url: URL(fileURLWithPath: train)).records
        let locator = try FingerprintLocator(training: try FingerprintSample.fromUJIIndoorLoc(records))
        let queries = try UJIIndoorLoc.load(url: queriesFile).records.prefix(40).enumerated().map {
            LocateQuery(id: "r\($0.offset)", rssi: $0.element.rssi)
        }
        let served = ExternalPositioningSystem(system).locate(queries)
        #expect(served == locator.locate(queries))
        #expect(served.compactMap { $0 }.count > 30)
        #expect(system.faults.total == 0)
    }
}

/// Swift systems registered in process, chosen with `in-process:<name>`.
@Suite("In-process Swift systems")
struct InProcessSystemTests {
    /// Every tweet negative: the run's class shares must say so.
    struct Gloomy: SentimentSystem {
        func classify(_ texts: [String]) -> [SentimentAnswer?] {
            texts.map { _ in SentimentAnswer(label: .negative, score: -1) }
        }
    }

    @Test func aRegisteredSystemClassifiesTheScenarioStream() throws {
        InProcessSystems.register(sentiment: Gloomy(), as: "gloomy-test")
        let results = try ServedCoreTests.run(
            "micity-city-day.yaml",
            systems: ["sentiment": SystemSetting(command: [InProcessSystems.prefix + "gloomy-test"])])
        let rows = results.flatMap(\.rows)
        let recall = try #require(rows.first { $0.requirement == "MIC-14" && $0.metric == "macro_recall" })
        // Recall 1 for negative, 0 for the others.
        #expect(abs(recall.value - 1.0 / 3) < 1e-12)
        #expect(results.first?.systems.isEmpty == true)
    }

    @Test func anUnregisteredNameIsAnErrorThatListsTheRegisteredOnes() throws {
        #expect(throws: SystemError.self) {
            _ = try InProcessSystems.sentiment(for: [InProcessSystems.prefix + "nobody"])
        }
    }
}

/// Choosing systems in a scenario file: the `systems:` block and a sweep over `systems.<capability>`.
@Suite("Systems in scenario files")
struct ScenarioSystemsTests {
    static func load(_ extra: String) throws -> Scenario {
        let manifest = try DatasetManifest(root: ServedCoreTests.repo.appendingPathComponent("Datasets"))
        let text = try String(
            contentsOf: ServedCoreTests.repo.appendingPathComponent("Scenarios/micity-rate-limit.yaml"), encoding: .utf8
        )
        return try ScenarioLoader(manifest: manifest, registry: .bundled).parse(text + extra, file: "x.yaml")
    }

    @Test func theSystemsBlockNamesCommandAndTimeout() throws {
        let s = try Self.load("systems:\n  sentiment: {command: [python3, my.py], timeout: 5s}\n")
        #expect(s.systems["sentiment"] == SystemSetting(command: ["python3", "my.py"], timeoutSeconds: 5))
    }

    @Test func aSweepComparesSystemsCaseByCase() throws {
        let s = try Self.load("sweep:\n  parameters:\n    systems.sentiment: [builtin, python3 my.py]\n")
        let cases = ScenarioRunner.cases(of: s)
        #expect(cases.count == 2)
        #expect(cases[0].scenario.systems["sentiment"] == nil)
        #expect(cases[1].scenario.systems["sentiment"]?.command == ["python3", "my.py"])
        #expect(cases[1].label.contains("systems.sentiment=python3 my.py"))
    }

    @Test func anUnknownCapabilityInASweepIsLocated() throws {
        #expect(throws: ScenarioErrors.self) {
            try Self.load("sweep:\n  parameters:\n    systems.mood: [builtin]\n")
        }
    }
}
