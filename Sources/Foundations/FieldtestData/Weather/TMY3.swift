import Foundation

/// Station metadata of a typical-meteorological-year file (TMY2 or TMY3).
public struct TMYStation: Sendable, Equatable {
    /// Station id (USAF for TMY3, WBAN for TMY2).
    public var id: String
    /// Station name.
    public var name: String
    /// US state.
    public var state: String
    /// Standard-time offset from UTC, hours (e.g. −9 for Alaska).
    public var utcOffsetHours: Double
    /// Latitude, degrees north.
    public var latitude: Double
    /// Longitude, degrees east.
    public var longitude: Double
    /// Elevation, metres.
    public var elevationM: Double
}

/// One hour of a TMY2/TMY3 file, SI units, time in UTC.
public struct TMYHour: Sendable, Equatable {
    /// Start of the hour the values describe, seconds since 1970-01-01T00:00:00Z.
    /// TMY rows are hour-ending local standard time: row `01:00` covers 00:00–01:00,
    /// so the start is the stamp minus one hour, minus the UTC offset.
    public var startUTC: Int
    /// Total sky cover, tenths (0…10); nil when missing.
    public var totalCloudTenths: Double?
    /// Opaque sky cover, tenths (0…10); nil when missing.
    public var opaqueCloudTenths: Double?
    /// Dry-bulb temperature, °C.
    public var temperatureC: Double?
    /// Dew point, °C.
    public var dewPointC: Double?
    /// Relative humidity, %.
    public var relativeHumidityPct: Double?
    /// Station pressure, hPa.
    public var pressureHPa: Double?
    /// Wind direction, degrees.
    public var windDirectionDeg: Double?
    /// Wind speed, m/s.
    public var windSpeedMps: Double?
    /// Horizontal visibility, km (nil when missing or unlimited; see `visibilityUnlimited`).
    public var visibilityKm: Double?
    /// Whether visibility was reported as unlimited.
    public var visibilityUnlimited: Bool
    /// Ceiling height, metres (nil when missing or unlimited).
    public var ceilingM: Double?
    /// Broadband aerosol optical depth (unitless).
    public var aerosolOpticalDepth: Double?
    /// Liquid precipitation depth in the period, mm (TMY3 only; nil when missing). NREL's
    /// file holds a few implausible depths (253, 254, 508 mm); they are kept as recorded.
    public var precipitationMm: Double?
    /// Hours the precipitation depth covers, ending with this hour (TMY3 `Lprecip quantity`;
    /// nil when missing or not stated).
    public var precipitationPeriodHours: Int?
    /// Global horizontal irradiance, W/m².
    public var ghiWm2: Double?
    /// Whether present weather reports precipitation or thunder (TMY2 only; false for TMY3).
    public var precipitationReported: Bool = false
    /// Whether present weather was observed this hour (TMY2 only; false for TMY3).
    public var presentWeatherObserved: Bool = false
}

/// A loaded TMY file.
public struct TMYFile: Sendable {
    /// Station metadata.
    public var station: TMYStation
    /// Hourly records in file order.
    public var hours: [TMYHour]
    /// Rows loaded/skipped.
    public var report: LoadReport
}

/// Reader of NREL TMY3 CSV files (station line, header line of 68 columns, 8,760 hourly rows).
///
/// Layout: NREL "Users Manual for TMY3 Data Sets" (Wilcox & Marion 2008, NREL/TP-581-43156).
/// `-9900` marks missing values; dates `MM/DD/YYYY`, times `HH:MM` hour-ending 01:00…24:00.
public enum TMY3Loader {
    /// Loads and validates `url`.
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> TMYFile
    {
        let table = try CSVTable(url: url, displayName: displayName, headerRecord: 2)
        guard let meta = table.preamble.first, meta.fields.count >= 7 else {
            throw .badLayout(
                file: table.file, line: 1, reason: "expected station line 'id,name,state,utc_offset,lat,lon,elev'")
        }
        let f = meta.fields
        func num(_ i: Int, _ name: String, _ range: ClosedRange<Double>) throws(DataError) -> Double {
            try FieldParser.double(f[i], field: name, in: range, file: table.file, line: meta.line)
        }
        let station = TMYStation(
            id: f[0], name: f[1], state: f[2], utcOffsetHours: try num(3, "utc_offset", -12...14),
            latitude: try num(4, "latitude", -90...90), longitude: try num(5, "longitude", -180...180),
            elevationM: try num(6, "elevation", -500...9000))
        let offset = Int((station.utcOffsetHours * 3600).rounded())
        try table.require([
            "Date (MM/DD/YYYY)", "Time (HH:MM)", "TotCld (tenths)", "OpqCld (tenths)", "Dry-bulb (C)",
            "Dew-point (C)", "RHum (%)", "Pressure (mbar)", "Wdir (degrees)", "Wspd (m/s)", "Hvis (m)",
            "CeilHgt (m)", "AOD (unitless)", "Lprecip depth (mm)", "GHI (W/m^2)",
        ])
        let missing: Set<String> = ["-9900", "-9900.0"]
        let loaded = try table.load(policy: policy) { (row) throws(DataError) -> TMYHour? in
            let dateText = try row.string("Date (MM/DD/YYYY)")
            let dp = dateText.split(separator: "/", omittingEmptySubsequences: false)
            guard dp.count == 3, let m = Int(dp[0]), let d = Int(dp[1]), let y = Int(dp[2]),
                let date = CivilDate(year: y, month: m, day: d)
            else {
                throw row.invalid("Date (MM/DD/YYYY)", "expected an existing date MM/DD/YYYY")
            }
            let tp = try row.string("Time (HH:MM)").split(separator: ":", omittingEmptySubsequences: false)
            guard tp.count == 2, let hh = Int(tp[0]), let mm = Int(tp[1]), (1...24).contains(hh), (0...59).contains(mm)
            else {
                throw row.invalid("Time (HH:MM)", "expected hour-ending HH:MM with HH 01…24")
            }
            let stamp = CivilTime.epochSeconds(date, hour: hh, minute: mm)
            func v(_ c: String, _ r: ClosedRange<Double>) throws(DataError) -> Double? {
                try row.optionalDouble(c, in: r, missing: missing)
            }
            let hvis = try v("Hvis (m)", 0...200_000)
            let ceil = try v("CeilHgt (m)", 0...77777)
            return TMYHour(
                startUTC: stamp - 3600 - offset,
                totalCloudTenths: try v("TotCld (tenths)", 0...10),
                opaqueCloudTenths: try v("OpqCld (tenths)", 0...10),
                temperatureC: try v("Dry-bulb (C)", -70...60), dewPointC: try v("Dew-point (C)", -80...40),
                relativeHumidityPct: try v("RHum (%)", 0...100), pressureHPa: try v("Pressure (mbar)", 500...1100),
                windDirectionDeg: try v("Wdir (degrees)", 0...360), windSpeedMps: try v("Wspd (m/s)", 0...100),
                visibilityKm: hvis.map { $0 / 1000 }, visibilityUnlimited: false,
                ceilingM: ceil == 77777 ? nil : ceil,
                aerosolOpticalDepth: try v("AOD (unitless)", 0...5),
                precipitationMm: try v("Lprecip depth (mm)", 0...1000),
                precipitationPeriodHours: try v("Lprecip quantity (hr)", 0...99).map { Int($0) },
                ghiWm2: try v("GHI (W/m^2)", 0...1500))
        }
        return TMYFile(station: station, hours: loaded.records, report: loaded.report)
    }
}
