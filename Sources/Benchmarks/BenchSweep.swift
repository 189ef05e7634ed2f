import AccountStore
import ArgumentParser
import FieldtestApps
import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine

/// `fieldtest-bench sweep`: a sweep of many cases of a small SkyScape scenario (one seed per case)
/// run through the whole `fieldtest run` pipeline, results streamed to disk: cases per second per
/// core, peak resident memory (goal: under 300 MB for 10,000 cases) and where a case's time goes.
///
/// The breakdown is measured, not estimated: core calls are the time the app drivers measure with
/// `ComputeTimer` (SkyScape times every action, its KDF included, so the KDF is taken out of it),
/// the KDF is the time spent in PBKDF2 (`KDFClock`), I/O is the time spent writing the case files and
/// assembling and placing the report folder, and the engine (and app logic) is the rest of each
/// case's wall-clock time.
struct BenchSweep: ParsableCommand, ChecksGoals {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Cases/s per core, peak memory and time per case of a 10,000-case sweep (goal: < 300 MB).")

    @OptionGroup var goals: GoalOptions
    @Option(help: "Cases of the sweep (seeds), 1…100000.") var cases = 10_000
    @Option(help: "Threads running cases, at least 1 (default: all cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "The datasets folder (default: $FIELDTEST_DATASETS, ./Datasets or the checkout's).")
    var datasets: String?

    /// The peak resident memory goal, bytes.
    static let memoryGoal = 300.0 * 1024 * 1024

    func validate() throws {
        if !(1...100_000).contains(cases) { throw ValidationError("--cases must be in 1…100000 (got \(cases))") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1 (got \(jobs))") }
    }

    /// The scenario: two hours in Singapore on the Rota weather record, a search and three
    /// detail views per case, seeds 1…`cases`.
    static func scenario(cases: Int) -> String {
        """
        version: 1
        name: bench-sweep
        app: skyscape
        seed: 1
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
        requirements: [SKY-P1, {id: SKY-P2, threshold: 120}]
        sweep:
          seeds: {from: 1, count: \(cases)}

        """
    }

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldtest-bench-sweep-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bench-sweep.yaml")
        try Self.scenario(cases: cases).write(to: file, atomically: true, encoding: .utf8)
        let request = RunRequest(
            files: [file.path], out: folder.appendingPathComponent("out").path, jobs: jobs, compareLatency: .never,
            toolVersion: "bench", trace: .none)
        let manifest = try BenchSupport.guarded { try DatasetManifest(root: BenchSupport.datasetsRoot(datasets)) }
        let (kdf0, core0, cpu0) = (KDFClock.spent, ComputeTimer.spent, Self.cpuSeconds())
        let outcome = try BenchSupport.guarded {
            try RunPipeline(request: request, manifest: manifest, apps: .bundled).run(observe: { _ in })
        }
        let cpu = Self.cpuSeconds() - cpu0
        let kdf = (calls: KDFClock.spent.calls - kdf0.calls, seconds: KDFClock.spent.seconds - kdf0.seconds)
        let core = ComputeTimer.spent - core0

        // Self-check: every case wrote its rows, the run folder is complete.
        let out = folder.appendingPathComponent("out/bench-sweep")
        let record = try RunReport.readRecord(out.appendingPathComponent("run.json"))
        let rows = try MetricsCSV.read(out.appendingPathComponent("metrics.csv"))
        guard record.cases == cases, Set(rows.map(\.seed)).count == cases, outcome.totals.rows == rows.count else {
            BenchSupport.printError(
                "error: sweep self-check failed: run.json says \(record.cases) cases, metrics.csv holds "
                    + "\(Set(rows.map(\.seed)).count) seeds, expected \(cases)")
            throw BenchSupport.failed
        }

        let wall = outcome.totals.seconds
        let perCore = Double(cases) / max(cpu, 1e-9)
        BenchOutput.measured(
            String(
                format: "sweep: %d cases in %.1f s with --jobs %d: %.1f cases/s; %.1f cases per CPU-second (per core)",
                cases, wall, jobs, Double(cases) / wall, perCore),
            [
                BenchOutput.fact("rate", "sweep cases", Double(cases) / wall, "cases/s"),
                BenchOutput.fact("rate", "sweep cases per core", perCore, "cases/cpu-s"),
            ])
        let peak = Self.peakResidentBytes()
        let met = peak < Self.memoryGoal
        BenchOutput.measured(
            String(format: "sweep: peak resident memory %.0f MB (goal < 300 MB: ", peak / 1_048_576)
                + Goals.verdict(met, "sweep peak resident memory < 300 MB") + ")",
            [BenchOutput.fact("goal", "sweep peak resident memory", peak / 1_048_576, "MB", goal: "< 300", met: met)])

        let perCase = { (seconds: Double) in seconds / Double(cases) * 1000 }
        let caseTime = outcome.caseSeconds
        let cores = max(0, core - kdf.seconds)
        let engine = max(0, caseTime - core)
        let parts: [(String, Double)] = [
            ("engine and app logic", engine), ("core calls", cores), ("KDF", kdf.seconds),
            ("I/O", outcome.writeSeconds),
        ]
        let total = parts.reduce(0) { $0 + $1.1 }
        BenchOutput.measured(
            "sweep: per case "
                + parts.map { String(format: "%@ %.3f ms (%.0f %%)", $0.0, perCase($0.1), $0.1 / total * 100) }
                .joined(separator: ", ") + " (KDF calls: \(kdf.calls))",
            parts.map { BenchOutput.fact("time_per_case", "sweep \($0.0)", perCase($0.1), "ms") })
        // The sweep's scenario registers no account; what one register or login would add per case:
        let hasher = PasswordHasher(parameters: .production)
        var rng = SystemRandomNumberGenerator()
        let before = KDFClock.spent.seconds
        _ = try hasher.hash("correct horse battery staple", using: &rng)
        let one = KDFClock.spent.seconds - before
        BenchOutput.measured(
            String(format: "sweep: one PBKDF2 derivation at production cost (600,000 iterations): %.0f ms", one * 1000),
            [BenchOutput.fact("time", "PBKDF2 at production cost", one * 1000, "ms")])
    }

    /// CPU seconds (user + system) of the whole process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Peak resident set size of the process, bytes (`ru_maxrss` is in kilobytes on Linux).
    static func peakResidentBytes() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) * 1024
    }
}
