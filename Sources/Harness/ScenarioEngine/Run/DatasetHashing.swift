import FieldtestData
import Foundation

/// Hashes the dataset files a scenario read, for `run.json`: each file once per run,
/// with a warning (once) for a file that differs from its `MANIFEST.csv` entry.
public struct DatasetHashing {
    /// What `run.json` records of the datasets one scenario read.
    public struct Used: Sendable, Equatable {
        /// Dataset name (or path inside the datasets folder, for a file the manifest does not list) → SHA-256 of the file read.
        public var hashes: [String: String] = [:]
        /// Dataset name → the SHA-256 the manifest gives, for each file that differs from it.
        public var manifestHashes: [String: String] = [:]
    }

    /// The manifest the files are checked against.
    public let manifest: DatasetManifest
    private var hashOfPath: [String: String] = [:]

    /// Hashing against `manifest`.
    public init(manifest: DatasetManifest) { self.manifest = manifest }

    /// The hashes of the files in `read` (name or path → file, from `DatasetStore.filesRead`)
    /// and of the datasets the scenario lists (`listed`), whether or not its driver read them.
    /// `warn` receives, once per file, a warning for a file whose hash is not the manifest's.
    public mutating func hashes(read: [String: URL], listed: [String], warn: (String) -> Void) throws -> Used {
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
            let actual: String
            if let known = hashOfPath[path] {
                actual = known
            } else {
                actual = try DatasetManifest.sha256(of: url)
                hashOfPath[path] = actual
                if let entry, actual != entry.sha256 {
                    warn(
                        "\(DatasetManifest.display(url)): warning: dataset '\(key)' has sha256 \(actual), not \(entry.sha256) as MANIFEST.csv "
                            + "says; results come from the file as it is ('fieldtest datasets verify' checks every dataset)"
                    )
                }
            }
            used.hashes[key] = actual
            if let entry, actual != entry.sha256 { used.manifestHashes[key] = entry.sha256 }
        }
        return used
    }
}
