import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation
import ScenarioEngine

/// Builds the emulated phones a scenario declares and schedules their reboots.
public enum EmulatedDevices {
    /// Errors turning a device declaration into an emulated phone.
    public struct BuildError: Error, CustomStringConvertible {
        public var description: String
    }

    /// One `Device` per scenario device, each drawing from the run's
    /// `device-<name>` stream, with an offline cache in `cacheFolder`.
    public static func make(for run: RunContext, cacheFolder: URL) throws -> [String: Device] {
        var out: [String: Device] = [:]
        try PrivateFiles.makeFolder(cacheFolder)
        for spec in run.scenario.devices {
            do throws(DeviceEmulationError) {
                let preset = try NetworkLinkPreset.named(spec.network)
                let permissions = DevicePermissions(
                    location: spec.permissions["location"] == "denied" ? .refused : .granted,
                    cellularData: spec.permissions["cellular"] == "denied" ? .refused : .granted)
                let profile = DeviceProfile(
                    name: spec.name, gpsEnvironment: try GPSEnvironment.named(spec.gps), cellularPreset: preset,
                    wifiPreset: preset, permissions: permissions,
                    placement: spec.placement == "pocket" ? .pocket : .hand)
                var intervals: [ConnectivityInterval] = []
                for (i, change) in spec.connectivity.enumerated() {
                    let start = run.scenario.start + change.at
                    let end =
                        i + 1 < spec.connectivity.count
                        ? run.scenario.start + spec.connectivity[i + 1].at : run.scenario.end + 1
                    intervals.append(ConnectivityInterval(startTime: start, endTime: end, state: state(change.state)))
                }
                let cachePath = cacheFolder.appendingPathComponent("\(spec.name)-cache.sqlite").path
                try? FileManager.default.removeItem(atPath: cachePath)
                let device = try Device(
                    profile: profile, stream: run.stream("device-\(spec.name)"),
                    connectivity: ConnectivitySchedule(intervals: intervals), cachePath: cachePath)
                out[spec.name] = device
            } catch {
                throw BuildError(description: "\(run.scenario.file): error: device '\(spec.name)': \(error)")
            }
        }
        return out
    }

    static func state(_ name: String) -> ConnectivityState {
        switch name {
        case "offline": return .offline
        case "wifi-only": return .wifiOnly
        case "cellular-only": return .cellularOnly
        default: return .online
        }
    }

    /// A fresh per-run folder for device databases, removed by the caller; its name carries the
    /// process id, so that folders left by killed runs are found and removed by the next run.
    public static func temporaryFolder() -> URL {
        _ = sweptStaleFolders
        return FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(folderPrefix)\(getpid())-\(UUID().uuidString)")
    }

    /// The name prefix of the per-run folders: distinct from other `fieldtest-…` names, so that the
    /// sweep never takes another folder's leading digits for a process id.
    static let folderPrefix = "fieldtest-run-"

    /// Once per process: the folders of runs whose process is gone.
    static let sweptStaleFolders: Void = {
        PrivateFiles.removeStaleFolders(in: FileManager.default.temporaryDirectory, prefix: folderPrefix)
    }()
}
