import Foundation
import MetricReports

/// What one external system under test did in one case: who it was (for `run.json`) and the
/// faults it committed (for the failing `system_errors` rows). In `run.json` its identity's fields
/// sit beside the others, in one object.
public struct SystemRunRecord: Codable, Sendable, Equatable {
    /// The case it served (set by the runner).
    public var caseLabel: String
    /// How it was started and what it said it is.
    public var identity: SystemIdentity
    /// Requests sent (a batch counts once).
    public var requests: Int
    /// Restarts after crashes, timeouts and desynchronised answers.
    public var restarts: Int
    /// Faults by kind (`crash`, `timeout`, `out_of_order`, `malformed`, `wrong_type`, `refused`,
    /// `unavailable`); each is the number of queries it cost.
    public var faults: [String: Int]
    /// Where its standard error was written while it ran; in `run.json`, the file in the report folder.
    public var stderr: String?

    /// `sun`, `route`, `locate` or `sentiment`.
    public var capability: String { identity.capability }

    enum CodingKeys: String, CodingKey {
        case caseLabel = "case", requests, restarts, faults, stderr
    }

    /// A record.
    public init(
        identity: SystemIdentity, requests: Int, restarts: Int, faults: [String: Int], stderr: String?,
        caseLabel: String = ""
    ) {
        self.caseLabel = caseLabel
        self.identity = identity
        self.requests = requests
        self.restarts = restarts
        self.faults = faults
        self.stderr = stderr
    }

    public init(from decoder: any Decoder) throws {
        identity = try SystemIdentity(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        caseLabel = try c.decode(String.self, forKey: .caseLabel)
        requests = try c.decode(Int.self, forKey: .requests)
        restarts = try c.decode(Int.self, forKey: .restarts)
        faults = try c.decode([String: Int].self, forKey: .faults)
        stderr = try c.decodeIfPresent(String.self, forKey: .stderr)
    }

    public func encode(to encoder: any Encoder) throws {
        try identity.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(caseLabel, forKey: .caseLabel)
        try c.encode(requests, forKey: .requests)
        try c.encode(restarts, forKey: .restarts)
        try c.encode(faults, forKey: .faults)
        try c.encodeIfPresent(stderr, forKey: .stderr)
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

/// What `run.json` records of a system: how it was started and what it said it is.
public struct SystemIdentity: Sendable, Equatable, Codable {
    /// The capability it served.
    public var capability: String
    /// `["builtin"]` for a built-in core, else the command and its arguments.
    public var command: [String]
    /// The name it gave in the handshake (the core's name for a built-in one).
    public var name: String
    /// The version it gave in the handshake.
    public var version: String
    /// Lower-case hex SHA-256 of its script (the first argument naming an existing file) or,
    /// without one, of its executable; nil for a built-in core.
    public var sha256: String?
    /// The file `sha256` is of.
    public var hashedFile: String?

    enum CodingKeys: String, CodingKey {
        case capability, command, name, version, sha256, hashedFile = "hashed_file"
    }

    /// An identity.
    public init(
        capability: String, command: [String], name: String, version: String, sha256: String? = nil,
        hashedFile: String? = nil
    ) {
        self.capability = capability
        self.command = command
        self.name = name
        self.version = version
        self.sha256 = sha256
        self.hashedFile = hashedFile
    }
}
