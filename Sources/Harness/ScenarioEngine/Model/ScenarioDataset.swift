import FieldtestData
import Foundation

/// A dataset a scenario names by path: `datasets: [{name: N, path: P, format: F}]`.
///
/// Every field that takes a dataset name takes `name`; the file is read where it is.
public struct ScenarioDataset: Sendable, Equatable {
    /// The name fields of the scenario use.
    public var name: String
    /// The path as written in the scenario (relative to the scenario file, or absolute).
    public var path: String
    /// The file, resolved.
    public var url: URL
    /// The format, as given or as the file shows it.
    public var format: DatasetFormat
    /// Line of the entry in the scenario file.
    public var line: Int
    /// `utc_offset:` — the recording's local standard time, seconds east of UTC, when declared.
    public var utcOffsetSeconds: Int?
    /// `timezone:` — the recording's IANA zone, when declared.
    public var timeZone: String?

    /// An entry; see the properties for each value.
    public init(
        name: String, path: String, url: URL, format: DatasetFormat, line: Int, utcOffsetSeconds: Int? = nil,
        timeZone: String? = nil
    ) {
        self.name = name
        self.path = path
        self.url = url
        self.format = format
        self.line = line
        self.utcOffsetSeconds = utcOffsetSeconds
        self.timeZone = timeZone
    }

    /// The entry as the datasets of a run see it: the file in its own folder, with no recorded
    /// hash or row count (`run.json` records the ones measured).
    public var entry: DatasetEntry {
        DatasetEntry(
            name: name, file: url.lastPathComponent, format: format, core: DatasetRegistration.core(of: format),
            rows: 0, sha256: "", license: "unknown", origin: "named by path in a scenario",
            folder: url.deletingLastPathComponent())
    }

    /// Resolves `path` as a scenario in `folder` writes it: absolute, `~/…` (the home folder), or
    /// relative to `folder`.
    public static func resolve(_ path: String, relativeTo folder: URL) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        if path == "~" || path.hasPrefix("~/") {
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath).standardizedFileURL
        }
        return folder.appendingPathComponent(path).standardizedFileURL
    }
}

extension Scenario {
    /// The scenario's files named by path as manifest entries (see `ScenarioDataset.entry`).
    public var datasetEntries: [DatasetEntry] { datasetFiles.map(\.entry) }
}
