import Foundation

/// The two NOAA Local Climatological Data CSV layouts, told apart by the columns only one of
/// them has (never by LATITUDE/LONGITUDE alone: a v1 file with coordinate columns added is
/// still v1, in v1's units).
public enum LCDLayout: Sendable, Equatable {
    /// Older layout (`STATION,DATE,REPORT_TYPE,...`, 124 columns, with `AWND`, `Backup*`,
    /// `HTDD`, …): imperial units (°F, statute miles, inches, mph), sky heights in hundreds
    /// of feet, no coordinates.
    case v1
    /// Newer layout (`STATION,DATE,LATITUDE,LONGITUDE,ELEVATION,NAME,...`, with
    /// `Monthly…`/`…SeasonToDate` summary columns): metric units (°C, km, mm, m/s), sky
    /// heights in hundreds of metres.
    case v2

    /// Columns only the v1 layout has.
    static let v1Only: Set<String> = [
        "AWND", "BackupElevationUnit", "CDSD", "CLDD", "DSNW", "HDSD", "HTDD", "HeavyFog", "TStorms",
    ]
    /// Columns only the v2 layout has (coordinates excluded).
    static let v2Only: Set<String> = [
        "ELEVATION", "NAME", "MonthlyAverageWindSpeed", "CoolingDegreeDaysSeasonToDate", "MonthlyCoolingDegreeDays",
        "MonthlyNumberDaysWithSnowfall", "HeatingDegreeDaysSeasonToDate", "MonthlyHeatingDegreeDays",
        "MonthlyNumberDaysWithThunderstorms", "MonthlyNumberDaysWithHeavyFog",
    ]

    /// The layout whose signature columns `names` carries; v1 (NOAA's documented imperial
    /// units) when it carries neither's, or both's.
    public static func detect(_ names: [String]) -> LCDLayout {
        let v1 = names.contains { v1Only.contains($0) }
        let v2 = names.contains { v2Only.contains($0) }
        return v2 && !v1 ? .v2 : .v1
    }

    /// The units of this layout.
    public var units: LCDUnits { self == .v1 ? .imperial : .metric }
}

/// Units of an LCD file's values.
public enum LCDUnits: String, Sendable, Equatable, CaseIterable {
    /// °F, statute miles, inches, mph, sky heights in hundreds of feet.
    case imperial
    /// °C, km, mm, m/s, sky heights in hundreds of metres.
    case metric
}

/// How an LCD file's `DATE`s (local standard time all year) become UTC.
public enum LCDTimeBase: Sendable {
    /// A declared standard-time offset, seconds east of UTC.
    case offsetSeconds(Int)
    /// A declared IANA zone: its standard (non-daylight-saving) offset in the file's first year.
    case zone(String)
    /// From the data: the station's coordinates (the file's LATITUDE/LONGITUDE, else `stations`
    /// by station id), the IANA zone of the nearest of `places`, and that zone's standard offset.
    case station(stations: [ISDStation], places: [Place])
}

/// NOAA LCD `REPORT_TYPE` of a row.
public enum LCDReportType: String, Sendable {
    /// FM-15: routine hourly METAR.
    case routine = "FM-15"
    /// FM-16: special METAR between hours.
    case special = "FM-16"
    /// FM-12: SYNOP.
    case synop = "FM-12"
    /// SOD: daily summary (hourly fields empty).
    case dailySummary = "SOD"
    /// SOM: monthly summary (hourly fields empty).
    case monthlySummary = "SOM"
}

/// One hourly (or special) observation from an NOAA LCD file, in SI units and UTC.
public struct LCDObservation: Sendable, Equatable {
    /// Station identifier as in the file.
    public var station: String
    /// Observation time, seconds since 1970-01-01T00:00:00Z (converted from local standard time).
    public var timeUTC: Int
    /// Report type.
    public var reportType: LCDReportType
    /// Dry-bulb temperature, °C.
    public var temperatureC: Double?
    /// Dew point, °C.
    public var dewPointC: Double?
    /// Relative humidity, % (0…100).
    public var relativeHumidityPct: Double?
    /// Horizontal visibility, km.
    public var visibilityKm: Double?
    /// Precipitation in the past hour, mm (0 for a trace).
    public var precipitationMm: Double?
    /// Whether the precipitation was a trace (`T`).
    public var precipitationTrace: Bool
    /// Wind speed, m/s.
    public var windSpeedMps: Double?
    /// Wind direction, degrees from north; nil when calm/variable (`VRB`) or missing (blank, `999`).
    public var windDirectionDeg: Double?
    /// Reported sky layers; nil when the cell is blank.
    public var sky: SkyCondition?
    /// Present-weather text (e.g. `-RA:02 |RA |RA`), nil when blank.
    public var presentWeather: String?
    /// Whether any used value carried NOAA's suspect flag `s`.
    public var hasSuspectValue: Bool
    /// Whether the METAR (`REM`) said CAVOK: no cloud below 5,000 ft, no cumulonimbus and
    /// visibility 10 km or more. LCD leaves sky and visibility blank then; the loader records
    /// an empty (clear) sky and 10 km, which is how such reports are read here. Reports with
    /// NSC (no significant cloud) likewise get an empty sky, keeping their visibility.
    public var cavok: Bool = false

    /// Whether present weather reports liquid/frozen precipitation (RA, DZ, SN, SH, TS…).
    public var reportsPrecipitation: Bool {
        guard let w = presentWeather else { return false }
        return ["RA", "DZ", "SN", "SH", "TS", "GR", "GS", "PL", "SG", "IC", "UP"].contains { w.contains($0) }
    }
}

/// A loaded LCD file.
public struct LCDFile: Sendable {
    /// Which layout the header matched.
    public var layout: LCDLayout
    /// The units the values were read in (the layout's unless the caller chose).
    public var units: LCDUnits = .imperial
    /// The standard-time offset the dates were read with, seconds east of UTC.
    public var utcOffsetSeconds: Int = 0
    /// The IANA zone the offset came from, when it came from one.
    public var timeZone: String?
    /// Station id of the first row.
    public var station: String
    /// Station latitude/longitude in degrees: the file's LATITUDE/LONGITUDE columns, or the
    /// station list's position when the time base looked the station up there.
    public var coordinate: (latitude: Double, longitude: Double)?
    /// Hourly observations (FM-15, FM-16, FM-12), in file order.
    public var observations: [LCDObservation]
    /// Summary rows (SOD/SOM) read and deliberately not used as observations.
    public var summaryRows: Int
    /// Rows loaded/skipped.
    public var report: LoadReport
    /// All data records in the file (observations + summaries + skipped).
    public var recordCount: Int
}

/// Reader for NOAA LCD CSV files (both layouts), as NCEI serves them.
///
/// `DATE` is local standard time (no daylight saving): the time base turns it into UTC.
/// Units follow the layout (`LCDLayout.detect`) unless the caller sets them. Every report
/// type is read (FM-15, FM-16, FM-12 SYNOP; SOD/SOM summaries are counted, not returned);
/// value flags are understood: `s` suspect, `V` variable, `A` accumulated, `T` trace,
/// `M` and `*` missing; stray bare numbers in `HourlySkyConditions` (SYNOP rows) are not
/// layers and are ignored. A row that still cannot be read is skipped and counted under
/// `LoadPolicy.lenient`, or stops the load with its file:line under `.strict`.
public enum NOAALCDLoader {
    /// Loads `url`, validating every row; summary rows are counted but not returned.
    /// - Parameter utcOffsetSeconds: the station's standard-time offset east of UTC, seconds.
    public static func load(
        url: URL, displayName: String? = nil, utcOffsetSeconds: Int,
        policy: LoadPolicy = .strict
    ) throws(DataError) -> LCDFile {
        let table = try CSVTable(url: url, displayName: displayName)
        return try load(table: table, utcOffsetSeconds: utcOffsetSeconds, policy: policy)
    }

    /// Loads `url` with its dates read by `timeBase` (a declared offset or zone, or the
    /// station's own zone) and its values in `units` (nil: the layout's).
    public static func load(
        url: URL, displayName: String? = nil, timeBase: LCDTimeBase, units: LCDUnits? = nil,
        policy: LoadPolicy = .lenient
    ) throws(DataError) -> LCDFile {
        let table = try CSVTable(url: url, displayName: displayName)
        let station = try self.station(in: table)
        var coordinate = station.coordinate
        let offset: Int
        var zone: String?
        switch timeBase {
        case .offsetSeconds(let seconds):
            offset = seconds
        case .zone(let name):
            guard let seconds = PlacesLoader.standardOffsetSeconds(zone: name, year: station.firstYear) else {
                throw .badLayout(
                    file: table.file, line: 0,
                    reason: "unknown time zone '\(name)'; declare an IANA zone such as America/Chicago")
            }
            offset = seconds
            zone = name
        case .station(let stations, let places):
            if coordinate == nil, let match = ISDHistoryLoader.station(forLCD: station.id, in: stations),
                let latitude = match.latitude, let longitude = match.longitude
            {
                coordinate = (latitude, longitude)
            }
            guard let c = coordinate else {
                throw .badLayout(
                    file: table.file, line: 0,
                    reason: "no UTC offset for LCD station \(station.id): the file has no LATITUDE/LONGITUDE "
                        + "columns and the station list has no position for it; declare 'utc_offset' "
                        + "(hours east of UTC, standard time) or 'timezone' (IANA) on the dataset")
            }
            guard let near = PlacesLoader.nearest(latitude: c.latitude, longitude: c.longitude, in: places),
                let seconds = PlacesLoader.standardOffsetSeconds(zone: near.timeZone, year: station.firstYear)
            else {
                throw .badLayout(
                    file: table.file, line: 0,
                    reason: "no time zone known near LCD station \(station.id) at (\(c.latitude), \(c.longitude)): "
                        + "no places table with time zones is available; declare 'utc_offset' or 'timezone' on the dataset"
                )
            }
            offset = seconds
            zone = near.timeZone
        }
        var file = try load(table: table, utcOffsetSeconds: offset, units: units, policy: policy)
        file.timeZone = zone
        if file.coordinate == nil {
            file.coordinate = coordinate.map { (latitude: $0.latitude, longitude: $0.longitude) }
        }
        return file
    }

    /// The station of an LCD table: the id and coordinates of its first row that has them, and
    /// the year of its first date (for a zone's standard offset).
    public static func station(in table: CSVTable) throws(DataError) -> (
        id: String, coordinate: (latitude: Double, longitude: Double)?, firstYear: Int
    ) {
        try table.require(["STATION", "DATE"])
        var id = ""
        var coordinate: (latitude: Double, longitude: Double)?
        var year: Int?
        let hasCoordinates =
            table.header.position(of: "LATITUDE") != nil && table.header.position(of: "LONGITUDE") != nil
        for r in table.records {
            let row = CSVRow(file: table.file, line: r.line, fields: r.fields, header: table.header)
            if id.isEmpty, let st = row.optionalString("STATION") { id = st }
            if year == nil, let date = row.optionalString("DATE"), let t = CivilTime.parseISODateTime(date) {
                year = CivilDate(daysSinceEpoch: Int((Double(t) / 86_400).rounded(.down))).year
            }
            if hasCoordinates, coordinate == nil, let la = try? row.latitude("LATITUDE"),
                let lo = try? row.longitude("LONGITUDE")
            {
                coordinate = (la, lo)
            }
            if !id.isEmpty, year != nil, coordinate != nil || !hasCoordinates { break }
        }
        guard !id.isEmpty, let year else {
            throw .badLayout(
                file: table.file, line: 2, reason: "no row with a STATION id and a DATE; is this an LCD file?")
        }
        return (id, coordinate, year)
    }

    /// Loads an already-read table.
    public static func load(table: CSVTable, utcOffsetSeconds: Int, policy: LoadPolicy) throws(DataError) -> LCDFile {
        try load(table: table, utcOffsetSeconds: utcOffsetSeconds, units: nil, policy: policy)
    }

    /// Loads an already-read table in `units` (nil: the layout's).
    public static func load(
        table: CSVTable, utcOffsetSeconds: Int, units chosenUnits: LCDUnits?, policy: LoadPolicy
    ) throws(DataError) -> LCDFile {
        let layout = LCDLayout.detect(table.header.names)
        let units = chosenUnits ?? layout.units
        let hasCoordinates =
            table.header.position(of: "LATITUDE") != nil && table.header.position(of: "LONGITUDE") != nil
        try table.require([
            "STATION", "DATE", "REPORT_TYPE", "HourlyDryBulbTemperature", "HourlyDewPointTemperature",
            "HourlyRelativeHumidity", "HourlyVisibility", "HourlyPrecipitation", "HourlyWindSpeed",
            "HourlyWindDirection", "HourlySkyConditions", "HourlyPresentWeatherType",
        ])
        var summaries = 0
        var coordinate: (Double, Double)?
        var station = ""
        let loaded = try table.load(policy: policy) { (row) throws(DataError) -> LCDObservation? in
            let typeText = try row.string("REPORT_TYPE").trimmingCharacters(in: .whitespaces)
            guard let type = LCDReportType(rawValue: typeText) else {
                throw row.invalid("REPORT_TYPE", "unknown report type (expected FM-15, FM-16, FM-12, SOD or SOM)")
            }
            let dateText = try row.string("DATE")
            guard let local = CivilTime.parseISODateTime(dateText) else {
                throw row.invalid("DATE", "expected local standard time YYYY-MM-DDTHH:MM:SS")
            }
            let st = try row.string("STATION").trimmingCharacters(in: .whitespaces)
            guard !st.isEmpty else { throw row.invalid("STATION", "station id is missing") }
            if station.isEmpty { station = st }
            if hasCoordinates, coordinate == nil, let la = try? row.latitude("LATITUDE"),
                let lo = try? row.longitude("LONGITUDE")
            {
                coordinate = (la, lo)
            }
            if type == .dailySummary || type == .monthlySummary {
                summaries += 1
                return nil
            }
            return try observation(row, station: st, type: type, timeUTC: local - utcOffsetSeconds, units: units)
        }
        return LCDFile(
            layout: layout, units: units, utcOffsetSeconds: utcOffsetSeconds, timeZone: nil, station: station,
            coordinate: coordinate.map { (latitude: $0.0, longitude: $0.1) },
            observations: loaded.records, summaryRows: summaries, report: loaded.report,
            recordCount: table.records.count)
    }
    /// The observation of one hourly `row` (metric units whatever the file's `units`).
    static func observation(
        _ row: CSVRow, station: String, type: LCDReportType, timeUTC: Int, units: LCDUnits
    ) throws(DataError) -> LCDObservation {
        var values = LCDRowValues(row: row)
        let imperial = units == .imperial
        var temp = try values.value("HourlyDryBulbTemperature", imperial ? -80...140 : -62...60)
        var dew = try values.value("HourlyDewPointTemperature", imperial ? -100...100 : -73...38)
        if imperial {
            temp = temp.map { ($0 - 32) * 5 / 9 }
            dew = dew.map { ($0 - 32) * 5 / 9 }
        }
        let rh = try values.value("HourlyRelativeHumidity", 0...100)
        var vis = try values.value("HourlyVisibility", 0...(imperial ? 100 : 160))
        if imperial { vis = vis.map { $0 * 1.609344 } }
        var trace = false
        var precip: Double?
        if let p = row.optionalString("HourlyPrecipitation"), p.hasPrefix("T") {
            trace = true
            precip = 0
        } else {
            precip = try values.value("HourlyPrecipitation", 0...(imperial ? 20 : 500))
            if imperial { precip = precip.map { $0 * 25.4 } }
        }
        var wind = try values.value("HourlyWindSpeed", 0...(imperial ? 250 : 110))
        if imperial { wind = wind.map { $0 * 0.44704 } }
        var dir: Double?
        if let d = row.optionalString("HourlyWindDirection"), d != "VRB", d != "999" {  // 999: missing (SYNOP rows)
            dir = try values.value("HourlyWindDirection", 0...360)
        }
        let skyText = row.optionalString("HourlySkyConditions") ?? ""
        let sky: SkyCondition?
        do throws(SkyParseError) {
            sky = try SkyCondition.parse(skyText, unit: imperial ? .hundredsOfFeet : .hundredsOfMetres)
        } catch {
            throw row.invalid("HourlySkyConditions", error.reason)
        }
        if sky?.layers.contains(where: \.suspect) == true { values.suspect = true }
        let remark = sky == nil ? (row.optionalString("REM") ?? "") : ""
        let cavok = remark.contains(" CAVOK")
        // NSC: "no significant cloud" (nothing below 5,000 ft or the minimum sector altitude).
        let noSignificantCloud = cavok || remark.contains(" NSC")
        var observation = LCDObservation(
            station: station, timeUTC: timeUTC, reportType: type,
            temperatureC: temp, dewPointC: dew, relativeHumidityPct: rh, visibilityKm: vis ?? (cavok ? 10 : nil),
            precipitationMm: precip, precipitationTrace: trace, windSpeedMps: wind, windDirectionDeg: dir,
            sky: noSignificantCloud ? SkyCondition(layers: []) : sky,
            presentWeather: row.optionalString("HourlyPresentWeatherType"),
            hasSuspectValue: values.suspect)
        observation.cavok = cavok
        return observation
    }
}

/// Reads one LCD row's numeric fields with their flags: `s` marks a suspect value, `V` variable,
/// `A` accumulated; `M` and `*` are missing.
private struct LCDRowValues {
    let row: CSVRow
    /// Whether any value read so far was flagged suspect.
    var suspect = false

    mutating func value(_ column: String, _ range: ClosedRange<Double>) throws(DataError) -> Double? {
        guard var raw = row.optionalString(column) else { return nil }
        if raw.hasSuffix("s") {
            raw.removeLast()
            suspect = true
        }
        // V: variable (visibility, wind); A: accumulated since the last report.
        if raw.hasSuffix("V") || raw.hasSuffix("A") { raw.removeLast() }
        // M: missing; *: amount included in a later report.
        if raw.isEmpty || raw == "*" || raw == "M" { return nil }
        return try FieldParser.double(raw, field: column, in: range, file: row.file, line: row.line)
    }
}
