import Foundation
import MetricReports

/// What one external system under test did in one case: who it was (for `run.json`) and the
/// faults it committed (for the failing `system_errors` rows).
public struct SystemRunRecord: Codable, Sendable, Equatable {
    /// The case it served (set by the runner).
    public var caseLabel: String
    /// `sun`, `route`, `locate` or `sentiment`.
    public var capability: String
    /// Program and arguments.
    public var command: [String]
    /// The name it gave in the handshake.
    public var name: String
    /// The version it gave in the handshake.
    public var version: String
    /// SHA-256 (hex) of its script or executable.
    public var sha256: String?
    /// The file `sha256` is of.
    public var hashedFile: String?
    /// Requests sent (a batch counts once).
    public var requests: Int
    /// Restarts after crashes, timeouts and desynchronised answers.
    public var restarts: Int
    /// Faults by kind (`crash`, `timeout`, `out_of_order`, `malformed`, `wrong_type`, `refused`,
    /// `unavailable`); each is the number of queries it cost.
    public var faults: [String: Int]
    /// Where its standard error was written while it ran; in `run.json`, the file in the report folder.
    public var stderr: String?

    enum CodingKeys: String, CodingKey {
        case caseLabel = "case", capability, command, name, version, sha256, hashedFile = "hashed_file", requests,
            restarts, faults, stderr
    }

    /// A record.
    public init(
        capability: String, command: [String], name: String, version: String, sha256: String?, hashedFile: String?,
        requests: Int, restarts: Int, faults: [String: Int], stderr: String?, caseLabel: String = ""
    ) {
        self.caseLabel = caseLabel
        self.capability = capability
        self.command = command
        self.name = name
        self.version = version
        self.sha256 = sha256
        self.hashedFile = hashedFile
        self.requests = requests
        self.restarts = restarts
        self.faults = faults
        self.stderr = stderr
    }

    /// The rows: `system_errors` (all faults; threshold 0) and one failing `system_errors_<kind>`
    /// row per kind seen, under the requirement `system:<capability>`.
    public func rows(template: MetricRow.Template) -> [MetricRow] {
        func row(_ metric: String, _ value: Int) -> MetricRow {
            MetricRow(
                scenario: template.scenario, runID: template.runID, seed: template.seed,
                requirement: "system:" + capability, metric: metric, kind: .count, value: Double(value),
                unit: "count", threshold: 0, comparator: .lessOrEqual, samples: requests)
        }
        let total = faults.values.reduce(0, +)
        return [row("system_errors", total)]
            + faults.keys.sorted().filter { faults[$0, default: 0] > 0 }.map { row("system_errors_" + $0, faults[$0]!) }
    }
}
