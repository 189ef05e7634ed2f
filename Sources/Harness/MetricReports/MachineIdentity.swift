import FieldtestData
import Foundation

/// The machine a run or a baseline was measured on.
///
/// Wall-clock latency depends on the hardware and on what else the machine is doing, so a
/// latency baseline only means something on the machine that recorded it. Baseline folders
/// carry a `machine.json` (written by `fieldtest run --record-baseline`); a check compares
/// latency rows by their movement only when the run's machine is the baseline's, and
/// otherwise by their thresholds alone (accuracy, count and rate rows are always compared).
/// Identity is the host name, the operating system's machine id (`/etc/machine-id`; machines
/// cloned from one image may share it), the CPU model and the number of active cores.
public struct MachineIdentity: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Host name.
    public var host: String
    /// `/etc/machine-id` ("unknown" where there is none).
    public var machineID: String
    /// CPU model (`model name` of `/proc/cpuinfo` on Linux; "unknown" elsewhere).
    public var cpu: String
    /// Active processor cores.
    public var cores: Int

    /// File name of the identity inside a baseline folder.
    public static let fileName = "machine.json"

    /// Creates an identity.
    public init(host: String, machineID: String = "unknown", cpu: String, cores: Int) {
        self.host = host
        self.machineID = machineID
        self.cpu = cpu
        self.cores = cores
    }

    /// The machine this process runs on.
    public static func current() -> MachineIdentity {
        let p = ProcessInfo.processInfo
        let id = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines)
        return MachineIdentity(
            host: p.hostName, machineID: id.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown",
            cpu: cpuModel(), cores: p.activeProcessorCount)
    }

    /// The CPU model from `/proc/cpuinfo`, or "unknown".
    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return String(line[line.index(after: colon)...]).trimmedOfWhitespace
            }
        }
        return "unknown"
    }

    public var description: String { "\(host) (\(cpu), \(cores) cores)" }

    /// Writes the identity as `machine.json` into `folder` (atomically).
    public func write(into folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: folder.appendingPathComponent(Self.fileName))
    }

    /// The identity recorded in `folder`, or nil when there is none or it cannot be read.
    public static func recorded(in folder: URL) -> MachineIdentity? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(MachineIdentity.self, from: data)
    }
}

/// When latency rows are compared by their movement against a baseline.
public enum LatencyComparison: String, Sendable, CaseIterable {
    /// Only when the baseline was recorded on this machine (default).
    case sameMachine = "same-machine"
    /// Always (e.g. a dedicated benchmark machine whose host name changes).
    case always
    /// Never: latency rows are checked against their thresholds only.
    case never

    /// Whether to compare latency movement given the baseline's recorded machine.
    public func compares(baseline: MachineIdentity?, current: MachineIdentity) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .sameMachine: return baseline == current
        }
    }
}
