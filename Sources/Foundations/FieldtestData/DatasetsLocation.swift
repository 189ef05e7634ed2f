import Foundation

/// Where a command finds the bundled datasets folder when it is not told.
///
/// In order: the `--datasets` option; `$FIELDTEST_DATASETS`; `Datasets` in the
/// working directory when it holds a `MANIFEST.csv`; the `Datasets` folder of the
/// checkout the executable was built in (searched upwards from the executable's
/// folder, so `.build/release/fieldtest` finds its data from any directory);
/// else `Datasets` in the working directory, so that errors name the path a user
/// would expect.
public enum DatasetsLocation {
    /// The variable that names the datasets folder.
    public static let environmentVariable = "FIELDTEST_DATASETS"
    /// How many folders above the executable's are searched (`.build/<triple>/release` is three deep).
    public static let searchDepth = 6

    /// Whether `folder` looks like a datasets folder (it holds `MANIFEST.csv`).
    public static func isDatasetsFolder(
        _ folder: URL, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> Bool {
        fileExists(folder.appendingPathComponent("MANIFEST.csv").path)
    }

    /// The datasets folder for `option`, `environment`, `currentDirectory` and the
    /// executable at `executable` (symbolic links already resolved), in the order above.
    public static func resolve(
        option: String?, environment: [String: String], currentDirectory: URL, executable: URL?,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> URL {
        if let option { return URL(fileURLWithPath: option, relativeTo: currentDirectory).standardizedFileURL }
        if let path = environment[environmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
        }
        let local = currentDirectory.appendingPathComponent("Datasets")
        if isDatasetsFolder(local, fileExists: fileExists) { return local }
        if let executable {
            var folder = executable.deletingLastPathComponent()
            for _ in 0..<searchDepth {
                let candidate = folder.appendingPathComponent("Datasets")
                if isDatasetsFolder(candidate, fileExists: fileExists) { return candidate }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return local
    }

    /// `resolve` for this process: its environment, working directory and executable.
    public static func current(option: String?) -> URL {
        let executable = Bundle.main.executableURL?.resolvingSymlinksInPath()
        return resolve(
            option: option, environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            executable: executable)
    }
}
