import Foundation

extension SystemCapability {
    /// Wi-Fi fingerprint positioning (UJIIndoorLoc fields in, `longitude,latitude,floor,building` out).
    public static let locate = SystemCapability(name: "locate", operation: "locate")
}

extension CapabilityDefinition {
    /// Wi-Fi positioning: the fingerprint locator (`PositioningSystem`), the `locate` batch jobs
    /// (`FingerprintBatch`, `FingerprintLocateJob`) and its evaluator against the labelled positions
    /// (`LocateEvaluation`).
    public static let locate = CapabilityDefinition(
        capability: .locate,
        evaluation: Evaluation(
            abstract: "Score a Wi-Fi positioning system on labelled fingerprints (2-D error, floor and building hits).",
            inputs: "--input: labelled fingerprints (UJIIndoorLoc layout); --train: the training files.",
            needsTraining: true,
            run: { r, choice in try LocateEvaluation.run(r, choice: choice) }),
        serveBuiltin: { _, name, version, maxLineBytes in
            var core = ServedLocate()
            SystemServer.serve(&core, name: name, version: version, maxLineBytes: maxLineBytes)
        })
}
