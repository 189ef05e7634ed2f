import Foundation

/// One station of NOAA's Integrated Surface Database station history (`isd-history.csv`).
public struct ISDStation: Sendable, Equatable {
    /// Air Force station id, 6 characters (digits, or `A` + 5 digits for newer ids; `999999` when none).
    public var usaf: String
    /// WBAN id, 5 digits (`99999` when none).
    public var wban: String
    /// Station name.
    public var name: String
    /// FIPS country code.
    public var country: String
    /// US state, when any.
    public var state: String
    /// ICAO call sign, when any.
    public var call: String
    /// Latitude, degrees (nil when blank or unreadable in the file).
    public var latitude: Double?
    /// Longitude, degrees (nil when blank or unreadable).
    public var longitude: Double?
    /// Elevation, metres (nil when blank, unreadable or the −999.9 sentinel).
    public var elevationM: Double?
    /// First and last day with data (nil when blank).
    public var begin: CivilDate?
    /// Last day with data.
    public var end: CivilDate?
    /// Whether a coordinate field was present but garbled (not a number), so the
    /// location is unknown. NOAA's file has such rows (e.g. lines 3856 and 11571 of
    /// the bundled copy, where fields are shifted); they are kept but never located.
    public var locationGarbled: Bool

    /// The 11-character LCD station id (`USAF` + `WBAN`).
    public var lcdID: String { usaf + wban }
}

/// Loader and lookups for `isd-history.csv`.
public enum ISDHistoryLoader {
    /// Loads the station list. Numbers outside their ranges (|lat| > 90, |lon| > 180),
    /// bad ids, bad dates and wrong column counts are located errors; a coordinate
    /// field that is not a number at all marks the station `locationGarbled`.
    public static func load(url: URL, displayName: String? = nil, policy: LoadPolicy = .strict) throws(DataError)
        -> Loaded<ISDStation>
    {
        let table = try CSVTable(url: url, displayName: displayName)
        try table.require([
            "USAF", "WBAN", "STATION NAME", "CTRY", "ST", "CALL", "LAT", "LON", "ELEV(M)", "BEGIN", "END",
        ])
        return try table.load(policy: policy) { (row) throws(DataError) -> ISDStation? in
            let usaf = try row.string("USAF")
            let wban = try row.string("WBAN")
            guard usaf.count == 6, usaf.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isUppercase) }) else {
                throw row.invalid("USAF", "expected 6 digits or upper-case letters (e.g. 084490, A00002)")
            }
            guard wban.count == 5, wban.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw row.invalid("WBAN", "expected 5 digits")
            }
            var garbled = false
            func coordinate(_ column: String, _ range: ClosedRange<Double>) throws(DataError) -> Double? {
                guard let raw = row.optionalString(column) else { return nil }
                guard let v = Double(raw), v.isFinite else {
                    garbled = true
                    return nil
                }
                guard range.contains(v) else {
                    throw row.invalid(column, "outside \(range.lowerBound)…\(range.upperBound)")
                }
                return v
            }
            let lat = try coordinate("LAT", -90...90)
            let lon = try coordinate("LON", -180...180)
            var elev = try coordinate("ELEV(M)", -999.9...9000)
            if let e = elev, e <= -999 { elev = nil }
            func date(_ column: String) throws(DataError) -> CivilDate? {
                guard let raw = row.optionalString(column) else { return nil }
                guard let d = CivilDate(iso: Substring(raw)) else { throw row.invalid(column, "expected YYYY-MM-DD") }
                return d
            }
            return ISDStation(
                usaf: usaf, wban: wban, name: try row.string("STATION NAME"), country: try row.string("CTRY"),
                state: try row.string("ST"), call: try row.string("CALL"), latitude: garbled ? nil : lat,
                longitude: garbled ? nil : lon, elevationM: garbled ? nil : elev,
                begin: try date("BEGIN"), end: try date("END"), locationGarbled: garbled)
        }
    }

    /// The station matching an LCD station id: an 11-digit `USAF+WBAN` id, or a GHCN
    /// id such as `USW00014939` whose last five digits are the WBAN number.
    /// O(n) in the number of stations.
    public static func station(forLCD id: String, in stations: [ISDStation]) -> ISDStation? {
        if id.count == 11, id.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return stations.first { $0.lcdID == id }
        }
        let wban = String(id.suffix(5))
        guard wban != "99999" else { return nil }
        return stations.first { $0.wban == wban && $0.latitude != nil }
    }
}
