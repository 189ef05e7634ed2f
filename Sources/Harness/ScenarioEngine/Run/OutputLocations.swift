import Foundation

/// Checks, before a run, that its outputs can be written, and tidies the folders the check made.
public enum OutputLocations {
    /// An output location: the option that named it, the path shown, and the folder a file goes into.
    public struct Location: Sendable {
        /// The option (or a description of the folder) named in a message.
        public var option: String
        /// The path as the user gave it.
        public var path: String
        /// The folder that must accept a new file.
        public var folder: URL

        /// A location; see the properties.
        public init(option: String, path: String, folder: URL) {
            self.option = option
            self.path = path
            self.folder = folder
        }
    }

    /// Creates each location's folder when missing and checks that it accepts a new file. Returns
    /// the folders created, parents first; on the first location that fails, removes what it made
    /// and throws `RunError.unwritableOutput`.
    public static func prepare(_ locations: [Location]) throws(RunError) -> [String] {
        var created: [String] = []
        for l in locations {
            if let problem = writeProblem(in: l.folder, created: &created) {
                removeEmptyFolders(created)
                throw .unwritableOutput(path: l.path, option: l.option, problem: problem)
            }
        }
        return created
    }

    /// Removes those of `folders` (parents first) that are empty, children first.
    public static func removeEmptyFolders(_ folders: [String]) {
        for path in folders.reversed() { rmdir(path) }  // fails, harmlessly, on a folder that holds anything
    }

    /// Why a new file cannot be written in `folder` (created when missing; the folders made are
    /// appended to `created`), or nil when it can: a uniquely named probe file is created there
    /// and removed at once.
    public static func writeProblem(in folder: URL, created: inout [String]) -> String? {
        var path = ""
        for component in folder.standardizedFileURL.pathComponents {
            path = component == "/" ? "/" : (path.hasSuffix("/") ? path : path + "/") + component
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                if !isDir.boolValue { return "\(path) is a file, not a folder" }
                continue
            }
            if mkdir(path, 0o755) == 0 {
                created.append(path)
            } else if errno != EEXIST {
                return "cannot create the folder \(path) (\(String(cString: strerror(errno))))"
            }
        }
        let probe = folder.appendingPathComponent(".fieldtest-write-check-\(UUID().uuidString)")
        let fd = open(probe.path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else { return "cannot write in the folder \(folder.path) (\(String(cString: strerror(errno))))" }
        close(fd)
        unlink(probe.path)
        return nil
    }
}
