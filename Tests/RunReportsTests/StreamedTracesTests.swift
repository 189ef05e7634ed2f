import FieldtestApps
import FieldtestData
import FieldtestTestSupport
import Foundation
import ScenarioEngine
import Testing

/// The trace files a run assembles from its per-case files, one case at a time, are the files the
/// same cases' traces render to when held in memory together (a campus drawn by several cases once).
@Suite("Traces assembled from case files")
struct StreamedTracesTests {
    @Test(arguments: [TraceLevel.summary, .full])
    func assembledTracesEqualTheInMemoryRendering(level: TraceLevel) throws {
        let repo = NavUPTraceTests.repo
        let dir = TemporaryFiles.url("fieldtest-traces")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A three-seed sweep of the wheelchair walk: every case draws the same campus.
        let text = try String(
            contentsOf: repo.appendingPathComponent("Scenarios/navup-wheelchair.yaml"), encoding: .utf8)
        try #require(!text.contains("sweep:"))
        let file = dir.appendingPathComponent("sweep.yaml")
        try (text + "\nsweep:\n  seeds: {from: 1, count: 3}\n").write(to: file, atomically: true, encoding: .utf8)
        let manifest = try DatasetManifest(root: repo.appendingPathComponent("Datasets"))

        let scenario = try ScenarioLoader(manifest: manifest, registry: .bundled).load(file, displayName: file.path)
        let results = try ScenarioRunner.run(
            ScenarioRunner.cases(of: scenario), jobs: 1, runID: "r", datasets: DatasetStore(manifest: manifest),
            apps: .bundled, trace: level)
        let cases = results.map {
            TraceFiles.Case(label: $0.scenarioCase.label, start: $0.scenarioCase.scenario.start, trace: $0.trace)
        }
        #expect(cases.count == 3 && cases.allSatisfy { $0.trace.features.contains { $0.kind == "campus" } })

        let out = dir.appendingPathComponent("out")
        _ = try RunPipeline(
            request: RunRequest(
                files: [file.path], out: out.path, jobs: 2, compareLatency: .never, toolVersion: "t", trace: level),
            manifest: manifest, apps: .bundled
        ).run(observe: { _ in })
        let folder = out.appendingPathComponent(scenario.name)
        #expect(
            try String(contentsOf: folder.appendingPathComponent(TraceFiles.eventsFile), encoding: .utf8)
                == TraceFiles.events(cases))
        #expect(
            try String(contentsOf: folder.appendingPathComponent(TraceFiles.geoJSONFile), encoding: .utf8)
                == TraceFiles.geoJSON(cases, level: level))
        // Latency samples are wall-clock times: the same rows, other values.
        let latency = try String(contentsOf: folder.appendingPathComponent(TraceFiles.latencyFile), encoding: .utf8)
        #expect(latency.split(separator: "\n").count == TraceFiles.latency(cases).split(separator: "\n").count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [scenario.name])
    }
}
