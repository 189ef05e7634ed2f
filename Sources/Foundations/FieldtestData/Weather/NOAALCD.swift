import Foundation

/// The two NOAA Local Climatological Data CSV layouts.
public enum LCDLayout: Sendable, Equatable {
    /// Older layout (`STATION,DATE,REPORT_TYPE,...`, 124 columns): imperial units
    /// (°F, statute miles, inches, mph), sky heights in hundreds of feet, no coordinates.
    case v1
    /// Newer layout (`STATION,DATE,LATITUDE,LONGITUDE,...`): metric units
    /// (°C, km, mm, m/s), sky heights in hundreds of metres.
    case v2
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
    /// Station id of the first row.
    public var station: String
    /// Station latitude/longitude in degrees when the file carries them (v2).
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

/// Reader for NOAA LCD CSV files (both layouts).
///
/// `DATE` is local standard time (no daylight saving); pass the station's standard
/// UTC offset (Rota, Spain: +3,600 s; Lincoln NE: −21,600 s). Units are converted to SI.
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

    /// Loads an already-read table.
    public static func load(table: CSVTable, utcOffsetSeconds: Int, policy: LoadPolicy) throws(DataError) -> LCDFile {
        let layout: LCDLayout = table.header.position(of: "LATITUDE") != nil ? .v2 : .v1
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
            if layout == .v2, coordinate == nil {
                coordinate = (try row.latitude("LATITUDE"), try row.longitude("LONGITUDE"))
            }
            if type == .dailySummary || type == .monthlySummary {
                summaries += 1
                return nil
            }
            var suspect = false
            func value(_ column: String, _ range: ClosedRange<Double>) throws(DataError) -> Double? {
                guard var raw = row.optionalString(column) else { return nil }
                if raw.hasSuffix("s") {
                    raw.removeLast()
                    suspect = true
                }
                if raw.hasSuffix("V") { raw.removeLast() }  // variable visibility
                if raw == "*" || raw == "M" { return nil }
                return try FieldParser.double(raw, field: column, in: range, file: row.file, line: row.line)
            }
            let imperial = layout == .v1
            var temp = try value("HourlyDryBulbTemperature", imperial ? -80...140 : -62...60)
            var dew = try value("HourlyDewPointTemperature", imperial ? -100...100 : -73...38)
            if imperial {
                temp = temp.map { ($0 - 32) * 5 / 9 }
                dew = dew.map { ($0 - 32) * 5 / 9 }
            }
            let rh = try value("HourlyRelativeHumidity", 0...100)
            var vis = try value("HourlyVisibility", 0...(imperial ? 100 : 160))
            if imperial { vis = vis.map { $0 * 1.609344 } }
            var trace = false
            var precip: Double?
            if let p = row.optionalString("HourlyPrecipitation"), p == "T" || p == "Ts" {
                trace = true
                precip = 0
            } else {
                precip = try value("HourlyPrecipitation", 0...(imperial ? 20 : 500))
                if imperial { precip = precip.map { $0 * 25.4 } }
            }
            var wind = try value("HourlyWindSpeed", 0...(imperial ? 250 : 110))
            if imperial { wind = wind.map { $0 * 0.44704 } }
            var dir: Double?
            if let d = row.optionalString("HourlyWindDirection"), d != "VRB", d != "999" {  // 999: missing (SYNOP rows)
                dir = try value("HourlyWindDirection", 0...360)
            }
            let skyText = try row.string("HourlySkyConditions")
            let sky: SkyCondition?
            do throws(SkyParseError) {
                sky = try SkyCondition.parse(skyText, unit: imperial ? .hundredsOfFeet : .hundredsOfMetres)
            } catch {
                throw row.invalid("HourlySkyConditions", error.reason)
            }
            if sky?.layers.contains(where: \.suspect) == true { suspect = true }
            let remark = sky == nil ? (row.optionalString("REM") ?? "") : ""
            let cavok = remark.contains(" CAVOK")
            // NSC: "no significant cloud" (nothing below 5,000 ft or the minimum sector altitude).
            let noSignificantCloud = cavok || remark.contains(" NSC")
            var observation = LCDObservation(
                station: st, timeUTC: local - utcOffsetSeconds, reportType: type,
                temperatureC: temp, dewPointC: dew, relativeHumidityPct: rh, visibilityKm: vis ?? (cavok ? 10 : nil),
                precipitationMm: precip, precipitationTrace: trace, windSpeedMps: wind, windDirectionDeg: dir,
                sky: noSignificantCloud ? SkyCondition(layers: []) : sky,
                presentWeather: row.optionalString("HourlyPresentWeatherType"),
                hasSuspectValue: suspect)
            observation.cavok = cavok
            return observation
        }
        return LCDFile(
            layout: layout, station: station, coordinate: coordinate.map { (latitude: $0.0, longitude: $0.1) },
            observations: loaded.records, summaryRows: summaries, report: loaded.report,
            recordCount: table.records.count)
    }
}
