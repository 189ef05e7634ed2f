import FieldtestData
import Foundation

/// The machine a run or a baseline was measured on.
///
/// Wall-clock latency depends on the hardware, the build and what else the machine is doing, so a
/// latency baseline only means something on the machine (and build) that recorded it. Baseline
/// folders carry a `machine.json` (written by `fieldtest run --record-baseline`); a check compares
/// latency rows by their movement only when the run's identity equals the baseline's, and
/// otherwise by their thresholds alone (accuracy, count and rate rows are always compared).
///
/// Identity is the host name, the operating system's machine id (`/etc/machine-id`), the CPU model,
/// the number of active cores, the physical memory and the build configuration (debug or release).
/// Virtual machines cloned from one image share all of these, so on a virtual machine (the CPU
/// reports the `hypervisor` flag) the boot (`/proc/sys/kernel/random/boot_id`) is part of the
/// identity too: a latency baseline recorded on a VM compares latency only until that VM reboots.
/// An identity read from a `machine.json` that lacks a field never equals the current one.
public struct MachineIdentity: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Host name.
    public var host: String
    /// `/etc/machine-id` ("unknown" where there is none).
    public var machineID: String
    /// CPU model (`model name` of `/proc/cpuinfo` on Linux; "unknown" elsewhere).
    public var cpu: String
    /// Active processor cores.
    public var cores: Int
    /// Physical memory, bytes (nil in files written before it was recorded).
    public var memoryBytes: UInt64?
    /// `debug` or `release` (nil in files written before it was recorded).
    public var build: String?
    /// The boot of a virtual machine (empty on bare metal; nil in older files).
    public var virtualMachineBoot: String?

    /// File name of the identity inside a baseline folder.
    public static let fileName = "machine.json"

    enum CodingKeys: String, CodingKey {
        case host, machineID = "machine_id", cpu, cores, memoryBytes = "memory_bytes", build
        case virtualMachineBoot = "virtual_machine_boot"
    }

    /// Creates an identity.
    public init(
        host: String, machineID: String = "unknown", cpu: String, cores: Int, memoryBytes: UInt64? = nil,
        build: String? = nil, virtualMachineBoot: String? = nil
    ) {
        self.host = host
        self.machineID = machineID
        self.cpu = cpu
        self.cores = cores
        self.memoryBytes = memoryBytes
        self.build = build
        self.virtualMachineBoot = virtualMachineBoot
    }

    /// Reads `machine.json` files in either key style (`machineID` before snake case).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let legacy = try decoder.container(keyedBy: LegacyKeys.self)
        host = try c.decode(String.self, forKey: .host)
        machineID =
            try c.decodeIfPresent(String.self, forKey: .machineID)
            ?? legacy.decodeIfPresent(String.self, forKey: .machineID) ?? "unknown"
        cpu = try c.decode(String.self, forKey: .cpu)
        cores = try c.decode(Int.self, forKey: .cores)
        memoryBytes = try c.decodeIfPresent(UInt64.self, forKey: .memoryBytes)
        build = try c.decodeIfPresent(String.self, forKey: .build)
        virtualMachineBoot = try c.decodeIfPresent(String.self, forKey: .virtualMachineBoot)
    }

    private enum LegacyKeys: String, CodingKey { case machineID }

    /// The build configuration of this executable.
    public static var currentBuild: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }

    /// The machine this process runs on.
    public static func current() -> MachineIdentity {
        let p = ProcessInfo.processInfo
        let id = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let virtual = cpuinfo.split(separator: "\n").contains {
            $0.hasPrefix("flags") && $0.split(separator: " ").contains("hypervisor")
        }
        let boot =
            virtual
            ? ((try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown") : ""
        return MachineIdentity(
            host: p.hostName, machineID: id.flatMap { $0.isEmpty ? nil : $0 } ?? "unknown",
            cpu: cpuModel(cpuinfo), cores: p.activeProcessorCount, memoryBytes: p.physicalMemory,
            build: currentBuild, virtualMachineBoot: boot)
    }

    /// The CPU model from the text of `/proc/cpuinfo`, or "unknown".
    static func cpuModel(_ text: String) -> String {
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return String(line[line.index(after: colon)...]).trimmedOfWhitespace
            }
        }
        return "unknown"
    }

    /// What differs between this identity and `other`, in words (empty when they are equal).
    public func differences(from other: MachineIdentity) -> [String] {
        var out: [String] = []
        if host != other.host { out.append("host \(other.host) → \(host)") }
        if machineID != other.machineID { out.append("machine id") }
        if cpu != other.cpu { out.append("CPU \(other.cpu) → \(cpu)") }
        if cores != other.cores { out.append("cores \(other.cores) → \(cores)") }
        if memoryBytes != other.memoryBytes { out.append("memory") }
        if build != other.build { out.append("build \(other.build ?? "not recorded") → \(build ?? "not recorded")") }
        if virtualMachineBoot != other.virtualMachineBoot { out.append("virtual machine boot") }
        return out
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
