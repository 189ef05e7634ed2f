import Foundation

/// One point of a GeoLife trajectory in the long CSV layout (no per-point time).
public struct GeoLifePoint: Sendable, Equatable {
    /// Trajectory id, `<user>_<YYYYMMDDhhmmss>`.
    public var trajectoryID: String
    /// GeoLife user number.
    public var userID: Int
    /// Trajectory start time in seconds since 1970-01-01 UTC (from the file name; GeoLife documents GMT).
    public var startTime: Double
    /// 0-based order within the trajectory.
    public var pointIndex: Int
    /// Latitude in degrees (WGS84).
    public var latitude: Double
    /// Longitude in degrees (WGS84).
    public var longitude: Double
}

/// One timestamped fix of a GeoLife `.plt` trajectory.
public struct GeoLifeFix: Sendable, Equatable {
    /// Latitude in degrees (WGS84).
    public var latitude: Double
    /// Longitude in degrees (WGS84).
    public var longitude: Double
    /// Altitude in feet as GeoLife records it, or nil for the invalid marker −777.
    public var altitudeFeet: Double?
    /// Time in seconds since 1970-01-01 UTC, from the fractional-day column (days since 1899-12-30).
    public var time: Double
}

/// Typed loaders of Microsoft Research GeoLife trajectories (Zheng et al., GeoLife 1.3).
public enum GeoLifeLoaders {
    /// Seconds between 1899-12-30 (GeoLife's day zero) and 1970-01-01.
    static let dayZeroOffsetSeconds = 25_569.0 * 86_400.0

    /// Loads the long CSV layout `trajectory_id,user_id,start_time_from_filename,point_index,latitude,longitude`.
    /// Start times are ISO `YYYY-MM-DDThh:mm:ss` in UTC. O(rows).
    public static func loadCSV(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<GeoLifePoint>
    {
        let table = try CSVTable(url: url, displayName: displayName)
        try table.require([
            "trajectory_id", "user_id", "start_time_from_filename", "point_index", "latitude", "longitude",
        ])
        return try table.load(policy: policy) { (row: CSVRow) throws(DataError) -> GeoLifePoint? in
            let id = try row.string("trajectory_id").trimmingCharacters(in: .whitespaces)
            guard !id.isEmpty else { throw row.invalid("trajectory_id", "value is missing") }
            let startRaw = try row.string("start_time_from_filename")
            guard let start = parseISO(startRaw) else {
                throw row.invalid("start_time_from_filename", "expected an ISO time YYYY-MM-DDThh:mm:ss")
            }
            return GeoLifePoint(
                trajectoryID: id, userID: try row.int("user_id", in: 0...Int.max), startTime: start,
                pointIndex: try row.int("point_index", in: 0...Int.max),
                latitude: try row.latitude(), longitude: try row.longitude())
        }
    }

    /// Loads a `.plt` trajectory: either the original 6-line GeoLife preamble or a one-line
    /// header (`lat,lon,...`), then `lat,lon,0,altitude_ft,days,date,time` per fix. O(lines).
    public static func loadPLT(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<GeoLifeFix>
    {
        let name = displayName ?? url.path
        var report = LoadReport()
        let lines = try TextLines.nonEmpty(url, displayName: name, policy: policy, report: &report)
        guard let first = lines.first else { throw .empty(file: name) }
        let skip: Int
        if first.text.hasPrefix("Geolife trajectory") {
            skip = 6
        } else if Double(first.text.split(separator: ",").first.map(String.init) ?? "") == nil {
            skip = 1
        } else {
            skip = 0
        }
        var out: [GeoLifeFix] = []
        out.reserveCapacity(lines.count)
        for l in lines.dropFirst(skip) {
            do throws(DataError) {
                let f = l.text.split(separator: ",", omittingEmptySubsequences: false).map {
                    String($0).trimmingCharacters(in: .whitespaces)
                }
                guard f.count >= 5 else {
                    throw .wrongColumnCount(file: name, line: l.number, expected: 7, found: f.count)
                }
                let lat = try FieldParser.double(f[0], field: "latitude", in: -90...90, file: name, line: l.number)
                let lon = try FieldParser.double(f[1], field: "longitude", in: -180...180, file: name, line: l.number)
                let alt = try FieldParser.double(f[3], field: "altitude", in: nil, file: name, line: l.number)
                let days = try FieldParser.double(f[4], field: "days", in: 0...200_000, file: name, line: l.number)
                out.append(
                    GeoLifeFix(
                        latitude: lat, longitude: lon, altitudeFeet: alt == -777 ? nil : alt,
                        time: days * 86_400 - dayZeroOffsetSeconds))
                report.rowsLoaded += 1
            } catch {
                guard policy == .lenient else { throw error }
                report.record(error)
            }
        }
        return Loaded(records: out, report: report)
    }

    /// Parses `YYYY-MM-DDThh:mm:ss` (also with a space) as UTC seconds since 1970; nil when malformed.
    static func parseISO(_ raw: String) -> Double? {
        let s = raw.trimmingCharacters(in: .whitespaces)
        let parts = s.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" || $0 == " " }).map { Int($0) }
        guard parts.count == 6, let y = parts[0], let mo = parts[1], let d = parts[2],
            let h = parts[3], let mi = parts[4], let se = parts[5],
            (1...12).contains(mo), (1...31).contains(d), (0...23).contains(h), (0...59).contains(mi),
            (0...60).contains(se)
        else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (mo + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + h * 3600 + mi * 60 + se)
    }
}
