import FieldtestData
import Foundation

/// The locks a run holds while it writes, so two runs never write into one folder at once.
///
/// - With `--out DIR`: one lock per scenario, `DIR/.<scenario>.lock`, since each scenario writes only
///   `DIR/<scenario>/`. A second run (or shard) of the same scenario into `DIR` is refused at once
///   (`FileLock.Busy`, naming the other run's pid), before it touches anything; runs of different
///   scenarios into one `DIR` (e.g. `xargs -P`) go on side by side.
/// - In the default `Results/runs/<scenario>/`: one lock per run, `.<run_id>.lock` beside its
///   report folder. Such a run cannot be resumed (`--resume` needs `--out`), so its folder in
///   progress is of no use once the run is gone: SIGINT and SIGTERM remove it (and the empty
///   report folder), and the next run there removes those a SIGKILL left (their lock is free).
struct RunLocks {
    /// The name of a scenario's lock file in an `--out` folder.
    static func outFileName(scenario: String) -> String { ".\(scenario).lock" }

    private var locks: [FileLock] = []
    private var interrupt: InterruptCleanup.Registration?

    init(request: RunRequest, scenarios: [Scenario], runIDs: [String], createdFolders: [String]) throws {
        if let out = request.out {
            for name in Set(scenarios.map(\.name)).sorted() {
                locks.append(
                    try FileLock(
                        URL(fileURLWithPath: out).appendingPathComponent(Self.outFileName(scenario: name)),
                        what: "a run of \(name) writing into --out \(out)", wait: false))
            }
            return
        }
        var staging: [String] = []
        var targets: [String] = []
        var lockFiles: [String] = []
        for (s, runID) in zip(scenarios, runIDs) {
            let parent = URL(fileURLWithPath: request.resultsFolder).appendingPathComponent(s.name)
            locks.append(
                try FileLock(
                    parent.appendingPathComponent(".\(runID).lock"), what: "the run \(runID)", wait: true))
            Self.removeAbandonedRuns(in: parent)
            let target = parent.appendingPathComponent(runID)
            staging.append(RunStaging(target: target).folder.path)
            targets.append(target.path)
            lockFiles.append(parent.appendingPathComponent(".\(runID).lock").path)
        }
        let (folders, reports, lockPaths) = (staging, targets, lockFiles)
        interrupt = InterruptCleanup.install(
            message: InterruptCleanup.defaultMessage,
            cleanup: {
                for path in folders { try? FileManager.default.removeItem(atPath: path) }
                for path in reports { rmdir(path) }  // a published report folder is not empty: it stays
                for path in lockPaths { unlink(path) }
                OutputLocations.removeEmptyFolders(createdFolders)
            })
    }

    /// Releases the locks, removing their files, and the interrupt cleanup.
    func release() {
        interrupt?.cancel()
        // Removing the file is safe: a process that opened it meanwhile finds its lock no longer
        // names the path and takes a new one (`FileLock`).
        for lock in locks { lock.release(removing: true) }
    }

    /// Removes, in `folder` (`Results/runs/<scenario>/`), the folders in progress of runs that are
    /// gone (their `.<run_id>.lock` is free), their empty report folders and their lock files.
    static func removeAbandonedRuns(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".inprogress") {
            let runID = String(name.dropFirst().dropLast(".inprogress".count))
            let lock = folder.appendingPathComponent(".\(runID).lock")
            guard FileLock.isFree(lock) else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            rmdir(folder.appendingPathComponent(runID).path)  // only when empty
            unlink(lock.path)
        }
        // A run killed before its folder in progress existed leaves its lock and an empty report folder.
        for name in names where name.hasPrefix(".") && name.hasSuffix(".lock") {
            let lock = folder.appendingPathComponent(name)
            guard FileLock.isFree(lock) else { continue }
            rmdir(folder.appendingPathComponent(String(name.dropFirst().dropLast(".lock".count))).path)
            unlink(lock.path)
        }
    }
}
