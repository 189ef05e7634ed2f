import FieldtestTestSupport
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// How `run` shows progress off a terminal, and how `check` picks a baseline from a folder.
@Suite("Progress lines and baseline folders")
struct ProgressAndBaselineFolderTests {
    @Test func progressIsPeriodicOffATerminalAndNoneWhenQuiet() {
        #expect(ProgressMode.choose(isTerminal: true, quiet: false) == .terminal)
        #expect(ProgressMode.choose(isTerminal: false, quiet: false) == .periodic(seconds: 10))
        #expect(ProgressMode.choose(isTerminal: false, quiet: true) == .none)
        #expect(ProgressMode.choose(isTerminal: true, quiet: true) == .none)
        #expect(ProgressMode.interval(environment: ["FIELDTEST_PROGRESS_SECONDS": "30"]) == 30)
        for bad in ["0", "-1", "x", "1e9", "nan"] {
            #expect(ProgressMode.interval(environment: ["FIELDTEST_PROGRESS_SECONDS": bad]) == 10)
        }
    }

    @Test func aPeriodicLineNamesTheScenarioTheCaseAndTheSeconds() {
        #expect(
            RunConsole.heartbeatLine(scenario: "skyscape-miami", done: 2, total: 12, seconds: 41.7)
                == "fieldtest: skyscape-miami case 3/12, 41 s")
        #expect(
            RunConsole.heartbeatLine(scenario: "s", done: 12, total: 12, seconds: 60)
                == "fieldtest: s 12/12 cases done, 60 s")
    }

    @Test func aHeartbeatWritesWhileAScenarioRunsAndStopsWhenAsked() async throws {
        let lines = LockedLines()
        let beat = Heartbeat(interval: 0.01) { lines.append($0) }
        // Nothing is said before a scenario starts.
        try await Task.sleep(for: .milliseconds(50))
        #expect(lines.all.isEmpty)
        beat.update(scenario: "demo", done: 0, total: 3, restart: true)
        for _ in 0..<500 where lines.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(lines.all.first?.hasPrefix("fieldtest: demo case 1/3, ") == true)
        beat.stop()
        try await Task.sleep(for: .milliseconds(50))
        let count = lines.all.count
        try await Task.sleep(for: .milliseconds(100))
        #expect(lines.all.count == count)
    }

    @Test func aBaselineFolderGivesTheScenariosFile() throws {
        let folder = TemporaryFiles.url("base")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func row(_ label: String) -> MetricRow {
            MetricRow(
                scenario: label, runID: "r", seed: 1, requirement: "R", metric: "m", kind: .count, value: 0,
                unit: "count", threshold: 0, comparator: .lessOrEqual, status: .pass, samples: 1)
        }
        let current = folder.appendingPathComponent("nothing-beside/metrics.csv").path
        #expect(
            try BaselineComparison.baselineFile(
                folder.path, current: current, rows: [row("sweep[a=1]"), row("sweep[a=2]")])
                == folder.appendingPathComponent("sweep.csv").path)
        #expect(try BaselineComparison.baselineFile("base.csv", current: current, rows: []) == "base.csv")
        #expect(throws: BaselineComparison.Problem.unknownScenario(current: current, folder: folder.path)) {
            try BaselineComparison.baselineFile(folder.path, current: current, rows: [row("a"), row("b")])
        }
    }
}

/// Lines collected from another thread.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
