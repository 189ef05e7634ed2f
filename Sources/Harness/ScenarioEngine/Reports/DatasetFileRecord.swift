/// What `run.json` records of one dataset a scenario read or listed (its `dataset_files` block):
/// enough to find the very file again and to tell whether it changed.
public struct DatasetFileRecord: Codable, Sendable, Equatable {
    /// How many of a loader's reasons for skipping rows are kept.
    public static let keptReasons = 5

    /// The dataset name the scenario used.
    public var name: String
    /// The file read: relative to the working directory when inside it, else absolute.
    public var path: String
    /// Its format (`DatasetFormat` raw value).
    public var format: String
    /// Records the typed loader yields from it (nil when it cannot be loaded strictly).
    public var rows: Int?
    /// Lower-case hex SHA-256 of the file read.
    public var sha256: String
    /// Rows a loader skipped while the run read the file (nil when no loader reported).
    public var rowsSkipped: Int?
    /// The first reasons of those skips (at most `keptReasons`), each located `file:line`.
    public var skippedReasons: [String]?

    /// A record; see the properties for each value.
    public init(
        name: String, path: String, format: String, rows: Int?, sha256: String, rowsSkipped: Int? = nil,
        skippedReasons: [String]? = nil
    ) {
        self.name = name
        self.path = path
        self.format = format
        self.rows = rows
        self.sha256 = sha256
        self.rowsSkipped = rowsSkipped
        self.skippedReasons = skippedReasons
    }

    enum CodingKeys: String, CodingKey {
        case name, path, format, rows, sha256, rowsSkipped = "rows_skipped", skippedReasons = "skipped_reasons"
    }
}
