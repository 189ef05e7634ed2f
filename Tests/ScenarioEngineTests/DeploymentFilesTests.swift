import FieldtestData
import Foundation
import Testing
import Yams

@testable import ScenarioEngine

/// The scale-out files in `deploy/`: the Kubernetes Indexed Job manifest (its image cannot be
/// built on the test machines, so the manifest is linted here) and the Slurm array job (run for
/// real by `make test-slurm`); both must shard a bundled sweep consistently, and the README
/// must show them as they are.
@Suite("Deployment files: Kubernetes Indexed Job, Slurm array job")
struct DeploymentFilesTests {
    static let repo = ScenarioValidationTests.repo
    static let manifestFile = repo.appendingPathComponent("deploy/k8s/sweep-job.yaml")
    static let sbatchFile = repo.appendingPathComponent("deploy/slurm/sweep.sbatch")

    /// What the linter found in an Indexed Job manifest: the shard count and the scenario it runs.
    struct IndexedJob {
        var shards: Int
        var scenario: String
    }

    /// Checks what an Indexed Job running `fieldtest run --shard` needs; returns the problems
    /// (empty when none) and, when the command could be read, the shard count and scenario.
    static func lint(_ text: String) -> (problems: [String], job: IndexedJob?) {
        var problems: [String] = []
        let documents: [[String: Any]]
        do {
            documents = try Yams.load_all(yaml: text).map { ($0 as? [String: Any]) ?? [:] }
        } catch {
            return (["not YAML: \(error)"], nil)
        }
        let jobs = documents.filter { $0["kind"] as? String == "Job" }
        guard jobs.count == 1, let job = jobs.first else {
            return (["expected one document of kind Job, found \(jobs.count)"], nil)
        }
        if job["apiVersion"] as? String != "batch/v1" {
            problems.append("apiVersion is \(job["apiVersion"] ?? "missing"), not batch/v1")
        }
        let spec = job["spec"] as? [String: Any] ?? [:]
        if spec["completionMode"] as? String != "Indexed" { problems.append("completionMode is not Indexed") }
        let completions = spec["completions"] as? Int
        if completions == nil { problems.append("completions is missing") }
        if spec["parallelism"] as? Int != completions { problems.append("parallelism differs from completions") }
        let pod = (spec["template"] as? [String: Any])?["spec"] as? [String: Any] ?? [:]
        if pod["restartPolicy"] as? String != "Never" { problems.append("restartPolicy is not Never") }
        let containers = pod["containers"] as? [[String: Any]] ?? []
        guard containers.count == 1, let container = containers.first else {
            return (problems + ["expected one container, found \(containers.count)"], nil)
        }
        let command = ((container["command"] as? [Any]) ?? []).map { "\($0)" }.joined(separator: " ")
        // The shard index must come from the Job controller, and N must be the completion count.
        let shard = command.firstMatch(of: /fieldtest run (\S+) .*--shard \$\{JOB_COMPLETION_INDEX\}\/(\d+)/)
        let out = command.firstMatch(of: /--out (\S+)\$\{JOB_COMPLETION_INDEX\}/)
        if shard == nil {
            problems.append("the command does not run 'fieldtest run FILE ... --shard ${JOB_COMPLETION_INDEX}/N'")
        }
        if let shard, let completions, Int(shard.2) != completions {
            problems.append("--shard .../\(shard.2) but completions is \(completions)")
        }
        // The per-shard output must land on a volume that outlives the pod.
        let mounts = container["volumeMounts"] as? [[String: Any]] ?? []
        let volumes = pod["volumes"] as? [[String: Any]] ?? []
        let claims = Set(
            documents.filter { $0["kind"] as? String == "PersistentVolumeClaim" }
                .compactMap { ($0["metadata"] as? [String: Any])?["name"] as? String })
        let resultMount = mounts.first { m in
            guard let path = m["mountPath"] as? String, let out, String(out.1).hasPrefix(path) else { return false }
            return true
        }
        if out == nil {
            problems.append("the command has no '--out DIR/…${JOB_COMPLETION_INDEX}' for the shard's reports")
        } else if resultMount == nil {
            problems.append("the --out folder is not under a volume mount")
        } else {
            let volume = volumes.first { $0["name"] as? String == resultMount?["name"] as? String }
            let claim = (volume?["persistentVolumeClaim"] as? [String: Any])?["claimName"] as? String
            if claim == nil {
                problems.append("the results mount is not a persistentVolumeClaim volume")
            } else if let claim, !claims.contains(claim) {
                problems.append("the claim '\(claim)' is not defined in the file")
            }
        }
        let parsed = shard.flatMap { s in Int(s.2).map { IndexedJob(shards: $0, scenario: String(s.1)) } }
        return (problems, parsed)
    }

    @Test func theIndexedJobManifestHasWhatTheJobNeeds() throws {
        let (problems, job) = Self.lint(try String(contentsOf: Self.manifestFile, encoding: .utf8))
        #expect(problems.isEmpty, "\(problems)")
        let found = try #require(job)
        try Self.expectShardableSweep(found.scenario, shards: found.shards)
    }

    /// Each mutation breaks one requirement, and the linter names it.
    @Test(arguments: [
        ("completionMode: Indexed", "completionMode: NonIndexed", "completionMode is not Indexed"),
        ("apiVersion: batch/v1", "apiVersion: batch/v2", "apiVersion is batch/v2, not batch/v1"),
        ("parallelism: 8", "parallelism: 4", "parallelism differs from completions"),
        ("completions: 8", "completions: 9", "--shard .../8 but completions is 9"),
        ("restartPolicy: Never", "restartPolicy: OnFailure", "restartPolicy is not Never"),
        (
            "${JOB_COMPLETION_INDEX}/8", "0/8",
            "the command does not run 'fieldtest run FILE ... --shard ${JOB_COMPLETION_INDEX}/N'"
        ),
        ("mountPath: /results", "mountPath: /data", "the --out folder is not under a volume mount"),
        ("claimName: fieldtest-results", "claimName: other", "the claim 'other' is not defined in the file"),
    ])
    func theLinterCatchesABrokenManifest(original: String, replacement: String, problem: String) throws {
        let text = try String(contentsOf: Self.manifestFile, encoding: .utf8)
        #expect(text.contains(original))
        #expect(Self.lint(text.replacingOccurrences(of: original, with: replacement)).problems.contains(problem))
    }

    /// The array job takes its shard count from the array (one place), resumes a requeued task, and
    /// succeeds when the run completed (exit 1 is a requirement failure: a result); the merge job
    /// merges that scenario's shards into a run folder and is queued after the array however it ended.
    @Test func theSlurmArrayJobShardsTheSweepItRuns() throws {
        let text = try String(contentsOf: Self.sbatchFile, encoding: .utf8)
        let array = try #require(text.firstMatch(of: /#SBATCH --array=0-(\d+)\n/))
        let run = try #require(
            text.firstMatch(
                of: /fieldtest run (\S+) \\\n\s+--shard "\$\{SLURM_ARRAY_TASK_ID\}\/\$\{SLURM_ARRAY_TASK_COUNT\}"/))
        #expect(text.contains("--resume"))
        #expect(
            text.contains("#SBATCH --requeue") && text.contains("#SBATCH --mem=") && text.contains("#SBATCH --output="))
        #expect(text.contains("[ \"$status\" -le 1 ] && exit 0"))
        try Self.expectShardableSweep(String(run.1), shards: Int(array.1)! + 1)
        let merge = try String(
            contentsOf: Self.repo.appendingPathComponent("deploy/slurm/merge.sbatch"), encoding: .utf8)
        let scenario = try ScenarioLoader(manifest: try DatasetManifest(root: RunnerTests.manifestRoot))
            .load(Self.repo.appendingPathComponent(String(run.1)), displayName: String(run.1))
        #expect(merge.contains("fieldtest merge results/shard-*/\(scenario.name) --out results/merged"))
        let submit = try String(contentsOf: Self.repo.appendingPathComponent("deploy/slurm/submit.sh"), encoding: .utf8)
        #expect(submit.contains("--dependency=\"afterany:$array\""))
    }

    /// The README's scale-out section shows the array job as it is, and the deployment guide shows
    /// both files as they are.
    @Test(arguments: [
        ("README.md", [DeploymentFilesTests.sbatchFile]), ("deploy/README.md", [DeploymentFilesTests.manifestFile]),
    ])
    func theGuidesShowTheDeploymentFilesUnchanged(guide: String, files: [URL]) throws {
        let readme = try String(contentsOf: Self.repo.appendingPathComponent(guide), encoding: .utf8)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(readme.contains("\n" + text + "```\n"), "\(guide) does not show \(file.lastPathComponent) as it is")
        }
    }

    /// `file` (relative to the checkout) is a valid bundled sweep with at least `shards` cases,
    /// so no shard of the job is empty.
    static func expectShardableSweep(_ file: String, shards: Int) throws {
        let manifest = try DatasetManifest(root: RunnerTests.manifestRoot)
        let scenario = try ScenarioLoader(manifest: manifest).load(repo.appendingPathComponent(file), displayName: file)
        #expect(scenario.sweep != nil, "\(file) has no sweep")
        #expect(ScenarioRunner.caseCount(of: scenario) >= shards, "\(file) has fewer cases than the \(shards) shards")
    }
}
