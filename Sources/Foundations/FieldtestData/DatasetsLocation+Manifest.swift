import Foundation

extension DatasetsLocation {
    /// No datasets folder where one was looked for.
    public struct NotFound: Error, Sendable, Equatable, CustomStringConvertible {
        /// The folder looked in.
        public var folder: URL
        /// Every place the bundled folder was looked for, one per line (empty when not said).
        public var searched: String = ""

        public var description: String {
            "\(folder.appendingPathComponent("MANIFEST.csv").path): error: no datasets folder here; pass --datasets DIR, set "
                + "\(DatasetsLocation.dataEnvironmentVariable) to the folder holding the bundled Datasets (PREFIX/share/fieldtest "
                + "after make install) or \(DatasetsLocation.environmentVariable) to a folder holding a MANIFEST.csv, or run "
                + "from the Fieldtest checkout" + (searched.isEmpty ? "" : "; looked in:\n" + searched)
        }
    }

    /// The overlay of the datasets folders `currentOverlay(options:)` finds (the bundled folder with
    /// the user's on top; see `DatasetManifest.init(overlaying:)`). Throws `NotFound` when there is
    /// no folder at all, and the manifests' own errors (a user folder without `MANIFEST.csv`, a bad row).
    /// With `existingOnly`, user folders without a `MANIFEST.csv` are left out instead (the names
    /// already taken, for `datasets add` into a folder it will create the manifest of).
    public static func manifest(options: [String], existingOnly: Bool = false) throws -> DatasetManifest {
        var (bundled, user) = currentOverlay(options: options)
        if existingOnly { user = user.filter { isDatasetsFolder($0) } }
        let folders = (bundled.map { [$0] } ?? []) + user
        guard !folders.isEmpty else {
            throw NotFound(
                folder: URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
                    "Datasets"), searched: currentBundledSearch().searchedText)
        }
        return DatasetManifest(overlaying: try folders.map { try DatasetManifest(root: $0) })
    }

    /// `manifest(options:)` with at most one `--datasets` folder.
    public static func manifest(option: String?) throws -> DatasetManifest {
        try manifest(options: option.map { [$0] } ?? [])
    }
}
