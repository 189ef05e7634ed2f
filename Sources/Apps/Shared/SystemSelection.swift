import Capabilities
import Foundation
import ScenarioEngine

/// Starts the external system a scenario chose for a capability (`systems:`, a sweep's
/// `systems.<capability>` or `--system`), and records what it did when the run ends.
enum SystemSelection {
    /// The external system chosen for `capability`, started, shaken hands with and set up;
    /// nil when the scenario uses the built-in core. Its standard error goes into the report folder
    /// in progress (`systemLogPrefix`), or, when the scenario runs without one, to a temporary file
    /// that ``finish(_:run:)`` removes if the system wrote nothing there.
    static func start(
        _ capability: SystemCapability, run: RunContext, setup: [SetupDataset] = []
    ) throws(SystemError) -> ExternalSystem? {
        guard let setting = run.scenario.systems[capability.name],
            !setting.command.contains(where: { $0.hasPrefix(InProcessSystems.prefix) })
        else { return nil }
        guard !setting.command.isEmpty else {
            throw .usage("\(run.scenario.file): 'systems.\(capability)' needs a non-empty 'command'")
        }
        var spec = ExternalSystemSpec(
            command: setting.command, timeoutSeconds: setting.timeoutSeconds ?? ExternalSystemSpec.defaultTimeout)
        spec.maxLineBytes = setting.maxLineBytes ?? spec.maxLineBytes
        let stderr: String
        if let prefix = run.scenario.systemLogPrefix {
            stderr = "\(prefix).\(capability).stderr"
            try? FileManager.default.createDirectory(
                at: URL(fileURLWithPath: stderr).deletingLastPathComponent(), withIntermediateDirectories: true)
        } else {
            stderr =
                FileManager.default.temporaryDirectory
                .appendingPathComponent("fieldtest-\(capability)-\(UUID().uuidString).stderr").path
        }
        return try ExternalSystem(
            capability: capability, spec: spec, seed: run.scenario.seed, stderrPath: stderr, setup: setup)
    }

    /// The in-process Swift sentiment system the scenario names (`in-process:<name>`), if any.
    static func inProcessSentiment(run: RunContext) throws(SystemError) -> (any SentimentSystem)? {
        guard let setting = run.scenario.systems[SystemCapability.sentiment.name] else { return nil }
        return try InProcessSystems.sentiment(for: setting.command)
    }

    /// Stops `system` and appends its identity and faults to the run (for `run.json` and the
    /// `system_errors` rows). An empty temporary standard-error file is removed (and not recorded);
    /// one with text stays for the user to read.
    static func finish(_ system: ExternalSystem?, run: RunContext) {
        guard let system else { return }
        system.close()
        let stderr = keptStandardError(system.stderrPath, temporary: run.scenario.systemLogPrefix == nil)
        run.systems.append(
            SystemRunRecord(
                identity: system.identity, requests: system.faults.requests, restarts: system.faults.restarts,
                faults: Dictionary(uniqueKeysWithValues: system.faults.counts.map { ($0.key.rawValue, $0.value) }),
                stderr: stderr))
    }

    /// The standard-error file to record: `path`, unless it is `temporary` and empty, when it is
    /// removed and nothing is recorded.
    static func keptStandardError(_ path: String, temporary: Bool) -> String? {
        guard temporary,
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value == 0
        else { return path }
        try? FileManager.default.removeItem(atPath: path)
        return nil
    }
}
