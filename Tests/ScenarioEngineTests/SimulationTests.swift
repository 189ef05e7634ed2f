import FieldtestData
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

@Suite("Event engine")
struct SimulationTests {
    @Test func queueOrdersByTimeThenSequence() {
        var q = EventQueue<Int>()
        let times: [Double] = [5, 1, 5, 3, 1, 5, 0]
        for (i, t) in times.enumerated() { q.push(at: t, i) }
        var out: [Int] = []
        while let (_, p) = q.pop() { out.append(p) }
        // Equal times leave in scheduling order: 1 before 4, 0 before 2 before 5.
        #expect(out == [6, 1, 4, 3, 0, 2, 5])
    }

    @Test func queueMatchesSortOnRandomInput() {
        var rng = SeededGenerator(seed: 3)
        var q = EventQueue<Int>()
        var expected: [(Double, Int)] = []
        for i in 0..<5000 {
            let t = Double(rng.next() % 100)
            q.push(at: t, i)
            expected.append((t, i))
        }
        expected.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var got: [Int] = []
        while let (_, p) = q.pop() { got.append(p) }
        #expect(got == expected.map(\.1))
    }

    @Test func eventsScheduleEventsAndStopAtTheEnd() {
        let sim = Simulation(start: 100, end: 160)
        let log = Log()
        sim.schedule(at: 100) { s in
            log.add("tick \(Int(s.now))")
            s.schedule(after: 30) { s in
                log.add("tock \(Int(s.now))")
                s.schedule(after: 30) { s in log.add("late \(Int(s.now))") }
                s.schedule(after: 31) { s in log.add("too late \(Int(s.now))") }
            }
        }
        sim.run()
        #expect(log.lines == ["tick 100", "tock 130", "late 160"])
        #expect(sim.dispatched == 3)
        #expect(sim.pending == 1)
    }
}

final class Log: @unchecked Sendable {
    var lines: [String] = []
    func add(_ s: String) { lines.append(s) }
}

/// A driver that draws from named streams on every action, to test determinism.
final class NoiseDriver: AppDriver {
    var sum = 0.0
    var n = 0
    func start(_ run: RunContext) throws {
        for actor in run.scenario.actors {
            for action in actor.actions {
                for offset in action.offsets(duration: run.scenario.duration) {
                    run.simulation.schedule(at: run.scenario.start + offset) { [self] _ in
                        let draw = run.stream("noise-\(actor.name)").gaussian(standardDeviation: 2)
                        sum += abs(draw)
                        n += 1
                        run.metrics.latency("SKY-P3", "action_latency", seconds: 0.1 + abs(draw) / 10, threshold: 3)
                    }
                }
            }
        }
    }
    func finish(_ run: RunContext) throws {
        run.metrics.value(
            "SKY-P2", "mean_abs_draw", kind: .accuracy, sum / Double(max(n, 1)), unit: "s",
            threshold: 300, comparator: .lessOrEqual, samples: n)
    }
}

@Suite("Runs, sweeps and shards")
struct RunnerTests {
    static let manifestRoot: URL = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Datasets")
    }()

    func scenario(_ extra: String = "") throws -> Scenario {
        let text = validScenario.replacingOccurrences(of: "  - SKY-P1\n", with: "  - SKY-P3\n") + "\n" + extra
        return try ScenarioLoader(datasetNames: nil).parse(text, file: "x.yaml")
    }

    func run(_ s: Scenario, jobs: Int = 1) throws -> [MetricRow] {
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.manifestRoot))
        let cases = ScenarioRunner.cases(of: s)
        return try ScenarioRunner.run(
            cases, jobs: jobs, runID: "r", datasets: store, apps: .bundled(skyscape: { _ in NoiseDriver() })
        )
        .flatMap(\.rows)
    }

    @Test func sameSeedGivesIdenticalBytes() throws {
        let s = try scenario()
        let a = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        let b = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        #expect(a == b)
        #expect(a.contains("SKY-P2,mean_abs_draw,accuracy,"))
        var other = s
        other.seed = 8
        #expect(MetricsCSV.render(try run(other).filter { $0.kind != .latency }) != a)
    }

    @Test func rowsFollowRequirementsWithOverridesAndLatencyPercentiles() throws {
        let rows = try run(try scenario())
        #expect(
            rows.map(\.metric) == [
                "action_latency_p50", "action_latency_p95", "action_latency_p99", "action_latency_max", "mean_abs_draw",
            ])
        #expect(rows[1].threshold == 3 && rows[1].comparator == .lessOrEqual && rows[1].status == .pass)
        #expect(rows[0].status == .info)
        #expect(rows[4].threshold == 120)  // the scenario's override of SKY-P2
        #expect(rows.allSatisfy { $0.samples == 4 })
    }

    @Test func unmeasuredRequirementFails() throws {
        let text = validScenario.replacingOccurrences(of: "  - SKY-P1\n", with: "  - SKY-R1\n")
        let s = try ScenarioLoader(datasetNames: nil).parse(text, file: "x.yaml")
        let rows = try run(s)
        let row = try #require(rows.first { $0.requirement == "SKY-R1" })
        #expect(row.metric == "not_measured" && row.status == .notMeasured && row.samples == 0)
        #expect(row.note.contains("devices[].restarts"), "the note says what would exercise it")
    }

    @Test func sweepExpandsParametersTimesSeedsAndShardsPartitionIt() throws {
        let s = try scenario(
            """
            sweep:
              parameters:
                low_quality_threshold: [20, 40]
                devices.phone.network: [3g, edge, lte]
              seeds: [1, 2]
            """)
        let cases = ScenarioRunner.cases(of: s)
        #expect(cases.count == 12)
        #expect(cases[0].label == "demo[low_quality_threshold=20,devices.phone.network=3g,seed=1]")
        #expect(Set(cases.map(\.label)).count == 12)
        #expect(cases[0].scenario.seed == 1 && cases[1].scenario.seed == 2)
        #expect(cases[3].scenario.devices[0].network == "edge")
        #expect(cases[11].scenario.parameters["low_quality_threshold"]?.double == 40)
        let shards = (0..<5).map { ScenarioRunner.shard(cases, index: $0, count: 5).map(\.index) }
        #expect(shards.flatMap { $0 }.sorted() == Array(0..<12))
        #expect(shards[0] == [0, 5, 10])
        // Parallel and serial runs give the same rows in the same order.
        let serial = MetricsCSV.render(try run(s, jobs: 1).filter { $0.kind != .latency })
        let parallel = MetricsCSV.render(try run(s, jobs: 4).filter { $0.kind != .latency })
        #expect(serial == parallel)
        // Merging shards in any order restores the full run.
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.manifestRoot))
        let parts = try (0..<3).reversed().map { i in
            (
                name: "shard\(i)",
                rows: try ScenarioRunner.run(
                    ScenarioRunner.shard(cases, index: i, count: 3), jobs: 1, runID: "r",
                    datasets: store, apps: .bundled(skyscape: { _ in NoiseDriver() })
                ).flatMap(\.rows)
            )
        }
        let info = ShardRunInfo(scenario: s.name, shard: "0/3", sweep: SweepRecord(s))
        let merged = try ShardMerge.merge(parts.map { ShardMerge.Input(name: $0.name, rows: $0.rows, run: info) })
        let whole = try run(s)
        #expect(merged.isComplete)
        // In sweep order, so the merged rows are those of the whole run, in its order.
        #expect(merged.rows.map(\.key) == whole.map(\.key))
        let twice = try ShardMerge.merge(
            [parts[0], parts[0]].map { ShardMerge.Input(name: $0.name, rows: $0.rows, run: info) })
        #expect(twice.duplicated.count == ScenarioRunner.shard(cases, index: 2, count: 3).count)
        #expect(twice.missing.count == 12 - twice.duplicated.count)
    }

    @Test func committedJSONSchemaIsCurrent() throws {
        let url = Self.manifestRoot.deletingLastPathComponent().appendingPathComponent("Scenarios/scenario.schema.json")
        let generated = JSONSchemaWriter.render(.bundled)
        if ProcessInfo.processInfo.environment["FIELDTEST_RECORD"] == "1" {
            try generated.write(to: url, atomically: false, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == generated, "run 'fieldtest schema --output Scenarios/scenario.schema.json' to refresh it")
        let object = try JSONSerialization.jsonObject(with: Data(generated.utf8)) as? [String: Any]
        #expect((object?["required"] as? [String])?.contains("version") == true)
    }
}
