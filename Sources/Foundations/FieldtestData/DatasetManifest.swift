import FieldtestCrypto
import Foundation

/// The file formats Fieldtest can load, each with a typed loader.
public enum DatasetFormat: String, Sendable, CaseIterable, Codable {
    /// NOAA Local Climatological Data, hourly observations (v1 or v2 layout).
    case noaaLCD = "noaa-lcd"
    /// NOAA ISD station history list.
    case isdHistory = "isd-history"
    /// NREL Typical Meteorological Year 3 (CSV).
    case tmy3
    /// NREL Typical Meteorological Year 2 (fixed width).
    case tmy2
    /// Daily Seattle weather with a sky label.
    case seattleDaily = "seattle-daily"
    /// Beijing PM2.5 hourly series (UCI PRSA layout).
    case beijingPM25 = "beijing-pm25"
    /// OpenStreetMap XML 0.6.
    case osmXML = "osm-xml"
    /// OpenStreetMap PBF (`.osm.pbf`): zlib-compressed protobuf blocks, as the extract services serve them.
    case osmPBF = "osm-pbf"
    /// UJIIndoorLoc Wi-Fi fingerprints (520 WAP columns).
    case ujiIndoorLoc = "ujiindoorloc"
    /// GeoLife trajectories, long CSV (one row per fix).
    case geolifeCSV = "geolife-csv"
    /// GeoLife raw `.plt` trajectory with a one-line header.
    case geolifePLT = "geolife-plt"
    /// One tweet text per line (Sentiment140 sample).
    case tweetLines = "tweet-lines"
    /// Twitter US airline sentiment CSV.
    case airlineTweets = "airline-tweets"
    /// A labelled tweets CSV: a header with `text` and `label` (`id` and others optional).
    case tweetsCSV = "tweets-csv"
    /// The original Sentiment140 CSV (no header; `polarity,id,date,query,user,text`).
    case sentiment140CSV = "sentiment140-csv"
    /// TweetEval texts, one per line.
    case tweetevalText = "tweeteval-text"
    /// TweetEval labels (0, 1, 2), one per line.
    case tweetevalLabels = "tweeteval-labels"
    /// TweetEval label mapping (`index name`).
    case tweetevalMapping = "tweeteval-mapping"
    /// SemEval message-polarity tweets: `id TAB label TAB text`, header line optional, or SemEval-2013's
    /// `id TAB user-id TAB label TAB text` (`SemEvalTweetsLoader`).
    case semEvalTweets = "semeval-tweets"
    /// VADER tweet ground truth (`id`, mean rating, text).
    case vaderGroundTruth = "vader-groundtruth"
    /// VADER individual ratings (`id`, mean, sd, ratings list).
    case vaderRatings = "vader-ratings"
    /// VADER lexicon TSV (token, mean, sd, ratings).
    case vaderLexicon = "vader-lexicon"
    /// VADER emoji → description TSV.
    case emojiLexicon = "emoji-lexicon"
    /// AFINN word list (term TAB integer valence).
    case afinn
    /// GeoNames US places CSV.
    case usCities = "us-cities"
    /// GeoNames world cities CSV.
    case worldCities = "world-cities"
    /// A JSON document (state or country tables).
    case json
}

/// One bundled file as listed in `Datasets/MANIFEST.csv`.
public struct DatasetEntry: Sendable, Equatable {
    /// Stable name used by scenarios (`datasets:` lists these).
    public var name: String
    /// Path relative to the `Datasets/` folder.
    public var file: String
    /// The format, which picks the loader.
    public var format: DatasetFormat
    /// The core(s) that use it.
    public var core: String
    /// Number of data records the typed loader yields.
    public var rows: Int
    /// Lower-case hex SHA-256 of the file's bytes.
    public var sha256: String
    /// Licence of the data.
    public var license: String
    /// Where the data came from.
    public var origin: String
    /// The folder `file` is relative to: the datasets folder whose manifest lists the entry, or,
    /// for a file a scenario names by path, the file's own folder (nil: the manifest's `root`).
    public var folder: URL?

    /// An entry; see the properties for each value.
    public init(
        name: String, file: String, format: DatasetFormat, core: String, rows: Int, sha256: String,
        license: String, origin: String, folder: URL? = nil
    ) {
        self.name = name
        self.file = file
        self.format = format
        self.core = core
        self.rows = rows
        self.sha256 = sha256
        self.license = license
        self.origin = origin
        self.folder = folder
    }
}

/// The catalogue of bundled datasets, read from `MANIFEST.csv` in a datasets folder.
public struct DatasetManifest: Sendable {
    /// The manifest's columns, in order.
    public static let columns = ["name", "file", "format", "core", "rows", "sha256", "license", "origin"]
    /// The folder holding the manifest and the files.
    public let root: URL
    /// The entries in manifest order (for an overlay: the bottom folder's first, each replaced in
    /// place by an entry of the same name from a folder above, then the names only upper folders list).
    public let entries: [DatasetEntry]
    /// The datasets folders read, bottom first (one for a single manifest).
    public let folders: [URL]
    /// Entries of lower folders that an upper folder's entry of the same name replaced.
    public let shadowed: [DatasetEntry]

    /// Reads `root/MANIFEST.csv`.
    public init(root: URL) throws(DataError) {
        self.root = root
        let url = root.appendingPathComponent("MANIFEST.csv")
        let table = try CSVTable(url: url, displayName: Self.display(url))
        try table.require(Self.columns)
        var seen = Set<String>()
        let loaded = try table.load(policy: .strict) { (row: CSVRow) throws(DataError) -> DatasetEntry? in
            let name = try row.string("name")
            guard !name.isEmpty, seen.insert(name).inserted else {
                throw row.invalid("name", "empty or duplicate name")
            }
            let formatText = try row.string("format")
            guard let format = DatasetFormat(rawValue: formatText) else {
                throw row.invalid(
                    "format",
                    "unknown format; expected one of \(DatasetFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let file = try row.string("file")
            guard !file.hasPrefix("/"), !file.split(separator: "/").contains("..") else {
                throw row.invalid("file", "path must stay inside the datasets folder")
            }
            let sha = try row.string("sha256")
            guard sha.count == 64, sha.allSatisfy({ $0.isHexDigit }) else {
                throw row.invalid("sha256", "expected 64 hex digits")
            }
            return DatasetEntry(
                name: name, file: file, format: format, core: try row.string("core"),
                rows: try row.int("rows", in: 0...Int.max), sha256: sha.lowercased(),
                license: try row.string("license"), origin: try row.string("origin"))
        }
        self.entries = loaded.records.map {
            var e = $0
            e.folder = root
            return e
        }
        self.folders = [root]
        self.shadowed = []
    }

    /// The overlay of `layers`, bottom first: an entry of an upper layer replaces the entry of the
    /// same name below it (which is kept in `shadowed`). `root` is the bottom layer's, where files
    /// read by path (`reference/…`, `models/…`) are looked for. A folder given twice counts once.
    public init(overlaying layers: [DatasetManifest]) {
        var seenFolders = Set<String>()
        var folders: [URL] = []
        var entries: [DatasetEntry] = []
        var shadowed: [DatasetEntry] = []
        var position: [String: Int] = [:]
        for layer in layers {
            guard seenFolders.insert(layer.root.standardizedFileURL.path).inserted else { continue }
            folders += layer.folders
            shadowed += layer.shadowed
            for entry in layer.entries {
                if let i = position[entry.name] {
                    shadowed.append(entries[i])
                    entries[i] = entry
                } else {
                    position[entry.name] = entries.count
                    entries.append(entry)
                }
            }
        }
        self.root = layers.first?.root ?? URL(fileURLWithPath: "Datasets")
        self.folders = folders
        self.entries = entries
        self.shadowed = shadowed
    }

    /// This manifest with `extra` on top: each replaces an entry of the same name (a scenario's own
    /// files, named by path, come before the folders' entries of the same name).
    public func adding(_ extra: [DatasetEntry]) -> DatasetManifest {
        guard !extra.isEmpty else { return self }
        return DatasetManifest(root: root, folders: folders, entries: entries, shadowed: shadowed, adding: extra)
    }

    private init(
        root: URL, folders: [URL], entries: [DatasetEntry], shadowed: [DatasetEntry], adding extra: [DatasetEntry]
    ) {
        var entries = entries
        var shadowed = shadowed
        for entry in extra {
            if let i = entries.firstIndex(where: { $0.name == entry.name }) {
                shadowed.append(entries[i])
                entries[i] = entry
            } else {
                entries.append(entry)
            }
        }
        self.root = root
        self.folders = folders
        self.entries = entries
        self.shadowed = shadowed
    }

    /// The entry called `name`, if any.
    public func entry(named name: String) -> DatasetEntry? { entries.first { $0.name == name } }

    /// Absolute location of an entry's file.
    public func url(of entry: DatasetEntry) -> URL { (entry.folder ?? root).appendingPathComponent(entry.file) }

    /// How messages name the file at `url`: relative to the current directory when inside it,
    /// else its full path (so a `--datasets` folder elsewhere is named as it is).
    public static func display(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return url.path.hasPrefix(cwd) ? String(url.path.dropFirst(cwd.count)) : url.path
    }

    /// Lower-case hex SHA-256 of `data` (e.g. a per-case result file's body, to detect damage).
    public static func sha256(of data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// Lower-case hex SHA-256 of a file, read in 1 MiB chunks.
    public static func sha256(of url: URL) throws(DataError) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw .unreadable(file: display(url), reason: "no such file or not readable")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch {
                throw .unreadable(file: display(url), reason: error.localizedDescription)
            }
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// Outcome of checking one manifest entry.
public struct DatasetCheck: Sendable, Equatable {
    /// What was checked.
    public var entry: DatasetEntry
    /// Hash of the file on disk (nil when unreadable).
    public var actualSHA256: String?
    /// Records the typed loader yielded (nil when the load failed).
    public var actualRows: Int?
    /// The load error, if any.
    public var error: DataError?

    /// True when hash and row count both match and the load succeeded.
    public var passed: Bool { error == nil && actualSHA256 == entry.sha256 && actualRows == entry.rows }

    /// A one-line human explanation of a failure (empty when passed).
    public var problem: String {
        if let error { return error.description }
        var parts: [String] = []
        if actualSHA256 != entry.sha256 {
            parts.append("sha256 \(actualSHA256 ?? "?") does not match the manifest's \(entry.sha256)")
        }
        if actualRows != entry.rows {
            parts.append("\(actualRows.map(String.init) ?? "?") rows, manifest says \(entry.rows)")
        }
        return parts.joined(separator: "; ")
    }
}

extension DatasetManifest {
    /// Hashes every file (of every folder, shadowed entries included) and loads it with its typed
    /// loader (strict), comparing the hash and the record count with the manifest.
    public func verify(_ names: Set<String>? = nil) -> [DatasetCheck] {
        (shadowed + entries).filter { names?.contains($0.name) ?? true }.map { entry in
            let url = url(of: entry)
            var check = DatasetCheck(entry: entry)
            do throws(DataError) {
                try Self.requireContainedRegularFile(url, folder: entry.folder ?? root)
                check.actualSHA256 = try Self.sha256(of: url)
                check.actualRows = try DatasetLoaders.countRecords(
                    format: entry.format, url: url,
                    displayName: Self.display(url))
            } catch {
                check.error = error
            }
            return check
        }
    }
}

extension DatasetManifest {
    /// The rule for a manifest's files: each is a regular file that, with every symbolic link on
    /// its way resolved, lies inside the manifest's folder. A link may point elsewhere in the folder
    /// (one copy of a file under two names), never out of it, so that what a manifest vouches for is
    /// what the folder holds; and a FIFO or a device, which would never end or never hash the same
    /// twice, is refused instead of read. (Files a scenario names by path are the user's choice and
    /// are not held to this rule.)
    public static func requireContainedRegularFile(_ url: URL, folder: URL) throws(DataError) {
        let name = display(url)
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
        let base = folder.resolvingSymlinksInPath().standardizedFileURL.path
        guard resolved == base || resolved.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
            throw .unreadable(
                file: name,
                reason:
                    "it leads out of the datasets folder (to \(resolved)); a manifest's files and links stay inside "
                    + "its folder: copy the file in, or name it by path in the scenario")
        }
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw .unreadable(file: name, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(
                file: name, reason: "it is not a regular file (a FIFO, a device or a socket); datasets are files")
        }
    }
}

/// What `fieldtest datasets verify` prints: one line per checked file and a closing count.
public struct DatasetVerificationReport: Sendable, Equatable {
    /// The lines, each ending in a newline: `ok    NAME (ROWS rows, FILE)` or `FAIL  NAME: PROBLEM`, then
    /// `P of N datasets verified`.
    public var text: String
    /// How many files failed their check.
    public var failures: Int
}

/// A dataset name that no manifest lists.
public struct UnknownDatasetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name asked for.
    public var name: String
    public var description: String {
        "error: unknown dataset '\(name)'; run 'fieldtest datasets list' to see the names"
    }
}

extension DatasetManifest {
    /// Verifies `names` (every dataset when empty) and renders the outcome, one line per file.
    /// - Throws: `UnknownDatasetError` for the first name no folder lists (nothing is checked then).
    public func verificationReport(names: [String]) throws(UnknownDatasetError) -> DatasetVerificationReport {
        if let unknown = names.first(where: { entry(named: $0) == nil }) { throw UnknownDatasetError(name: unknown) }
        let checks = verify(names.isEmpty ? nil : Set(names))
        let lines = checks.map { check in
            check.passed
                ? "ok    \(check.entry.name) (\(check.entry.rows) rows, \(Self.display(url(of: check.entry))))"
                : "FAIL  \(check.entry.name): \(check.problem)"
        }
        // Nothing to verify is not a pass: a header-only manifest said "0 of 0" and exited 0.
        guard !checks.isEmpty else {
            return DatasetVerificationReport(
                text: "the manifests list no datasets: nothing was verified\n", failures: 1)
        }
        let failures = checks.count { !$0.passed }
        let closing = "\(checks.count - failures) of \(checks.count) datasets verified"
        return DatasetVerificationReport(text: (lines + [closing]).map { $0 + "\n" }.joined(), failures: failures)
    }
}
