import Foundation

/// `fieldtest datasets add`: makes a user's file a dataset by name, with a `MANIFEST.csv` row whose
/// row count and SHA-256 are measured, not typed in.
///
/// The row goes into `folder`'s manifest (created with its header when missing). A file inside the
/// folder is listed where it is; a file elsewhere is copied into the folder first (the input is only
/// ever read). Names already used by any folder of the overlay are refused.
public enum DatasetRegistration {
    /// Why a file could not be added; each message says what to do.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The message, `<file>: error: …`.
        public var description: String
    }

    /// What was added.
    public struct Added: Sendable, Equatable {
        /// The manifest row written (its `folder` is the datasets folder).
        public var entry: DatasetEntry
        /// The manifest written.
        public var manifest: URL
        /// Where the file was copied to, when it was outside the folder.
        public var copiedTo: URL?
        /// What showed the format when it was not given.
        public var formatEvidence: String?
        /// Companion files copied with it (a TweetEval text file's labels).
        public var companions: [URL] = []
        /// The file the added symbolic link points to, whose data was used.
        public var linkTarget: URL?

        /// What `datasets add` prints: the row measured, a copy made, and how to use the folder.
        public var summary: String {
            let evidence = formatEvidence.map { " (from \($0))" } ?? ""
            let folder = DatasetManifest.display(manifest.deletingLastPathComponent())
            return
                "added \(entry.name): \(entry.format.rawValue)\(evidence), \(entry.rows) rows, sha256 \(entry.sha256)\n"
                + (linkTarget.map { "a symbolic link: the data of \(DatasetManifest.display($0)) was used\n" } ?? "")
                + (copiedTo.map { "copied to \(DatasetManifest.display($0))\n" } ?? "")
                + companions.map { "copied \(DatasetManifest.display($0)) with it\n" }.joined()
                + "manifest \(DatasetManifest.display(manifest)); use it with --datasets \(folder)\n"
        }
    }

    /// The core column of a manifest row, from the format.
    public static func core(of format: DatasetFormat) -> String {
        switch format {
        case .osmXML, .osmPBF: return "routing"
        case .geolifeCSV: return "routing,positioning"
        case .ujiIndoorLoc, .geolifePLT: return "positioning"
        case .tweetLines, .airlineTweets, .tweetsCSV, .sentiment140CSV, .semEvalTweets, .tweetevalText,
            .tweetevalLabels, .tweetevalMapping, .vaderGroundTruth, .vaderRatings, .vaderLexicon, .emojiLexicon, .afinn:
            return "classification"
        default: return "scoring"
        }
    }

    /// Whether `name` can be a dataset name: ASCII letters, digits, `.`, `_` and `-`, not empty,
    /// not `.` or `..`, at most 100 characters (it is written in scenarios, manifests and report keys).
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "."
                    || $0 == "_" || $0 == "-"
            }
    }

    /// `fieldtest datasets add` as one call: `file` added to the folder `into`, else to the last of
    /// the user's `folders`, else to the file's own folder, checked against the datasets `folders`
    /// already hold (`DatasetsLocation.manifest(options:existingOnly:)`).
    public static func add(
        file: String, name: String, format: DatasetFormat?, into: String?, folders: [String], license: String?
    ) throws -> Added {
        let input = URL(fileURLWithPath: file)
        let folder = URL(fileURLWithPath: into ?? folders.last ?? input.deletingLastPathComponent().path)
        return try add(
            file: input, name: name, format: format, into: folder,
            existing: try DatasetsLocation.manifest(options: folders, existingOnly: true), license: license)
    }

    /// The files a dataset of `format` (nil: not known yet) at `url` is read with, beside it: a
    /// TweetEval `*_text*.txt` file's `*_labels*` file. `add` copies them with the file, or refuses.
    public static func companions(of url: URL, format: DatasetFormat?) -> [URL] {
        switch format {
        case .tweetevalText?, nil:
            guard format != nil || url.pathExtension == "txt", let labels = TweetEvalLoader.labelsURL(forText: url)
            else { return [] }
            return [labels]
        default: return []
        }
    }

    /// The name of the lock file that serialises the manifest's read-modify-write.
    public static let lockFileName = ".MANIFEST.csv.lock"

    /// Adds `file` as dataset `name` to the manifest of `folder`.
    /// - Parameters:
    ///   - format: the format, or nil to detect it (`DatasetFormatDetection`).
    ///   - existing: the overlay the name must be new to (its folders' entries); nil checks only `folder`'s.
    ///   - license: the licence column (default "unknown").
    ///   - origin: the origin column (default: where the file was added from).
    public static func add(
        file: URL, name: String, format: DatasetFormat?, into folder: URL, existing: DatasetManifest?,
        license: String? = nil, origin: String? = nil
    ) throws -> Added {
        let input = file.standardizedFileURL
        let shown = DatasetManifest.display(input)
        guard isValidName(name) else {
            throw Failure(
                description:
                    "--name \(name): error: a dataset name uses letters, digits, '.', '_' and '-' only (at most 100 characters); choose another"
            )
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else {
            throw Failure(description: "\(shown): error: no such file; give the path of the file to add")
        }
        try SpecialFile.requireRegular(input, displayName: shown, role: "a dataset")
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Failure(
                description:
                    "--into \(DatasetManifest.display(folder)): error: this is a file, not a folder; give a datasets folder (it is created if missing)"
            )
        }
        let manifestURL = folder.appendingPathComponent("MANIFEST.csv")
        if OutputPathCheck.sameFile(input, manifestURL) || input.lastPathComponent == "MANIFEST.csv" {
            throw Failure(
                description:
                    "\(shown): error: a data file named MANIFEST.csv would be the folder's manifest itself; rename the data file and add it"
            )
        }
        // Concurrent adds into one folder take turns: the manifest is read, extended and written under a lock.
        let existed = FileManager.default.fileExists(atPath: folder.path)
        let lock = try FileLock(
            folder.appendingPathComponent(lockFileName), what: "an add to \(DatasetManifest.display(folder))",
            wait: true)
        do {
            defer { lock.release() }
            return try addLocked(
                input, name: name, format: format, folder: folder, existing: existing, license: license,
                origin: origin)
        } catch {
            if !existed {  // nothing added: the folder made for it goes
                unlink(lock.url.path)
                rmdir(folder.path)
            }
            throw error
        }
    }

    /// The format `given`, else the one `input`'s contents show, with the evidence for it.
    static func chooseFormat(_ given: DatasetFormat?, of input: URL, shown: String) throws -> (
        DatasetFormat, evidence: String?
    ) {
        if let given { return (given, nil) }
        switch DatasetFormatDetection.detect(url: input) {
        case .detected(let found, let because):
            return (found, because)
        case .unknown(let why):
            throw Failure(
                description:
                    "\(shown): error: cannot tell the file's format (\(why)); give --format, one of \(DatasetFormat.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
    }

    /// The files a `format` file is read with, each checked to be there and regular.
    static func presentCompanions(of input: URL, format: DatasetFormat, shown: String) throws -> [URL] {
        let companions = companions(of: input, format: format)
        for companion in companions {
            guard FileManager.default.fileExists(atPath: companion.path) else {
                throw Failure(
                    description:
                        "\(shown): error: a \(format.rawValue) file is read with \(DatasetManifest.display(companion)) beside it, which is missing; put it there and add the file again"
                )
            }
            try SpecialFile.requireRegular(
                companion, displayName: DatasetManifest.display(companion), role: "a dataset")
        }
        return companions
    }

    /// `add` once the manifest is locked.
    static func addLocked(
        _ input: URL, name: String, format: DatasetFormat?, folder: URL, existing: DatasetManifest?,
        license: String?, origin: String?
    ) throws -> Added {
        let shown = DatasetManifest.display(input)
        let manifestURL = folder.appendingPathComponent("MANIFEST.csv")
        let own = FileManager.default.fileExists(atPath: manifestURL.path) ? try DatasetManifest(root: folder) : nil
        for manifest in [own, existing].compactMap({ $0 }) {
            if let taken = manifest.entry(named: name) {
                let where_ = DatasetManifest.display(manifest.url(of: taken))
                throw Failure(
                    description:
                        "--name \(name): error: the name is already used by \(where_); choose another name (names are unique across the datasets folders)"
                )
            }
        }
        let (chosen, evidence) = try chooseFormat(format, of: input, shown: shown)
        let companions = try presentCompanions(of: input, format: chosen, shown: shown)
        let rows = try DatasetLoaders.countRecords(format: chosen, url: input, displayName: shown)
        let sha = try DatasetManifest.sha256(of: input)

        // Inside the folder: listed in place. Elsewhere: copied in (a symbolic link's data, not the
        // link, with the companion files), never over a different file.
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let resolved = input.resolvingSymlinksInPath().path
        var relative: String
        var copied: [URL] = []
        var mainCopy: URL?
        if resolved.hasPrefix(root) {
            relative = String(resolved.dropFirst(root.count))
        } else {
            relative = input.lastPathComponent
            do {
                mainCopy = try copyIn(input, to: folder.appendingPathComponent(relative))
                copied += mainCopy.map { [$0] } ?? []
                for file in companions {
                    if let made = try copyIn(file, to: folder.appendingPathComponent(file.lastPathComponent)) {
                        copied.append(made)
                    }
                }
            } catch {
                for file in copied { try? FileManager.default.removeItem(at: file) }
                throw error
            }
        }
        let entry = DatasetEntry(
            name: name, file: relative, format: chosen, core: core(of: chosen), rows: rows, sha256: sha,
            license: license ?? "unknown", origin: origin ?? "added from \(shown)", folder: folder)
        do {
            try appendRow(entry, to: manifestURL, creating: own == nil)
        } catch {
            for file in copied { try? FileManager.default.removeItem(at: file) }
            throw error
        }
        var added = Added(entry: entry, manifest: manifestURL, copiedTo: mainCopy, formatEvidence: evidence)
        added.companions = copied.filter { $0 != mainCopy }
        if resolved != input.path { added.linkTarget = URL(fileURLWithPath: resolved) }
        return added
    }

    /// Copies the data of `file` (a symbolic link followed) to `target`; the copy made, or nil when
    /// `target` already holds the same bytes. A different file there is refused.
    static func copyIn(_ file: URL, to target: URL) throws -> URL? {
        if FileManager.default.fileExists(atPath: target.path) {
            guard (try? DatasetManifest.sha256(of: target)) == (try? DatasetManifest.sha256(of: file)) else {
                throw Failure(
                    description:
                        "\(DatasetManifest.display(target)): error: a different file of this name is already in the folder; rename the file to add, or choose another --into folder"
                )
            }
            return nil
        }
        do {
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: file.resolvingSymlinksInPath(), to: target)
        } catch {
            throw DataError.unwritable(file: DatasetManifest.display(target), reason: "\(error.localizedDescription)")
        }
        return target
    }

    /// Writes `entry` as the last row of the manifest at `url` (atomically; with the header when `creating`).
    static func appendRow(_ entry: DatasetEntry, to url: URL, creating: Bool) throws {
        var text = creating ? DatasetManifest.columns.joined(separator: ",") + "\n" : ""
        if !creating {
            let bytes = try readFileBytes(url, displayName: DatasetManifest.display(url))
            text = String(decoding: bytes, as: UTF8.self)
            if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        }
        let fields = [
            entry.name, entry.file, entry.format.rawValue, entry.core, String(entry.rows), entry.sha256, entry.license,
            entry.origin,
        ]
        text += fields.map(CSVWriter.escape).joined(separator: ",") + "\n"
        try AtomicFile.write(text, to: url)
    }
}
