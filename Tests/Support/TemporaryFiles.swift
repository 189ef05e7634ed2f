import Foundation

/// The tests' temporary files and folders, all in one folder of this test process that is removed when
/// the process exits, so that `swift test` leaves nothing behind in the system's temporary folder.
///
/// The folder is `fieldtest-tests-PID` in the system's temporary folder (`TMPDIR`). A test process that
/// was killed cannot remove its own: the next one removes every such folder whose process is gone.
public enum TemporaryFiles {
    /// This process's folder, made on first use.
    public static let root: URL = {
        let system = FileManager.default.temporaryDirectory
        removeFoldersOfEndedProcesses(in: system)
        let url = system.appendingPathComponent("\(prefix)\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TemporaryFiles.root) }
        return url
    }()

    /// A new path in ``root``: `name` with a unique part added before its extension (`"cli"` gives
    /// `cli-UUID`, `"junit.xml"` gives `junit-UUID.xml`). Nothing is created there.
    public static func url(_ name: String) -> URL {
        let dot = name.lastIndex(of: ".").map { name.distance(from: name.startIndex, to: $0) } ?? name.count
        let stem = name.prefix(dot)
        let suffix = name.dropFirst(dot)
        return root.appendingPathComponent("\(stem)-\(UUID().uuidString)\(suffix)")
    }

    private static let prefix = "fieldtest-tests-"

    /// Removes the `fieldtest-tests-PID` folders in `system` whose process no longer exists.
    public static func removeFoldersOfEndedProcesses(in system: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: system.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: system.appendingPathComponent(name))
            }
        }
    }
}
