import Foundation
import MetricReports

/// What `fieldtest run` is asked to do, as values: the scenario files, where reports go, and the
/// baseline to compare with. `RunPipeline` carries it out.
public struct RunRequest: Sendable {
    /// Scenario files (YAML), as given (also their display names).
    public var files: [String]
    /// Reports go to `out/<scenario>/` when set, else to `resultsFolder/<scenario>/<run_id>/`.
    public var out: String?
    /// The folder of per-run report folders when `out` is nil.
    public var resultsFolder = "Results/runs"
    /// JUnit XML file to write as well: one file for every scenario of the run (`-`: standard output).
    public var junit: String?
    /// A baseline metrics CSV, or a folder of `<scenario>.csv` baselines.
    public var baseline: String?
    /// A folder in which to record this run's metrics as `<scenario>.csv` baselines.
    public var recordBaseline: String?
    /// Replaces every scenario's seed (sweeps with `seeds` keep theirs).
    public var seed: UInt64?
    /// Sweep cases run in parallel on this many threads (at least 1).
    public var jobs: Int
    /// Only this slice of each sweep runs.
    public var shard: Shard?
    /// Baseline tolerance settings `NAME=VALUE` (see `Tolerances.apply`).
    public var tolerances: [String]
    /// When latency rows are compared with the baseline.
    public var compareLatency: LatencyComparison
    /// Which regressions against the baseline fail the run (`--fail-on`): any, or only significant ones.
    public var failOn: FailOn = .any
    /// The tool's version, written into `run.json`.
    public var toolVersion: String
    /// The command line that asked for the run, written into `run.json`.
    public var commandLine: [String] = []
    /// The git commit the tool was built from, if known, written into `run.json`.
    public var toolCommit: String?
    /// The HTML report file the command writes after the run (`run --report`), checked with the
    /// other outputs before anything runs.
    public var report: String?
    /// Rows the loaders would skip are errors at their file and line (`run --strict`).
    public var strict = false
    /// How much each scenario's trace files keep (`events.csv`, `latency.csv`, `traces.geojson`).
    public var trace: TraceLevel = .summary
    /// Continue the interrupted run in `out`: cases whose result files are intact are not run again
    /// (`run --resume`).
    public var resume = false
    /// `--system` choices by capability, replacing every scenario's (a nil command: the built-in core).
    public var systems: [String: SystemSetting?] = [:]

    /// A request; see the properties for each value.
    public init(
        files: [String], out: String? = nil, junit: String? = nil, baseline: String? = nil,
        recordBaseline: String? = nil,
        seed: UInt64? = nil, jobs: Int = 1, shard: Shard? = nil, tolerances: [String] = [],
        compareLatency: LatencyComparison = .sameMachine, toolVersion: String, trace: TraceLevel = .summary,
        systems: [String: SystemSetting?] = [:]
    ) {
        self.systems = systems
        self.files = files
        self.out = out
        self.junit = junit
        self.baseline = baseline
        self.recordBaseline = recordBaseline
        self.seed = seed
        self.jobs = jobs
        self.shard = shard
        self.tolerances = tolerances
        self.compareLatency = compareLatency
        self.toolVersion = toolVersion
        self.trace = trace
    }

    /// Checks the combination of options before anything is read.
    public func validate() throws(RunError) {
        if jobs < 1 { throw .usage("--jobs must be at least 1") }
        if recordBaseline != nil && shard != nil {
            throw .usage(
                "--record-baseline records whole scenarios, and --shard runs only a slice of each sweep; record the baseline without --shard, or merge the shards' metrics.csv files with 'fieldtest merge' and use the merged file as --baseline"
            )
        }
        if resume && out == nil {
            throw .usage("--resume continues the run written to --out DIR; give the --out of the interrupted run")
        }
        if !tolerances.isEmpty && baseline == nil {
            throw .usage(
                "--tolerance applies only to the comparison with --baseline; add --baseline or drop --tolerance")
        }
    }
}

/// Slice `index` of `count` of each sweep's cases (0-based), e.g. one task of a batch array job.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// This slice, 0 ≤ `index` < `count`.
    public var index: Int
    /// Number of slices (at least 1).
    public var count: Int

    /// The text it was parsed from, as `run.json` records it.
    public let text: String

    /// Parses `I/N` with 0 ≤ I < N; nil otherwise.
    public init?(parsing text: String) {
        let p = text.split(separator: "/").compactMap { Int($0) }
        guard p.count == 2, p[1] > 0, p[0] >= 0, p[0] < p[1] else { return nil }
        index = p[0]
        count = p[1]
        self.text = text
    }

    /// The text it was parsed from (`I/N`).
    public var description: String { text }
}
