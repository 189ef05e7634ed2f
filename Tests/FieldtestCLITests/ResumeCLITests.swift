import FieldtestTestSupport
import Foundation
import Testing

/// `run --resume`: a sweep killed with SIGKILL partway continues where it stopped and ends with the
/// result an uninterrupted run writes; damaged case files are run again, a changed scenario refused.
/// Heavy tier: each test kills a 60-case sweep and runs it again whole, minutes in a debug build.
@Suite("run --resume after a kill", .serialized, .heavy)
struct ResumeCLITests {
    let cli = FieldtestCLITests()
    static let caseCount = 60

    /// A small SkyScape sweep of `caseCount` seeds (each case a fraction of a second in a debug build).
    static func scenario(threshold: Int = 120) -> String {
        """
        version: 1
        name: resumable
        app: skyscape
        seed: 7
        time: {start: 2018-06-01T00:00:00Z, duration: 2h, timezone: Asia/Singapore}
        datasets: [noaa-lcd-rota-2018]
        devices:
          - {name: phone, gps: urban, network: 3g}
        actors:
          - name: alice
            device: phone
            actions:
              - {at: 5m, do: search, query: Singapore}
              - {at: 10m, every: 10m, count: 3, do: view-details, place: Singapore}
        feeds:
          - {kind: weather-refresh, every: 5m, dataset: noaa-lcd-rota-2018}
        requirements: [SKY-P1, {id: SKY-P2, threshold: \(threshold)}]
        sweep:
          seeds: {from: 1, count: \(caseCount)}

        """
    }

    /// Starts the sweep into `out` as a child process and kills it (SIGKILL) once `atLeast` case
    /// files are on disk; returns how many there were. The kill must come before the end.
    func killedRun(_ scenario: URL, out: URL, atLeast: Int = 3) throws -> Int {
        let p = Process()
        p.executableURL = FieldtestCLITests.executable
        p.arguments = ["run", scenario.path, "--out", out.path, "--jobs", "1", "--quiet"]
        p.currentDirectoryURL = FieldtestCLITests.repo
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let cases = out.appendingPathComponent(".resumable.inprogress/cases")
        let deadline = Date().addingTimeInterval(120)
        var count = 0
        while Date() < deadline && p.isRunning {
            count =
                (try? FileManager.default.contentsOfDirectory(atPath: cases.path).filter { $0.hasSuffix(".case") }
                    .count) ?? 0
            if count >= atLeast { break }
            usleep(5_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        return
            (try? FileManager.default.contentsOfDirectory(atPath: cases.path).filter { $0.hasSuffix(".case") }
            .count) ?? count
    }

    /// metrics.csv without its run_id column and latency rows (which measure wall-clock time).
    func comparable(_ metrics: URL) throws -> [String] {
        let lines = try String(contentsOf: metrics, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let runID = try #require(header.firstIndex(of: "run_id"))
        let kind = try #require(header.firstIndex(of: "kind"))
        return lines.compactMap { line in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields[kind] == "latency" { return nil }
            fields.remove(at: runID)
            return fields.joined(separator: ",")
        }
    }

    func uninterrupted(_ scenario: URL, in dir: URL) throws -> URL {
        let out = dir.appendingPathComponent("whole")
        let r = try cli.run(["run", scenario.path, "--out", out.path, "--jobs", "2", "--quiet"])
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        return out.appendingPathComponent("resumable")
    }

    @Test func killedSweepResumesToTheUninterruptedResult() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("resumable.yaml")
        try Self.scenario().write(to: scenario, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("resumed")
        let done = try killedRun(scenario, out: out)
        try #require(done >= 1 && done < Self.caseCount, "the kill came after \(done) of \(Self.caseCount) cases")
        // Nothing is published while the run is unfinished.
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("resumable/metrics.csv").path))

        let r = try cli.run(["run", scenario.path, "--out", out.path, "--jobs", "2", "--resume", "--quiet"])
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(done) of \(Self.caseCount) cases done"), "\(r.stderr)")
        let folder = out.appendingPathComponent("resumable")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(".resumable.inprogress").path))
        let whole = try uninterrupted(scenario, in: dir)
        let resumed = try comparable(folder.appendingPathComponent("metrics.csv"))
        #expect(resumed.count > Self.caseCount)
        #expect(resumed == (try comparable(whole.appendingPathComponent("metrics.csv"))))
        // events.csv holds only virtual times: byte for byte the same.
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("events.csv"))
                == Data(contentsOf: whole.appendingPathComponent("events.csv")))
        // One run: every row carries the run_id of run.json, which counts every case.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("run.json")))
        let record = try #require(json as? [String: Any])
        #expect(record["cases"] as? Int == Self.caseCount)
        let runID = try #require(record["run_id"] as? String)
        let text = try String(contentsOf: folder.appendingPathComponent("metrics.csv"), encoding: .utf8)
        #expect(text.split(separator: "\n").dropFirst().allSatisfy { $0.split(separator: ",")[1] == runID })
    }

    /// A truncated case file and one whose rows were altered (its checksum no longer matches) are
    /// run again: were either trusted, the result would differ from the uninterrupted run's.
    @Test func damagedCaseFilesAreRunAgain() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("resumable.yaml")
        try Self.scenario().write(to: scenario, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("resumed")
        let done = try killedRun(scenario, out: out, atLeast: 2)
        try #require(done >= 2 && done < Self.caseCount)
        let cases = out.appendingPathComponent(".resumable.inprogress/cases")
        let files = try FileManager.default.contentsOfDirectory(atPath: cases.path).filter { $0.hasSuffix(".case") }
            .sorted()
        let truncated = cases.appendingPathComponent(files[0])
        let data = try Data(contentsOf: truncated)
        try data.prefix(data.count / 2).write(to: truncated)
        let altered = cases.appendingPathComponent(files[1])
        let text = try String(contentsOf: altered, encoding: .utf8)
        let changed = text.replacingOccurrences(of: ",pass,", with: ",fail,")
        try #require(changed != text)
        try changed.write(to: altered, atomically: true, encoding: .utf8)

        let r = try cli.run(["run", scenario.path, "--out", out.path, "--jobs", "2", "--resume", "--quiet"])
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(files[0]): note: case") && r.stderr.contains("\(files[1]): note: case"))
        #expect(r.stderr.contains("checksum"), "\(r.stderr)")
        #expect(r.stderr.contains("\(done - 2) of \(Self.caseCount) cases done"), "\(r.stderr)")
        let whole = try uninterrupted(scenario, in: dir)
        #expect(
            try comparable(out.appendingPathComponent("resumable/metrics.csv"))
                == (try comparable(whole.appendingPathComponent("metrics.csv"))))
    }

    /// A scenario changed between the kill and the resume is refused, saying what changed; the
    /// finished cases stay for a resume with the original file.
    @Test func changedScenarioIsNotMixedIn() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("resumable.yaml")
        try Self.scenario().write(to: scenario, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("resumed")
        let done = try killedRun(scenario, out: out, atLeast: 1)
        try #require(done >= 1 && done < Self.caseCount)
        try Self.scenario(threshold: 90).write(to: scenario, atomically: true, encoding: .utf8)
        let r = try cli.run(["run", scenario.path, "--out", out.path, "--resume"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot resume scenario 'resumable'"), "\(r.stderr)")
        #expect(r.stderr.contains("the scenario file's sha256 was"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("resumable/metrics.csv").path))
        #expect(
            (try FileManager.default.contentsOfDirectory(
                atPath: out.appendingPathComponent(".resumable.inprogress/cases").path
            ).filter { $0.hasSuffix(".case") }.count) == done)
        // Without --out there is nothing to resume: a usage error.
        let usage = try cli.run(["run", scenario.path, "--resume"])
        #expect(usage.status == 2 && usage.stderr.contains("--resume continues the run written to --out DIR"))
    }
}
