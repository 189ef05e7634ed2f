import Foundation

/// Reader of NREL TMY2 fixed-width files (header line + 8,760 hourly records).
///
/// Column positions follow NREL's "User's Manual for TMY2s" (Marion & Urban 1995,
/// doi:10.2172/87130), as also encoded in pvlib's `read_tmy2`. Units in the file:
/// temperatures 0.1 °C, wind 0.1 m/s, visibility 0.1 km (7777 unlimited, 9999 missing),
/// ceiling m (77777 unlimited, 88888 cirroform, 99999 missing), AOD 0.001, cloud tenths
/// (99 missing). Years are two-digit 19xx; hours are hour-ending local standard time 1…24.
public enum TMY2Loader {
    /// Field widths after the leading blank column, in file order.
    static let widths = [
        2, 2, 2, 2, 4, 4, 4, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1, 1, 4, 1, 1, 2, 1, 1, 2, 1, 1,
        4, 1, 1, 4, 1, 1, 3, 1, 1, 4, 1, 1, 3, 1, 1, 3, 1, 1, 4, 1, 1, 5, 1, 1, 10, 3, 1, 1, 3, 1, 1,
        3, 1, 1, 2, 1, 1,
    ]
    /// Indices into `widths` of the fields used.
    enum F {
        static let year = 0, month = 1, day = 2, hour = 3, ghi = 6, totCld = 27, opqCld = 30, dryBulb = 33,
            dewPoint = 36, rh = 39, pressure = 42, wdir = 45, wspd = 48, hvis = 51, ceil = 54,
            weather = 57, aod = 61
    }
    /// Length of a data record in characters.
    static let recordLength = 1 + widths.reduce(0, +)

    /// Loads and validates `url`.
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> TMYFile
    {
        let name = displayName ?? url.path
        var report = LoadReport()
        let lines = try TextLines.nonEmpty(url, displayName: name, policy: policy, report: &report)
        guard let head = lines.first else { throw .empty(file: name) }
        let station = try parseHeader(head, file: name)
        let offset = Int((station.utcOffsetHours * 3600).rounded())
        var hours: [TMYHour] = []
        hours.reserveCapacity(lines.count)
        for line in lines.dropFirst() {
            do throws(DataError) {
                hours.append(try parseRecord(line, file: name, utcOffset: offset))
                report.rowsLoaded += 1
            } catch {
                guard policy == .lenient else { throw error }
                report.record(error)
            }
        }
        return TMYFile(station: station, hours: hours, report: report)
    }

    static func parseHeader(_ line: TextLine, file: String) throws(DataError) -> TMYStation {
        let t = line.text.split(separator: " ")
        guard t.count >= 10 else {
            throw .badLayout(
                file: file, line: line.number, reason: "expected TMY2 header 'WBAN CITY ST TZ N dd mm W ddd mm elev'")
        }
        // City names may contain spaces: the last 8 tokens are fixed.
        let n = t.count
        func num(_ s: Substring, _ field: String, _ r: ClosedRange<Double>) throws(DataError) -> Double {
            try FieldParser.double(String(s), field: field, in: r, file: file, line: line.number)
        }
        let tz = try num(t[n - 8], "TZ", -12...14)
        let latSign: Double = t[n - 7] == "S" ? -1 : 1
        let lonSign: Double = t[n - 4] == "W" ? -1 : 1
        guard ["N", "S"].contains(t[n - 7]), ["E", "W"].contains(t[n - 4]) else {
            throw .badLayout(file: file, line: line.number, reason: "hemisphere letters must be N/S and E/W")
        }
        let lat =
            latSign * (try num(t[n - 6], "latitude", 0...90) + (try num(t[n - 5], "latitude minutes", 0...59)) / 60)
        let lon =
            lonSign * (try num(t[n - 3], "longitude", 0...180) + (try num(t[n - 2], "longitude minutes", 0...59)) / 60)
        return TMYStation(
            id: String(t[0]), name: t[1..<(n - 9)].joined(separator: " "), state: String(t[n - 9]),
            utcOffsetHours: tz, latitude: lat, longitude: lon,
            elevationM: try num(t[n - 1], "elevation", -500...9000))
    }

    static func parseRecord(_ line: TextLine, file: String, utcOffset: Int) throws(DataError) -> TMYHour {
        let chars = Array(line.text.utf8)
        guard chars.count == recordLength else {
            throw .badLayout(
                file: file, line: line.number,
                reason: "TMY2 record must be \(recordLength) characters, found \(chars.count)")
        }
        var fields: [Substring] = []
        fields.reserveCapacity(widths.count)
        var cursor = 1
        for w in widths {
            fields.append(Substring(String(decoding: chars[cursor..<(cursor + w)], as: UTF8.self)))
            cursor += w
        }
        func int(_ i: Int, _ name: String, _ r: ClosedRange<Int>) throws(DataError) -> Int {
            try FieldParser.int(String(fields[i]), field: name, in: r, file: file, line: line.number)
        }
        let y = 1900 + (try int(F.year, "year", 0...99))
        guard
            let date = CivilDate(year: y, month: try int(F.month, "month", 1...12), day: try int(F.day, "day", 1...31))
        else {
            throw .invalidField(
                file: file, line: line.number, field: "day", value: String(fields[F.day]), reason: "no such date")
        }
        let hour = try int(F.hour, "hour", 1...24)
        func scaled(_ i: Int, _ name: String, _ r: ClosedRange<Int>, _ scale: Double, missing: Set<Int>)
            throws(DataError) -> Double?
        {
            let v = try FieldParser.int(String(fields[i]), field: name, in: nil, file: file, line: line.number)
            if missing.contains(v) { return nil }
            guard r.contains(v) else {
                throw .invalidField(
                    file: file, line: line.number, field: name, value: String(fields[i]),
                    reason: "outside \(r.lowerBound)…\(r.upperBound)")
            }
            return Double(v) * scale
        }
        let hvisRaw = try int(F.hvis, "Hvis", 0...9999)
        let ceilRaw = try int(F.ceil, "CeilHgt", 0...99999)
        let weather = fields[F.weather]
        guard weather.count == 10, weather.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .invalidField(
                file: file, line: line.number, field: "PresentWeather", value: String(weather),
                reason: "expected 10 digits")
        }
        // Present weather (TMY2 manual): digit 1 is the observation indicator (0 observed, 9 not);
        // digits 2–7 and 10 are thunder, rain, drizzle, snow, snow showers, sleet/hail and ice
        // pellets, 9 = none; digits 8–9 (fog, haze) are not precipitation.
        let w = Array(weather)
        let observed = w[0] == "0"
        let precip = observed && [1, 2, 3, 4, 5, 6, 9].contains { w[$0] != "9" }
        return TMYHour(
            startUTC: CivilTime.epochSeconds(date, hour: hour - 1, minute: 0) - utcOffset,
            totalCloudTenths: try scaled(F.totCld, "TotCld", 0...10, 1, missing: [99]),
            opaqueCloudTenths: try scaled(F.opqCld, "OpqCld", 0...10, 1, missing: [99]),
            temperatureC: try scaled(F.dryBulb, "DryBulb", -700...600, 0.1, missing: [9999]),
            dewPointC: try scaled(F.dewPoint, "DewPoint", -800...400, 0.1, missing: [9999]),
            relativeHumidityPct: try scaled(F.rh, "RHum", 0...100, 1, missing: [999]),
            pressureHPa: try scaled(F.pressure, "Pressure", 500...1100, 1, missing: [9999]),
            windDirectionDeg: try scaled(F.wdir, "Wdir", 0...360, 1, missing: [999]),
            windSpeedMps: try scaled(F.wspd, "Wspd", 0...1000, 0.1, missing: [9999]),
            visibilityKm: hvisRaw == 7777 || hvisRaw == 9999 ? nil : Double(hvisRaw) / 10,
            visibilityUnlimited: hvisRaw == 7777,
            ceilingM: ceilRaw >= 77777 ? nil : Double(ceilRaw),
            aerosolOpticalDepth: try scaled(F.aod, "AOD", 0...5000, 0.001, missing: [999]),
            precipitationMm: nil,
            ghiWm2: try scaled(F.ghi, "GHI", 0...1500, 1, missing: [9999]),
            precipitationReported: precip, presentWeatherObserved: observed)
    }
}
