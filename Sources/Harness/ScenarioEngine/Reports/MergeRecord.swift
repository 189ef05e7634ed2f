import Foundation

/// What `run.json` of a run folder written by `merge --out` records of the merge: the shards it
/// was merged from and every case with the shard run that measured it (`merge` in `run.json`;
/// absent in a folder written by `run`).
public struct MergeRecord: Codable, Sendable, Equatable {
    /// One shard merged.
    public struct Shard: Codable, Sendable, Equatable {
        /// The shard's `run_id`, and `I/N` when it ran as a shard.
        public var runID: String, shard: String?
        /// The shard's `run.json` as given to `merge`.
        public var path: String
        /// How many cases were taken from it.
        public var cases: Int
        /// The machine it ran on.
        public var machine: MachineRecord
        /// The tool version and commit that ran it.
        public var toolVersion: String, toolCommit: String?
        /// When it started and finished (ISO 8601), and its wall-clock duration, seconds.
        public var startedAt: String, finishedAt: String?, durationSeconds: Double?
        /// The command line that ran it.
        public var commandLine: [String]?

        enum CodingKeys: String, CodingKey {
            case runID = "run_id", shard, path, cases, machine, toolVersion = "tool_version",
                toolCommit = "tool_commit", startedAt = "started_at", finishedAt = "finished_at",
                durationSeconds = "duration_s", commandLine = "command_line"
        }
    }

    /// One merged case.
    public struct Case: Codable, Sendable, Equatable {
        /// Its index in the sweep (nil when the shard recorded no sweep), label and seed.
        public var index: Int?, label: String, seed: UInt64
        /// The `run_id` of the shard whose rows were kept.
        public var runID: String

        enum CodingKeys: String, CodingKey {
            case index, label, seed, runID = "run_id"
        }
    }

    /// When the merge was written (ISO 8601, UTC).
    public var mergedAt: String
    /// False when `--allow-partial` wrote a merge with cases missing or held twice.
    public var complete: Bool
    /// Labels of the sweep's cases no shard held (empty when complete).
    public var missing: [String]
    /// The shards, in argument order.
    public var shards: [Shard]
    /// Every merged case, in the order of `metrics.csv`.
    public var cases: [Case]

    enum CodingKeys: String, CodingKey {
        case mergedAt = "merged_at", complete, missing, shards, cases
    }
}
