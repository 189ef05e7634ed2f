import Foundation

extension DatasetsLocation {
    /// No datasets folder where one was looked for.
    public struct NotFound: Error, Sendable, Equatable, CustomStringConvertible {
        /// The folder looked in.
        public var folder: URL

        public var description: String {
            "\(folder.appendingPathComponent("MANIFEST.csv").path): error: no datasets folder here; pass --datasets DIR, set "
                + "\(DatasetsLocation.environmentVariable) to the Fieldtest Datasets folder, or run from the Fieldtest checkout"
        }
    }

    /// The manifest of the datasets folder `current(option:)` finds. Throws `NotFound` when no
    /// option was given and the folder found holds no `MANIFEST.csv`, and the manifest's own
    /// errors otherwise.
    public static func manifest(option: String?) throws -> DatasetManifest {
        let root = current(option: option)
        if option == nil, !isDatasetsFolder(root) { throw NotFound(folder: root) }
        return try DatasetManifest(root: root)
    }
}
