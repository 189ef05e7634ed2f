import Foundation

/// Where commands find datasets folders.
///
/// Commands that read datasets by name read an overlay (`overlay`): the bundled folder, always, with
/// the user's folders on top (`$FIELDTEST_DATASETS`, `:`-separated, then each `--datasets DIR`).
///
/// A command that needs one folder (the shipped model, the lexicons) looks, in order, at: the
/// `--datasets` option; the first folder of `$FIELDTEST_DATASETS`; `Datasets` in the
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
        if let path = environmentFolders(environment).first {
            return URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
        }
        return bundled(currentDirectory: currentDirectory, executable: executable, fileExists: fileExists)
            ?? currentDirectory.appendingPathComponent("Datasets")
    }

    /// The folders `$FIELDTEST_DATASETS` names, separated by `:` (empty parts ignored).
    public static func environmentFolders(_ environment: [String: String]) -> [String] {
        (environment[environmentVariable] ?? "").split(separator: ":").map(String.init)
    }

    /// The bundled datasets folder: `Datasets` in the working directory when it holds a
    /// `MANIFEST.csv`, else the `Datasets` folder of the checkout the executable was built in; nil
    /// when there is neither.
    public static func bundled(
        currentDirectory: URL, executable: URL?,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> URL? {
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
        return nil
    }

    /// The datasets folders a command reads, bottom first: the bundled folder (when there is one),
    /// then the folders of `$FIELDTEST_DATASETS`, then those of `options` (`--datasets`, repeatable),
    /// each taken relative to `currentDirectory`; a folder named twice counts once, in its first place.
    public static func overlay(
        options: [String], environment: [String: String], currentDirectory: URL, executable: URL?,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> (bundled: URL?, user: [URL]) {
        let bundled = bundled(currentDirectory: currentDirectory, executable: executable, fileExists: fileExists)
        var seen = Set(bundled.map { [$0.standardizedFileURL.path] } ?? [])
        var user: [URL] = []
        for path in environmentFolders(environment) + options {
            let url = URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
            if seen.insert(url.path).inserted { user.append(url) }
        }
        return (bundled, user)
    }

    /// `overlay` for this process: its environment, working directory and executable.
    public static func currentOverlay(options: [String]) -> (bundled: URL?, user: [URL]) {
        overlay(
            options: options, environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            executable: Bundle.main.executableURL?.resolvingSymlinksInPath())
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
