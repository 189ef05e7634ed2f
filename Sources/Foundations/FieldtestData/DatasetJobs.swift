import Foundation

extension DatasetsLocation {
    /// `fieldtest datasets where`: the folder holding the bundled datasets and why, or every place
    /// looked at (a failure). Reads and writes no file.
    public struct WhereJob: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Order: $FIELDTEST_DATA (a folder holding Datasets/, e.g. PREFIX/share/fieldtest; when set, only it), \
            ./Datasets, <executable>/../share/fieldtest/Datasets (make install), a checkout above the executable, \
            the checkout the executable was built in. Exit 1 when none holds a MANIFEST.csv.
            """

        /// A job.
        public init() {}

        public var files: CommandFiles { CommandFiles() }

        /// Writes the folder found to standard output, else the places looked at to standard error.
        public func run() throws -> CommandJobOutcome {
            let search = DatasetsLocation.currentBundledSearch()
            guard let found = search.found else {
                JobNote.print(
                    "error: no bundled datasets folder (none holds a MANIFEST.csv); looked in:\n" + search.searchedText)
                return .failure
            }
            try OutputText.write("\(found.folder.path)  (\(found.source.rawValue))\n", to: nil)
            return .success
        }
    }

    /// `fieldtest datasets verify`: every file's sha256 and row count in every folder of the overlay
    /// (`folders`: the `--datasets` options), or only the datasets `names`. Writes no file.
    public struct VerifyJob: CommandJob {
        /// The `--datasets` folders.
        public var folders: [String]
        /// Only these dataset names (empty: all).
        public var names: [String]

        /// A job.
        public init(folders: [String], names: [String]) { (self.folders, self.names) = (folders, names) }

        public var files: CommandFiles { CommandFiles() }

        /// Prints the report; a mismatch is a failure.
        public func run() throws -> CommandJobOutcome {
            let report = try DatasetsLocation.manifest(options: folders).verificationReport(names: names)
            print(report.text, terminator: "")
            return .init(failed: report.failures > 0)
        }
    }
}

extension DatasetRegistration {
    /// `fieldtest datasets add`: `add(file:name:format:into:folders:license:)` as a command.
    public struct Job: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            The row goes into DIR/MANIFEST.csv (created if needed); a file outside DIR is copied into it \
            (a symbolic link's data, not the link), with the files its format is read with (a TweetEval \
            *_text file's *_labels file). Concurrent adds into DIR take turns (DIR/.MANIFEST.csv.lock).
            Without --into, DIR is the last --datasets folder, else the file's own folder.
            Then pass --datasets DIR (or set FIELDTEST_DATASETS) and name the dataset in scenarios.
            """

        /// The file to add (only read).
        public var file: String
        /// The dataset name.
        public var name: String
        /// The format, nil: from the extension or header.
        public var format: DatasetFormat?
        /// The datasets folder whose manifest gets the row.
        public var into: String?
        /// The `--datasets` folders.
        public var folders: [String]
        /// The licence of the data.
        public var license: String?

        /// A job.
        public init(
            file: String, name: String, format: DatasetFormat?, into: String?, folders: [String], license: String?
        ) {
            (self.file, self.name, self.format, self.into, self.folders, self.license) = (
                file, name, format, into, folders, license
            )
        }

        /// The manifest it rewrites and the copy it makes are its outputs; the file added (with its
        /// companion files) is the input (`add` also refuses the manifest as the file).
        public var files: CommandFiles {
            var f = CommandFiles()
            f.input(file)
            f.inputs(DatasetRegistration.companions(of: URL(fileURLWithPath: file), format: format).map(\.path))
            return f
        }

        /// Adds the file and prints what was added.
        public func run() throws -> CommandJobOutcome {
            let added = try DatasetRegistration.add(
                file: file, name: name, format: format, into: into, folders: folders, license: license)
            print(added.summary, terminator: "")
            return .success
        }
    }
}
