import Foundation
import MetricReports

/// A scenario's figures over the tool commits its runs were made with (as asv draws benchmarks over
/// commits): one point per commit and metric, with the row's 95 % interval when it has one.
///
/// Commits come in the order they were first run (each run's `finished_at`, else `started_at`, from
/// `run.json`); a commit run several times shows its latest run, so a re-run of an old commit (a
/// bisection) keeps the commit's place. Runs whose `run.json` records no `tool_commit` are left out
/// and counted.
public struct RunHistory: Sendable {
    /// One commit on the x axis.
    public struct Commit: Sendable, Equatable {
        /// The full commit (`tool_commit`) and its first 7 characters.
        public var commit: String, short: String
        /// When the run drawn for it ended (else started), as `run.json` gives it.
        public var time: String?
        /// The runs of this commit given (the latest is drawn).
        public var runs: Int
        /// The run ID of the run drawn, when recorded.
        public var runID: String?
    }

    /// One metric's value at one commit.
    public struct Point: Sendable, Equatable {
        /// Index into `commits`.
        public var commit: Int
        /// The value, in the series' unit.
        public var value: Double
        /// Its 95 % interval's ends, when the row has one.
        public var low: Double?, high: Double?
        /// The row's status at that commit.
        public var status: MetricStatus
        /// The row's samples.
        public var samples: Int
    }

    /// One metric of one case over the commits.
    public struct Series: Sendable {
        /// Case label, requirement and metric.
        public var caseLabel: String, requirement: String, metric: String
        /// Unit of values, intervals and threshold.
        public var unit: String
        /// The metric's kind (latency is drawn in a group of its own).
        public var kind: MetricKind
        /// The threshold and comparator of the latest commit's row (nil: informational).
        public var threshold: Double?, comparator: ThresholdComparator
        /// The points, in commit order (a commit whose run lacks the row has none).
        public var points: [Point]

        /// Whether the value moves between commits.
        public var varies: Bool {
            let values = points.map(\.value)
            return values.contains { $0 != values[0] && !($0.isNaN && values[0].isNaN) }
        }
    }

    /// The commits, in the order they were first run.
    public var commits: [Commit]
    /// Every metric of every case, in order of first appearance (latest commit's rows first).
    public var series: [Series]
    /// Runs given without a recorded `tool_commit` (not drawn).
    public var withoutCommit: Int
    /// Distinct machines (`machine_id`, else host) the drawn runs ran on.
    public var machines: Int

    /// The history of `runs` (runs of one scenario); nil unless they come from two or more commits.
    public static func of(_ runs: [ReportRun]) -> RunHistory? {
        let ordered = chronological(runs)
        var order: [String] = []
        var latest: [String: (run: ReportRun, count: Int)] = [:]
        for run in ordered {
            guard let commit = run.provenance.toolCommit, !commit.isEmpty else { continue }
            if latest[commit] == nil { order.append(commit) }
            latest[commit] = (run, (latest[commit]?.count ?? 0) + 1)
        }
        guard order.count >= 2 else { return nil }
        let drawn = order.map { latest[$0]!.run }
        let commits = order.map { c in
            let (run, count) = latest[c]!
            return Commit(
                commit: c, short: String(c.prefix(7)), time: run.finishedAt ?? run.startedAt, runs: count,
                runID: run.provenance.runID)
        }
        let machines = Set(drawn.map { $0.machine["machine_id"] ?? $0.machine["host"] ?? "" }).count
        let withoutCommit = runs.filter { ($0.provenance.toolCommit ?? "").isEmpty }.count
        return RunHistory(commits: commits, series: series(drawn), withoutCommit: withoutCommit, machines: machines)
    }

    /// `runs` by the time each ended (else started); runs without a time keep their place after those
    /// with one.
    static func chronological(_ runs: [ReportRun]) -> [ReportRun] {
        let iso = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        func time(_ r: ReportRun) -> Date? {
            guard let text = r.finishedAt ?? r.startedAt else { return nil }
            return iso.date(from: text) ?? fractional.date(from: text)
        }
        return runs.enumerated().sorted { a, b in
            switch (time(a.element), time(b.element)) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// The series of the drawn runs (one per commit, in commit order).
    static func series(_ drawn: [ReportRun]) -> [Series] {
        var order: [String] = []
        var by: [String: Series] = [:]
        // The latest commit's rows lead, so its threshold and the current metrics set the order.
        for (i, run) in drawn.enumerated().reversed() {
            for row in run.rows {
                let key = row.scenario + "\u{1F}" + row.requirement + "\u{1F}" + row.metric
                let point = Point(
                    commit: i, value: row.value, low: row.ci?.low, high: row.ci?.high, status: row.status,
                    samples: row.samples)
                if by[key] == nil {
                    order.append(key)
                    by[key] = Series(
                        caseLabel: row.scenario, requirement: row.requirement, metric: row.metric, unit: row.unit,
                        kind: row.kind, threshold: row.isChecked ? row.threshold : nil, comparator: row.comparator,
                        points: [])
                }
                by[key]!.points.insert(point, at: 0)
            }
        }
        return order.map { by[$0]! }
    }

    /// What is drawn, at most `limit` charts in all: metrics other than latency whose value moves
    /// between commits, then accuracy figures that do not (a flat line says the commits agree on a
    /// headline figure); latency (wall-clock, so machine-dependent) in a group of its own: checked
    /// latency rows only. Flat counts and rates (a fault count at 0 at every commit) are left to the
    /// table, which lists every series.
    public func drawn(limit: Int = 24) -> (accuracy: [Series], latency: [Series]) {
        let measured = series.filter { s in s.points.contains { $0.status != .notMeasured && $0.value.isFinite } }
        let accuracy =
            measured.filter { $0.kind != .latency && $0.varies }
            + measured.filter { $0.kind == .accuracy && !$0.varies }
        let latency = measured.filter { $0.kind == .latency && $0.threshold != nil }
        let a = Array(accuracy.prefix(limit))
        return (a, Array(latency.prefix(max(0, min(8, limit - a.count)))))
    }
}
