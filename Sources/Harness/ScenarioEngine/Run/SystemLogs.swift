import Foundation

/// The standard error of each external system, moved into the report folder as
/// `systems/<case>.<capability>.stderr`.
struct SystemLogs {
    /// The records with `stderr` naming the file in the report folder.
    var records: [SystemRunRecord] = []
    /// Source file → file name under `systems/`.
    var moves: [(from: String, to: String)] = []

    /// Names each record's log in the report folder.
    static func place(_ systems: [SystemRunRecord]) -> SystemLogs {
        var logs = SystemLogs()
        for var s in systems {
            if let from = s.stderr {
                let name = "\(fileStem(caseLabel: s.caseLabel)).\(s.capability).stderr"
                logs.moves.append((from, name))
                s.stderr = "systems/" + name
            }
            logs.records.append(s)
        }
        return logs
    }

    /// A case label as a file name: letters, digits and `-_.=,` kept, anything else `_`.
    static func fileStem(caseLabel: String) -> String {
        String(caseLabel.map { $0.isLetter || $0.isNumber || "-_.=,".contains($0) ? $0 : "_" })
    }

    /// Copies the logs into `folder/systems/` and removes the temporary files (a log the system
    /// wrote there directly stays as it is).
    func copy(into folder: URL) throws {
        guard !moves.isEmpty else { return }
        let target = folder.appendingPathComponent("systems")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for (from, name) in moves {
            let destination = target.appendingPathComponent(name)
            if URL(fileURLWithPath: from).standardizedFileURL.path == destination.standardizedFileURL.path { continue }
            try? FileManager.default.removeItem(at: destination)
            if FileManager.default.fileExists(atPath: from) {
                try FileManager.default.copyItem(at: URL(fileURLWithPath: from), to: destination)
                try? FileManager.default.removeItem(atPath: from)
            }
        }
    }
}
