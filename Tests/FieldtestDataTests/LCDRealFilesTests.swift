import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// Raw excerpts of the NCEI files (`Fixtures/weather/*_raw.csv`: the first lines of the bundled
/// Lincoln and Rota recordings as downloaded, FM-12, FM-16, SOD and SOM rows included; the
/// Sand Point TMY3 file's station line, header and a wet morning).
@Suite("LCD and TMY3 files as downloaded")
struct LCDRealFilesTests {
    static func fixture(_ name: String) throws -> URL {
        let base = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return base.appendingPathComponent("weather").appendingPathComponent(name)
    }

    /// Places with zones around the two stations, as a GeoNames table would give them.
    static let places = [
        Place(
            geonameID: 5_072_006, name: "Lincoln", countryCode: "US", admin1: "NE", latitude: 40.8, longitude: -96.667,
            population: 291_082, timeZone: "America/Chicago"),
        Place(
            geonameID: 2_511_700, name: "Rota", countryCode: "ES", admin1: "51", latitude: 36.6177,
            longitude: -6.3575, population: 29_000, timeZone: "Europe/Madrid"),
        Place(
            geonameID: 5_419_384, name: "Denver", countryCode: "US", admin1: "CO", latitude: 39.739,
            longitude: -104.985, population: 715_522, timeZone: "America/Denver"),
    ]
    /// Rota's entry of NOAA's station history (the v1 file has no coordinates).
    static let rotaStation = ISDStation(
        usaf: "084490", wban: "13025", name: "ROTA", country: "SP", state: "", call: "LERT", latitude: 36.65,
        longitude: -6.35, elevationM: 25.6, begin: nil, end: nil, locationGarbled: false)

    @Test func lincolnReadsEveryReportTypeInItsOwnZone() throws {
        let f = try NOAALCDLoader.load(
            url: Self.fixture("lcd_v2_lincoln_raw.csv"), displayName: "lincoln.csv",
            timeBase: .station(stations: [], places: Self.places))
        #expect(f.layout == .v2 && f.units == .metric)
        #expect(f.timeZone == "America/Chicago" && f.utcOffsetSeconds == -21_600)
        #expect(f.report.rowsSkipped == 0)
        #expect(f.summaryRows == 3)  // 2 SOD + 1 SOM
        #expect(f.observations.count == 56)
        #expect(f.observations.filter { $0.reportType == .synop }.count == 7)
        #expect(f.observations.filter { $0.reportType == .special }.count == 9)
        #expect(f.observations.contains { $0.precipitationTrace })
        // The first row: FM-12 SYNOP at local midnight, 06:00Z, −2.2 °C.
        let synop = f.observations[0]
        #expect(synop.reportType == .synop && CivilTime.isoUTC(synop.timeUTC) == "2023-01-01T06:00:00Z")
        #expect(abs((synop.temperatureC ?? .nan) + 2.2) < 1e-9)
    }

    @Test func rotaIsPlacedByItsStationIDAndReadInMadridStandardTime() throws {
        let f = try NOAALCDLoader.load(
            url: Self.fixture("lcd_v1_rota_raw.csv"), displayName: "rota.csv",
            timeBase: .station(stations: [Self.rotaStation], places: Self.places))
        #expect(f.layout == .v1 && f.units == .imperial)
        #expect(f.timeZone == "Europe/Madrid" && f.utcOffsetSeconds == 3600)
        #expect(f.coordinate?.latitude == 36.65)
        #expect(f.summaryRows == 1)
        #expect(f.observations.contains { $0.hasSuspectValue })
        #expect(f.report.rowsSkipped == 0)
    }

    /// Without coordinates and with no station list entry there is nothing to place the
    /// station by: the message says what to declare.
    @Test func anUnplaceableStationAsksForADeclaredZone() throws {
        #expect {
            try NOAALCDLoader.load(
                url: Self.fixture("lcd_v1_rota_raw.csv"), displayName: "rota.csv",
                timeBase: .station(stations: [], places: Self.places))
        } throws: { error in
            (error as? DataError)?.description.contains("declare 'utc_offset'") == true
        }
    }

    @Test func aDeclaredZoneOrOffsetWins() throws {
        let url = try Self.fixture("lcd_v1_rota_raw.csv")
        let zoned = try NOAALCDLoader.load(url: url, timeBase: .zone("Atlantic/Canary"))
        #expect(zoned.utcOffsetSeconds == 0 && zoned.timeZone == "Atlantic/Canary")
        let offset = try NOAALCDLoader.load(url: url, timeBase: .offsetSeconds(7200))
        #expect(offset.observations[0].timeUTC == zoned.observations[0].timeUTC - 7200)
        #expect(throws: DataError.self) { try NOAALCDLoader.load(url: url, timeBase: .zone("CET+1")) }
    }

    /// Adding LATITUDE/LONGITUDE columns to a v1 file places it but keeps v1's units.
    @Test func coordinateColumnsDoNotChangeUnits() throws {
        let raw = try String(contentsOf: Self.fixture("lcd_v1_rota_raw.csv"), encoding: .utf8)
        let edited =
            raw.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { i, line -> String in
                guard !line.isEmpty else { return String(line) }
                let fields = line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
                let inserted = i == 0 ? "LATITUDE,LONGITUDE" : "36.65,-6.35"
                return "\(fields[0]),\(fields[1]),\(inserted),\(fields[2])"
            }.joined(separator: "\n")
        let dir = TemporaryFiles.url("lcd")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("rota_with_coordinates.csv")
        try edited.write(to: url, atomically: true, encoding: .utf8)
        let plain = try NOAALCDLoader.load(
            url: Self.fixture("lcd_v1_rota_raw.csv"),
            timeBase: .station(stations: [Self.rotaStation], places: Self.places))
        let placed = try NOAALCDLoader.load(url: url, timeBase: .station(stations: [], places: Self.places))
        #expect(placed.layout == .v1 && placed.units == .imperial)
        #expect(placed.coordinate?.latitude == 36.65)
        #expect(placed.observations.map(\.temperatureC) == plain.observations.map(\.temperatureC))
        #expect(placed.observations.map(\.timeUTC) == plain.observations.map(\.timeUTC))
    }

    /// A row that cannot be read is skipped and counted (with its reason), or, strictly, an
    /// error at its file:line.
    @Test func unusableRowsAreSkippedOrStrictErrors() throws {
        let raw = try String(contentsOf: Self.fixture("lcd_v2_lincoln_raw.csv"), encoding: .utf8)
        let broken = raw.replacingOccurrences(of: ",FM-15,", with: ",FM-99,")
        let dir = TemporaryFiles.url("lcd")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("broken.csv")
        try broken.write(to: url, atomically: true, encoding: .utf8)
        let lenient = try NOAALCDLoader.load(url: url, displayName: "broken.csv", timeBase: .offsetSeconds(-21_600))
        #expect(lenient.report.rowsSkipped == 40)
        #expect(lenient.report.issues.first?.line != nil)
        #expect(lenient.observations.count == 16)
        #expect {
            try NOAALCDLoader.load(
                url: url, displayName: "broken.csv", timeBase: .offsetSeconds(-21_600), policy: .strict)
        } throws: { error in
            guard case .invalidField(let file, let line, let field, _, _) = error as? DataError else { return false }
            return file == "broken.csv" && line > 1 && field == "REPORT_TYPE"
        }
    }

    @Test(arguments: [("8", 0), ("FEW:02 25 8", 1), ("BKN:07 25s 7 OVC:08 80", 2), ("  9 ", 0)])
    func synopBareNumbersAreNotLayers(cell: String, layers: Int) throws {
        let sky = try SkyCondition.parse(cell, unit: .hundredsOfFeet)
        #expect((sky?.layers.count ?? 0) == layers)
    }

    @Test func flagsAreUnderstood() throws {
        // V (variable), A (accumulated) and s (suspect) suffixes, M and * as missing.
        let header =
            "STATION,DATE,REPORT_TYPE,HourlyDryBulbTemperature,HourlyDewPointTemperature,HourlyRelativeHumidity,"
            + "HourlyVisibility,HourlyPrecipitation,HourlyWindSpeed,HourlyWindDirection,HourlySkyConditions,"
            + "HourlyPresentWeatherType,AWND"
        let rows = [
            "X,2020-01-01T00:00:00,FM-15,50s,40,70,5.00V,0.02A,5,VRB,CLR:00,,",
            "X,2020-01-01T01:00:00,FM-15,M,*,70,10.00,Ts,5,999,,,",
        ]
        let table = try CSVTable(bytes: Array(([header] + rows).joined(separator: "\n").utf8), file: "flags.csv")
        let f = try NOAALCDLoader.load(table: table, utcOffsetSeconds: 0, policy: .strict)
        #expect(f.observations.count == 2)
        #expect(f.observations[0].hasSuspectValue && abs((f.observations[0].temperatureC ?? .nan) - 10) < 1e-9)
        #expect(abs((f.observations[0].precipitationMm ?? .nan) - 0.508) < 1e-9)
        #expect(f.observations[1].temperatureC == nil && f.observations[1].dewPointC == nil)
        #expect(f.observations[1].precipitationTrace && f.observations[1].windDirectionDeg == nil)
    }

    @Test func tmy3PrecipitationPeriodsAreRead() throws {
        let f = try TMY3Loader.load(url: Self.fixture("tmy3_sandpoint_raw.csv"), displayName: "tmy3.csv")
        #expect(f.hours.count == 21)
        let six = try #require(f.hours.first { $0.precipitationMm == 1 && $0.precipitationPeriodHours == 3 })
        #expect(six.precipitationPeriodHours == 3)
        #expect(f.hours.filter { $0.precipitationMm != nil }.count == 11)
    }
}
