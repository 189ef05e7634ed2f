import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import Testing

/// A tiny app known only to this test: a user pings a server of `size` bytes on a
/// link of 1000 bytes/s, and requirement TOY-1 asks for at least three answered pings,
/// none slower than 2 s. Nothing in the engine or the report modules names it.
final class ToyPingDriver: AppDriver {
    /// Virtual times of the pings, seconds.
    var pings: [Double] = []
    var slowest = 0.0

    func start(_ run: RunContext) throws {}

    func perform(_ action: ActionSpec, actor: Int, at time: Double, _ run: RunContext) {
        let seconds = Double(action.parameters["size"]?.int ?? 0) / 1000
        pings.append(time)
        slowest = max(slowest, seconds)
        run.metrics.latency(Metric.pingLatency, seconds: seconds)
    }

    func finish(_ run: RunContext) throws {
        run.metrics.expect(Metric.pingsAnswered, Double(pings.count), samples: pings.count)
        run.metrics.expect(Metric.slowestPing, slowest, samples: pings.count)
    }

    /// The app's metrics, each declared once: the requirement lists them and the driver records
    /// through them (`run.metrics.expect(Metric.slowestPing, …)`), so a misspelt name does not compile.
    enum Metric {
        static let pingsAnswered = MetricKey("TOY-1", .atLeast("pings_answered", 3, kind: .count, unit: "count"))
        static let slowestPing = MetricKey("TOY-1", .atMost("slowest_ping", 2, kind: .latency, unit: "s"))
        static let pingLatency = MetricKey("TOY-1", .latency("ping_latency", p95AtMost: 2))
    }

    static let requirement = RequirementDefinition(
        id: "TOY-1", source: "toy spec §1", summary: "Pings are answered within 2 s",
        measuredAs: "pings answered; slowest ping", threshold: "≥ 3 answered, each ≤ 2 s",
        metrics: [Metric.pingsAnswered, Metric.slowestPing, Metric.pingLatency])

    static let app = AppDefinition(
        name: "toy-ping", doc: "A one-action app registered only by this test",
        actions: [
            AppDefinition.action(
                "ping", "ping the server",
                [
                    SchemaField("size", .integer(minimum: 1, maximum: 10_000), required: true, "answer size, bytes")
                ])
        ],
        feeds: [], parameters: [], requirements: [requirement],
        makeDriver: { _ in ToyPingDriver() })
}

@Suite("A toy app registered only in a test")
struct ToyAppTests {
    static let registry = AppRegistry([ToyPingDriver.app])

    static let scenario = """
        version: 1
        name: toy
        app: toy-ping
        seed: 1
        time: {start: 2024-01-01T00:00:00Z, duration: 10m, timezone: UTC}
        devices:
          - name: phone
        actors:
          - name: ann
            device: phone
            actions:
              - {at: 1m, every: 2m, count: 4, do: ping, size: 500}
              - {at: 9m, do: ping, size: 2500}
        requirements:
          - TOY-1
          - {id: TOY-1, metric: slowest_ping, threshold: 3}
        """

    @Test func validatesAgainstItsOwnVocabulary() throws {
        let loader = ScenarioLoader(datasetNames: [], registry: Self.registry)
        let s = try loader.parse(Self.scenario, file: "toy.yaml")
        #expect(s.app == "toy-ping" && s.actors[0].actions.count == 2)
        let wrong = Self.scenario.replacingOccurrences(of: "do: ping, size: 2500", with: "do: pong, size: 2500")
        #expect(throws: ScenarioErrors.self) { try loader.parse(wrong, file: "toy.yaml") }
        let unknown = Self.scenario.replacingOccurrences(of: "  - TOY-1\n", with: "  - TOY-2\n")
        #expect(throws: ScenarioErrors.self) { try loader.parse(unknown, file: "toy.yaml") }
        // The JSON Schema and the catalogue come from the registered apps.
        let schema = JSONSchemaWriter.render(Self.registry)
        #expect(schema.contains("\"toy-ping\"") && schema.contains("\"ping\"") && !schema.contains("\"skyscape\""))
        #expect(Self.registry.requirements.map(\.id) == ["TOY-1"])
        #expect(Self.registry.requirement("TOY-1")?.metric("slowest_ping")?.threshold == 2)
    }

    @Test func runsThroughTheEngineAndReportsRows() throws {
        let s = try ScenarioLoader(datasetNames: [], registry: Self.registry).parse(Self.scenario, file: "toy.yaml")
        let store = DatasetStore(manifest: try DatasetManifest(root: RunnerTests.manifestRoot))
        let results = try ScenarioRunner.run(
            ScenarioRunner.cases(of: s), jobs: 1, runID: "toy-run", datasets: store,
            apps: Self.registry)
        let rows = results.flatMap(\.rows)
        func row(_ metric: String) -> MetricRow? { rows.first { $0.metric == metric } }
        // The engine expanded at/every/count: pings at 1, 3, 5 and 7 minutes, and the one at 9.
        #expect(results[0].events == 5)
        let answered = try #require(row("pings_answered"))
        #expect(
            answered.value == 5 && answered.unit == "count" && answered.threshold == 3
                && answered.comparator == .greaterOrEqual && answered.status == .pass)
        // The scenario override replaces the definition's default threshold (2 s → 3 s).
        let slowest = try #require(row("slowest_ping"))
        #expect(slowest.value == 2.5 && slowest.threshold == 3 && slowest.status == .pass)
        let p95 = try #require(row("ping_latency_p95"))
        #expect(p95.threshold == 2 && p95.kind == .latency)
        #expect(rows.allSatisfy { $0.requirement == "TOY-1" && $0.scenario == "toy" && $0.runID == "toy-run" })
        // The rows go through the metric report like any app's.
        let csv = MetricsCSV.render(rows)
        #expect(try MetricsCSV.parse(bytes: Array(csv.utf8), file: "toy.csv").count == rows.count)
    }

    /// The bundled apps' loader does not know the toy app: only the registry handed to it counts.
    @Test func isUnknownToAnotherRegistry() {
        let other = ScenarioLoader(datasetNames: [], registry: AppRegistry([]))
        #expect(throws: ScenarioErrors.self) { try other.parse(Self.scenario, file: "toy.yaml") }
    }
}

/// The toy app through the engine's evidence rule: with no pings its checked rows hold no
/// samples, so they are `not_measured` whatever their value, never pass or fail.
@Suite("A toy app with nothing measured")
struct ToyAppEvidenceTests {
    @Test func noPingsIsNotAPass() throws {
        var s = try ScenarioLoader(datasetNames: [], registry: ToyAppTests.registry).parse(
            ToyAppTests.scenario, file: "toy.yaml")
        s.actors[0].actions = []
        let store = DatasetStore(manifest: try DatasetManifest(root: RunnerTests.manifestRoot))
        let rows = try ScenarioRunner.run(
            ScenarioRunner.cases(of: s), jobs: 1, runID: "toy-idle", datasets: store, apps: ToyAppTests.registry
        ).flatMap(\.rows)
        // slowest_ping's value 0 is within its threshold, yet nothing was pinged.
        let slowest = try #require(rows.first { $0.metric == "slowest_ping" })
        #expect(slowest.samples == 0 && slowest.value == 0 && slowest.status == .notMeasured)
        #expect(!slowest.note.isEmpty)
        #expect(rows.allSatisfy { $0.samples > 0 || $0.status == .notMeasured || $0.status == .info })
    }
}
