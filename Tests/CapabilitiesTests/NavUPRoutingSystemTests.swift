import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import Capabilities

/// NavUP's route queries go through `RoutingSystem`: the built-in router served out of process gives
/// the in-process rows, and a routing system that answers wrongly fails NavUP's routing checks.
@Suite("NavUP through the routing protocol")
struct NavUPRoutingSystemTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/wrong_router.py").path

    /// The wheelchair scenario (plain routes: it has no crowd, so no congestion weights), also reporting
    /// NAV-F4, whose regret judges each route the system answered against the optimum.
    static func wheelchairScenario(systems: [String: SystemSetting] = [:]) throws -> [CaseResult] {
        let repo = ServedCoreTests.repo
        let manifest = try DatasetManifest(root: repo.appendingPathComponent("Datasets"))
        let text = try String(
            contentsOf: repo.appendingPathComponent("Scenarios/navup-wheelchair.yaml"), encoding: .utf8
        )
        .replacingOccurrences(of: "  - NAV-F18\n", with: "  - NAV-F18\n  - NAV-F4\n")
        var scenario = try ScenarioLoader(manifest: manifest, registry: .bundled)
            .parse(text, file: "navup-wheelchair.yaml", folder: repo.appendingPathComponent("Scenarios"))
        #expect(scenario.requirements.map(\.id) == ["NAV-F15", "NAV-F18", "NAV-F4"])
        scenario.systems = systems
        return try ScenarioRunner.run(
            ScenarioRunner.cases(of: scenario), jobs: 1, runID: "check", datasets: DatasetStore(manifest: manifest),
            apps: .bundled)
    }

    static func row(_ results: [CaseResult], _ requirement: String, _ metric: String) -> MetricRow? {
        results.flatMap(\.rows).first { $0.requirement == requirement && $0.metric == metric }
    }

    @Test func servedRouterReproducesTheInProcessRowsOfNavUPWheelchair() throws {
        let inProcess = try ServedCoreTests.run("navup-wheelchair.yaml")
        let served = try ServedCoreTests.run(
            "navup-wheelchair.yaml",
            systems: ["route": SystemSetting(command: [ServedCoreTests.executable, "serve", "route"])])
        let a = ServedCoreTests.comparable(inProcess.flatMap(\.rows))
        #expect(a.count >= 6)
        #expect(a == ServedCoreTests.comparable(served.flatMap(\.rows)))
        let record = try #require(served.first?.systems.first)
        #expect(record.capability == "route" && record.identity.name == "fieldtest-builtin-route")
        #expect(record.faults.isEmpty)
        #expect(record.requests >= 100)  // the 101 wheelchair routes the app asked for
        #expect(inProcess.first?.systems.isEmpty == true)
    }

    @Test func servedRouterReproducesTheRegretRows() throws {
        let inProcess = try Self.wheelchairScenario()
        let served = try Self.wheelchairScenario(
            systems: ["route": SystemSetting(command: [ServedCoreTests.executable, "serve", "route"])])
        #expect(Self.row(inProcess, "NAV-F4", "regret_online_p95")?.status == .pass)
        #expect(Self.row(inProcess, "NAV-F4", "routes_off_the_paths")?.status == .pass)
        #expect(
            ServedCoreTests.comparable(inProcess.flatMap(\.rows)) == ServedCoreTests.comparable(served.flatMap(\.rows)))
    }

    /// A system that never finds a route: every wheelchair answer is a `no_route` the independent search
    /// proves wrong.
    @Test func aRouterThatFindsNothingFailsWrongNoRoute() throws {
        let results = try ServedCoreTests.run(
            "navup-wheelchair.yaml", systems: ["route": SystemSetting(command: ["python3", Self.fixture, "no-route"])])
        let wrong = try #require(Self.row(results, "NAV-F15", "wrong_no_route"))
        #expect(wrong.status == .fail && wrong.value > 0)
        // Every one of the 101 routes the system answered, not the evacuations (the built-in
        // `EmergencyRouting` answers those, and they still succeed).
        #expect(Self.row(results, "NAV-F15", "wheelchair_no_route")?.value == 101)
        #expect(Self.row(results, "NAV-F18", "wrong_wheelchair_evacuations")?.status == .pass)
    }

    /// A system whose routes are real walks, only longer than the best: the regret of its answers fails.
    @Test func aRouterThatTakesDetoursFailsTheRegret() throws {
        let results = try Self.wheelchairScenario(
            systems: [
                "route": SystemSetting(command: ["python3", Self.fixture, "detour", ServedCoreTests.executable])
            ])
        let regret = try #require(Self.row(results, "NAV-F4", "regret_online_p95"))
        #expect(regret.status == .fail && regret.value > 0.1)
        // The detours are walks the wheelchair profile may take: on the paths, no forbidden edge.
        #expect(Self.row(results, "NAV-F4", "routes_off_the_paths")?.status == .pass)
        #expect(Self.row(results, "NAV-F15", "forbidden_edges_used")?.status == .pass)
        #expect(results.first?.systems.first?.faults.isEmpty == true)
    }

    /// A system whose answers are straight lines, not walks on the map: each counts as off the paths, and
    /// as a forbidden use for a wheelchair; none is given a regret.
    @Test func aRouterThatIgnoresThePathsFailsOffThePaths() throws {
        let results = try Self.wheelchairScenario(
            systems: ["route": SystemSetting(command: ["python3", Self.fixture, "straight"])])
        let off = try #require(Self.row(results, "NAV-F4", "routes_off_the_paths"))
        #expect(off.status == .fail && off.value == 101 && off.samples == 101)
        #expect(Self.row(results, "NAV-F4", "regret_online_p95") == nil)
        let forbidden = try #require(Self.row(results, "NAV-F15", "forbidden_edges_used"))
        #expect(forbidden.status == .fail && forbidden.value >= 101)
    }

    /// A system that snaps the query points its own way (its walks start and end at other nodes than
    /// the harness's projections) is on the paths: its answers are judged on their own nodes.
    @Test func aRouterWithItsOwnSnappingIsOnThePaths() throws {
        let results = try Self.wheelchairScenario(
            systems: [
                "route": SystemSetting(command: ["python3", Self.fixture, "own-ends", ServedCoreTests.executable])
            ])
        let off = try #require(Self.row(results, "NAV-F4", "routes_off_the_paths"))
        #expect(off.status == .pass && off.value == 0 && off.samples >= 10, "\(off)")
        #expect(Self.row(results, "NAV-F15", "forbidden_edges_used")?.status == .pass)
        #expect(results.first?.systems.first?.faults.isEmpty == true)
    }

    /// A system whose walks jump between nodes that no way joins is off the paths, and `items.csv`
    /// names the first offending pair of each such answer.
    @Test func aRouterThroughWallsIsOffThePathsWithTheFirstOffendingPair() throws {
        let results = try Self.wheelchairScenario(
            systems: ["route": SystemSetting(command: ["python3", Self.fixture, "wall", ServedCoreTests.executable])])
        let off = try #require(Self.row(results, "NAV-F4", "routes_off_the_paths"))
        #expect(off.status == .fail && off.value >= 10, "\(off)")
        let items = results.flatMap(\.items).filter { $0.metric == "routes_off_the_paths" }
        let named = items.filter { $0.outcome.answer.hasPrefix("off the paths: nonexistent_edge ") }
        #expect(named.count == Int(off.value), "\(items.prefix(3))")
        #expect(try #require(Self.row(results, "NAV-F15", "forbidden_edges_used")).status == .fail)
    }

    /// Only NavUP routes: another app's scenario naming a `route` system runs on its own cores and starts
    /// no process (as for every capability an app does not use).
    @Test func aRouteSystemIsIgnoredByAppsThatDoNotRoute() throws {
        let plain = try ServedCoreTests.run("skyscape-lincoln.yaml")
        let named = try ServedCoreTests.run(
            "skyscape-lincoln.yaml", systems: ["route": SystemSetting(command: ["python3", Self.fixture, "no-route"])])
        #expect(named.first?.systems.isEmpty == true)
        #expect(ServedCoreTests.comparable(plain.flatMap(\.rows)) == ServedCoreTests.comparable(named.flatMap(\.rows)))
    }
}
