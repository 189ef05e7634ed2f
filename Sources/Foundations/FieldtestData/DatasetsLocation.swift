import Foundation

/// Where commands find datasets folders.
///
/// Commands that read datasets by name read an overlay (`overlay`): the bundled folder, always, with
/// the user's folders on top (`$FIELDTEST_DATASETS`, `:`-separated, then each `--datasets DIR`).
///
/// The bundled folder (`bundledFolder`) is, in order: `$FIELDTEST_DATA/Datasets` (or `$FIELDTEST_DATA`
/// itself when it holds the `MANIFEST.csv`; when the variable is set nothing else is looked at);
/// `Datasets` in the working directory when it holds a `MANIFEST.csv`; `<executable>/../share/fieldtest/Datasets`
/// (what `make install PREFIX=…` writes); the `Datasets` folder of a checkout above the executable
/// (`.build/release/fieldtest`); the `Datasets` folder of the checkout the executable was built in.
///
/// A command that needs one folder (the shipped model, the lexicons) looks, in order, at: the
/// `--datasets` option; the first folder of `$FIELDTEST_DATASETS`; the bundled folder above;
/// else `Datasets` in the working directory, so that errors name the path a user would expect.
public enum DatasetsLocation {
    /// The variable that names the datasets folder.
    public static let environmentVariable = "FIELDTEST_DATASETS"
    /// The variable that names the folder holding the bundled `Datasets` (an installed
    /// `PREFIX/share/fieldtest`, or a checkout).
    public static let dataEnvironmentVariable = "FIELDTEST_DATA"
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
        buildCheckout: URL? = nil, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> URL {
        if let option { return URL(fileURLWithPath: option, relativeTo: currentDirectory).standardizedFileURL }
        if let path = environmentFolders(environment).first {
            return URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
        }
        return bundled(
            currentDirectory: currentDirectory, executable: executable, environment: environment,
            buildCheckout: buildCheckout, fileExists: fileExists)
            ?? currentDirectory.appendingPathComponent("Datasets")
    }

    /// The folders `$FIELDTEST_DATASETS` names, separated by `:` (empty parts ignored).
    public static func environmentFolders(_ environment: [String: String]) -> [String] {
        (environment[environmentVariable] ?? "").split(separator: ":").map(String.init)
    }

    /// The bundled datasets folder (see the type's documentation for the order); nil when there is none.
    public static func bundled(
        currentDirectory: URL, executable: URL?, environment: [String: String] = [:], buildCheckout: URL? = nil,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> URL? {
        bundledSearch(
            currentDirectory: currentDirectory, executable: executable, environment: environment,
            buildCheckout: buildCheckout, fileExists: fileExists
        ).found?.folder
    }

    /// The bundled datasets folder and how it was found, with every place looked at in order
    /// (for `fieldtest datasets where` and for the message when there is none).
    public static func bundledSearch(
        currentDirectory: URL, executable: URL?, environment: [String: String], buildCheckout: URL?,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> BundledSearch {
        let candidates = bundledCandidates(
            currentDirectory: currentDirectory, executable: executable, environment: environment,
            buildCheckout: buildCheckout)
        return BundledSearch(
            found: candidates.first { isDatasetsFolder($0.folder, fileExists: fileExists) }, searched: candidates)
    }

    /// Every folder that may be the bundled one, in the order they are tried.
    static func bundledCandidates(
        currentDirectory: URL, executable: URL?, environment: [String: String], buildCheckout: URL?
    ) -> [BundledCandidate] {
        if let given = environment[dataEnvironmentVariable], !given.isEmpty {
            // Set on purpose: only what it names is looked at, so a wrong value is reported, not bypassed.
            let root = URL(fileURLWithPath: given, relativeTo: currentDirectory).standardizedFileURL
            return [
                .init(folder: root.appendingPathComponent("Datasets"), source: .environment),
                .init(folder: root, source: .environment),
            ]
        }
        var out: [BundledCandidate] = [
            .init(folder: currentDirectory.appendingPathComponent("Datasets"), source: .workingDirectory)
        ]
        if let executable {
            let bin = executable.deletingLastPathComponent()
            out.append(
                .init(
                    folder: installedShare(executable: executable).appendingPathComponent("Datasets"),
                    source: .installed))
            var folder = bin
            for _ in 0..<searchDepth {
                out.append(.init(folder: folder.appendingPathComponent("Datasets"), source: .checkoutOfExecutable))
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        if let buildCheckout {
            out.append(.init(folder: buildCheckout.appendingPathComponent("Datasets"), source: .buildCheckout))
        }
        return out
    }

    /// `PREFIX/share/fieldtest` for an executable installed as `PREFIX/bin/fieldtest`.
    public static func installedShare(executable: URL) -> URL {
        executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share")
            .appendingPathComponent("fieldtest").standardizedFileURL
    }

    /// The checkout this module was compiled in (its sources' root, recorded at build time).
    public static let buildCheckout: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The datasets folders a command reads, bottom first: the bundled folder (when there is one),
    /// then the folders of `$FIELDTEST_DATASETS`, then those of `options` (`--datasets`, repeatable),
    /// each taken relative to `currentDirectory`; a folder named twice counts once, in its first place.
    public static func overlay(
        options: [String], environment: [String: String], currentDirectory: URL, executable: URL?,
        buildCheckout: URL? = nil, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> (bundled: URL?, user: [URL]) {
        let bundled = bundled(
            currentDirectory: currentDirectory, executable: executable, environment: environment,
            buildCheckout: buildCheckout, fileExists: fileExists)
        var seen = Set(bundled.map { [$0.standardizedFileURL.path] } ?? [])
        var user: [URL] = []
        for path in environmentFolders(environment) + options {
            let url = URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
            if seen.insert(url.path).inserted { user.append(url) }
        }
        return (bundled, user)
    }

    /// The folder of the overlay that holds `relativePath` (e.g. `models/sentiment-default.ftsm`), the
    /// top folder first: the last `--datasets`, …, the folders of `$FIELDTEST_DATASETS`, the bundled
    /// folder. When none holds it: the top `--datasets` folder, else the one `resolve` gives, so the
    /// error names where a user would put it.
    public static func folder(
        holding relativePath: String, options: [String], environment: [String: String], currentDirectory: URL,
        executable: URL?, buildCheckout: URL? = nil,
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> URL {
        let (bundled, user) = overlay(
            options: options, environment: environment, currentDirectory: currentDirectory, executable: executable,
            buildCheckout: buildCheckout, fileExists: fileExists)
        let topFirst = user.reversed() + (bundled.map { [$0] } ?? [])
        if let found = topFirst.first(where: { fileExists($0.appendingPathComponent(relativePath).path) }) {
            return found
        }
        return resolve(
            option: options.last, environment: environment, currentDirectory: currentDirectory, executable: executable,
            buildCheckout: buildCheckout, fileExists: fileExists)
    }

    /// `folder(holding:options:…)` for this process.
    public static func currentFolder(holding relativePath: String, options: [String]) -> URL {
        folder(
            holding: relativePath, options: options, environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            executable: Bundle.main.executableURL?.resolvingSymlinksInPath(), buildCheckout: buildCheckout)
    }

    /// `overlay` for this process: its environment, working directory and executable.
    public static func currentOverlay(options: [String]) -> (bundled: URL?, user: [URL]) {
        overlay(
            options: options, environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            executable: Bundle.main.executableURL?.resolvingSymlinksInPath(), buildCheckout: buildCheckout)
    }

    /// `resolve` for this process: its environment, working directory and executable.
    public static func current(option: String?) -> URL {
        let executable = Bundle.main.executableURL?.resolvingSymlinksInPath()
        return resolve(
            option: option, environment: ProcessInfo.processInfo.environment,
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            executable: executable, buildCheckout: buildCheckout)
    }

    /// `bundledSearch` for this process.
    public static func currentBundledSearch() -> BundledSearch {
        bundledSearch(
            currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            executable: Bundle.main.executableURL?.resolvingSymlinksInPath(),
            environment: ProcessInfo.processInfo.environment, buildCheckout: buildCheckout)
    }
}

/// A folder that may hold the bundled datasets, and why it is looked at.
public struct BundledCandidate: Sendable, Equatable {
    /// The folder that would be the bundled `Datasets` (it counts when it holds a `MANIFEST.csv`).
    public var folder: URL
    /// Which rule of the look-up order named it.
    public var source: Source

    /// The rules of the look-up order, in order.
    public enum Source: String, Sendable, Equatable {
        case environment = "$FIELDTEST_DATA"
        case workingDirectory = "the working directory"
        case installed = "<executable>/../share/fieldtest (make install)"
        case checkoutOfExecutable = "a checkout above the executable"
        case buildCheckout = "the checkout the executable was built in"
    }
}

/// The outcome of looking for the bundled datasets folder.
public struct BundledSearch: Sendable, Equatable {
    /// The first candidate holding a `MANIFEST.csv`, if any.
    public var found: BundledCandidate?
    /// Every candidate, in the order looked at.
    public var searched: [BundledCandidate]

    /// One line per place looked at: `  FOLDER  (RULE)`.
    public var searchedText: String {
        var seen = Set<String>()
        return searched.filter { seen.insert($0.folder.path).inserted }
            .map { "  \($0.folder.path)  (\($0.source.rawValue))" }.joined(separator: "\n")
    }
}
