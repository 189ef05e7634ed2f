import FieldtestData

extension DatasetManifest {
    /// What `fieldtest datasets list` prints: a table of every dataset (name, format, core, rows,
    /// licence, file), then one line per entry a folder above replaces.
    public var listing: String {
        let rows = entries.map {
            [$0.name, $0.format.rawValue, $0.core, String($0.rows), $0.license, Self.display(url(of: $0))]
        }
        let table = TextTableRenderer.render(header: ["name", "format", "core", "rows", "license", "file"], rows: rows)
        return table
            + shadowed.map { "(\($0.name) in \(Self.display(url(of: $0))) is replaced by a folder above it)\n" }
            .joined()
    }
}

extension DatasetsLocation {
    /// `fieldtest datasets list`: every dataset of every folder of the overlay (`folders`: the
    /// `--datasets` options). Writes no file.
    public struct ListJob: CommandJob {
        /// The `--datasets` folders.
        public var folders: [String]

        /// A job.
        public init(folders: [String]) { self.folders = folders }

        public var files: CommandFiles { CommandFiles() }

        /// Writes the listing to standard output.
        public func run() throws -> CommandJobOutcome {
            // One write, so that a standard output that cannot take it all is an error.
            try OutputText.write(try DatasetsLocation.manifest(options: folders).listing, to: nil)
            return .success
        }
    }
}
