import FieldtestData
import Foundation

/// Hashes the dataset files a scenario read, for `run.json`: each file once per run,
/// with a warning (once) for a file that differs from its `MANIFEST.csv` entry, and describes each
/// named dataset (path, format, rows, SHA-256, rows a loader skipped).
public struct DatasetHashing {
    /// What `run.json` records of the datasets one scenario read.
    public struct Used: Sendable, Equatable {
        /// Dataset name (or path inside the datasets folder, for a file the manifest does not list) → SHA-256 of the file read.
        public var hashes: [String: String] = [:]
        /// Dataset name → the SHA-256 the manifest gives, for each file that differs from it.
        public var manifestHashes: [String: String] = [:]
        /// Each dataset read or listed by name, by name.
        public var files: [DatasetFileRecord] = []
    }

    /// The manifest the files are checked against.
    public let manifest: DatasetManifest
    private var hashOfPath: [String: String] = [:]
    /// Records counted by the typed loader, by path and SHA-256 (files whose manifest row does not fit them).
    private var rowsOfFile: [String: Int?] = [:]

    /// Hashing against `manifest`.
    public init(manifest: DatasetManifest) { self.manifest = manifest }

    /// The hashes of the files in `read` (name or path → file, from `DatasetStore.filesRead`)
    /// and of the datasets the scenario lists (`listed`), whether or not its driver read them.
    /// `scenarioManifest` is the manifest the scenario ran with (with its files named by path;
    /// default: `manifest`); `loadReport` gives what a loader reported of a file
    /// (`DatasetStore.loadReport(for:)`). `warn` receives, once per file, a warning for a file
    /// whose hash is not the manifest's.
    public mutating func hashes(
        read: [String: URL], listed: [String], scenarioManifest: DatasetManifest? = nil,
        loadReport: (URL) -> LoadReport? = { _ in nil }, warn: (String) -> Void
    ) throws -> Used {
        let manifest = scenarioManifest ?? self.manifest
        var files = read
        for name in listed where files[name] == nil {
            if let entry = manifest.entry(named: name) { files[name] = manifest.url(of: entry) }
        }
        var used = Used()
        for (name, url) in files.sorted(by: { $0.key < $1.key }) {
            let path = url.standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let entry =
                manifest.entry(named: name)
                ?? manifest.entries.first { manifest.url(of: $0).standardizedFileURL.path == path }
            let key = entry?.name ?? name
            // A file named by path has no recorded hash (empty): there is nothing to differ from.
            let recorded = entry.flatMap { $0.sha256.isEmpty ? nil : $0.sha256 }
            let actual: String
            if let known = hashOfPath[path] {
                actual = known
            } else {
                actual = try DatasetManifest.sha256(of: url)
                hashOfPath[path] = actual
                if let recorded, actual != recorded {
                    warn(
                        "\(DatasetManifest.display(url)): warning: dataset '\(key)' has sha256 \(actual), not \(recorded) as MANIFEST.csv "
                            + "says; results come from the file as it is ('fieldtest datasets verify' checks every dataset)"
                    )
                }
            }
            used.hashes[key] = actual
            if let recorded, actual != recorded { used.manifestHashes[key] = recorded }
            if let entry, !used.files.contains(where: { $0.name == key }) {
                let report = loadReport(url)
                used.files.append(
                    DatasetFileRecord(
                        name: key, path: DatasetManifest.display(url), format: entry.format.rawValue,
                        rows: recorded == actual ? entry.rows : rows(of: url, format: entry.format, sha256: actual),
                        sha256: actual, rowsSkipped: report?.rowsSkipped,
                        skippedReasons: report.map {
                            Array($0.issues.prefix(DatasetFileRecord.keptReasons).map(\.description))
                        }
                    ))
            }
        }
        return used
    }

    /// The records the typed loader yields from `url` (nil when it cannot load it strictly), counted once per file content.
    mutating func rows(of url: URL, format: DatasetFormat, sha256: String) -> Int? {
        let key = "\(url.standardizedFileURL.path)#\(sha256)"
        if let known = rowsOfFile[key] { return known }
        let counted = try? DatasetLoaders.countRecords(
            format: format, url: url, displayName: DatasetManifest.display(url))
        rowsOfFile[key] = counted
        return counted
    }
}
