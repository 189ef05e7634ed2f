import Foundation
import Testing

@testable import FieldtestData

/// URL of a weather fixture.
private func weatherFixture(_ name: String) throws -> URL {
    let base = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return base.appendingPathComponent("weather").appendingPathComponent(name)
}

/// Unit conversions are exact up to floating rounding; 1e-6 absorbs that.
private let tol = 1e-6

@Suite("Sky conditions")
struct SkyConditionTests {
    @Test func parsesLayersAndSplitsByHeight() throws {
        let sky = try #require(try SkyCondition.parse("FEW:02 40 SCT:04 100 BKN:07 250s", unit: .hundredsOfFeet))
        #expect(sky.layers.count == 3)
        #expect(sky.layers[2].suspect)
        let c = sky.cover
        #expect(abs(c.lowPct - 25) < tol)  // 4,000 ft
        #expect(abs(c.midPct - 50) < tol)  // 10,000 ft
        #expect(abs(c.highPct - 87.5) < tol)  // 25,000 ft
        #expect(abs(c.totalPct - 87.5) < tol)
    }

    @Test func metricHeightsAreHundredsOfMetres() throws {
        // 33.53 hundreds of metres = 11,000 ft (METAR SCT110 in the same row of the Lincoln file).
        let sky = try #require(try SkyCondition.parse("SCT:04 33.53", unit: .hundredsOfMetres))
        let feet = try #require(sky.layers.first?.baseFeet)
        #expect(abs(feet - 11_000) < 1)
        #expect(abs(sky.cover.midPct - 50) < tol)
        #expect(sky.cover.lowPct < tol)
    }

    @Test func clearAndObscured() throws {
        let clr = try #require(try SkyCondition.parse("CLR:00", unit: .hundredsOfFeet))
        #expect(clr.cover.totalPct < tol)
        let vv = try #require(try SkyCondition.parse("VV:09 1", unit: .hundredsOfFeet))
        #expect(abs(vv.cover.lowPct - 100) < tol)
        #expect(try SkyCondition.parse("", unit: .hundredsOfFeet) == nil)
    }

    @Test(arguments: ["XYZ:02 40", "FEW:12 40", "FEW:02", "FEW:02 -4", "FEW02 40"])
    func rejectsMalformed(_ text: String) {
        #expect(throws: SkyParseError.self) { try SkyCondition.parse(text, unit: .hundredsOfFeet) }
    }
}

@Suite("NOAA LCD loader")
struct NOAALCDLoaderTests {
    @Test func v1ImperialRowsBecomeSIAndUTC() throws {
        let f = try NOAALCDLoader.load(
            url: weatherFixture("lcd_v1_valid.csv"), displayName: "v1.csv", utcOffsetSeconds: 3600)
        #expect(f.layout == .v1)
        #expect(f.coordinate == nil)
        #expect(f.observations.count == 6)
        #expect(f.summaryRows == 1)
        #expect(f.recordCount == 7)
        let o = f.observations[1]  // 2018-01-01T02:00 local = 01:00Z
        #expect(CivilTime.isoUTC(o.timeUTC) == "2018-01-01T01:00:00Z")
        #expect(abs((o.temperatureC ?? .nan) - 10) < tol)  // 50 °F
        #expect(abs((o.visibilityKm ?? .nan) - 6.21 * 1.609344) < tol)
        #expect(abs((o.windSpeedMps ?? .nan) - 3 * 0.44704) < tol)
        #expect(abs((o.windDirectionDeg ?? .nan) - 50) < tol)
        #expect(abs((o.relativeHumidityPct ?? .nan) - 94) < tol)
        #expect(abs((o.sky?.cover.lowPct ?? .nan) - 25) < tol)
        #expect(f.observations[4].windDirectionDeg == nil)  // VRB
        #expect(f.observations[0].sky?.layers.isEmpty ?? true)  // blank cell: no layers
    }

    @Test func v2MetricRowsKeepUnitsAndCoordinates() throws {
        let f = try NOAALCDLoader.load(
            url: weatherFixture("lcd_v2_valid.csv"), displayName: "v2.csv", utcOffsetSeconds: -21_600)
        #expect(f.layout == .v2)
        #expect(abs((f.coordinate?.latitude ?? .nan) - 40.8508) < tol)
        #expect(abs((f.coordinate?.longitude ?? .nan) + 96.7475) < tol)
        #expect(f.summaryRows == 2)
        #expect(f.observations.count == 9)
        let o = f.observations[1]  // 2023-01-01T00:54 CST = 06:54Z (METAR 010654Z)
        #expect(CivilTime.isoUTC(o.timeUTC) == "2023-01-01T06:54:00Z")
        #expect(o.reportType == .routine)
        #expect(abs((o.temperatureC ?? .nan) + 3.3) < tol)
        #expect(abs((o.visibilityKm ?? .nan) - 12.875) < tol)
        #expect(abs((o.windSpeedMps ?? .nan) - 2.6) < tol)
        #expect(abs((o.precipitationMm ?? .nan)) < tol)
        #expect(abs((f.observations[4].sky?.cover.midPct ?? .nan) - 50) < tol)  // SCT at 11,000 ft
    }

    @Test func unknownSkyCodeIsLocated() throws {
        #expect(
            throws: DataError.invalidField(
                file: "bad.csv", line: 3, field: "HourlySkyConditions", value: "XYZ:02 40",
                reason: "unknown sky cover code 'XYZ' (expected CLR, FEW, SCT, BKN, OVC or VV)")
        ) {
            try NOAALCDLoader.load(
                url: weatherFixture("lcd_v1_bad_sky.csv"), displayName: "bad.csv", utcOffsetSeconds: 3600)
        }
    }

    @Test func nanTemperatureIsLocated() throws {
        #expect(
            throws: DataError.invalidField(
                file: "nan.csv", line: 2, field: "HourlyDryBulbTemperature", value: "NaN",
                reason: "not a finite number")
        ) {
            try NOAALCDLoader.load(
                url: weatherFixture("lcd_v2_nan_temp.csv"), displayName: "nan.csv", utcOffsetSeconds: 0)
        }
    }

    @Test func shortRowStrictFailsLenientSkips() throws {
        let url = try weatherFixture("lcd_v2_short_row.csv")
        #expect(throws: DataError.wrongColumnCount(file: "s.csv", line: 5, expected: 125, found: 122)) {
            try NOAALCDLoader.load(url: url, displayName: "s.csv", utcOffsetSeconds: 0)
        }
        let f = try NOAALCDLoader.load(url: url, displayName: "s.csv", utcOffsetSeconds: 0, policy: .lenient)
        #expect(f.report.rowsSkipped == 1)
        #expect(f.observations.count == 8)
    }

    @Test func bundledFilesLoadStrictly() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Datasets/weather")
        let rota = try NOAALCDLoader.load(
            url: root.appendingPathComponent("LCD_08449013025_Rota_2018.csv"), utcOffsetSeconds: 3600)
        #expect(rota.recordCount == 9049)
        #expect(rota.summaryRows == 35)
        #expect(rota.observations.filter { $0.sky != nil }.count > 4000)
        let lincoln = try NOAALCDLoader.load(
            url: root.appendingPathComponent("LCD_USW00014939_Lincoln_2023JanFeb.csv"),
            utcOffsetSeconds: -21_600)
        #expect(lincoln.recordCount == 1999)
        #expect(lincoln.observations.contains { $0.precipitationTrace })
    }
}

@Suite("ISD station history")
struct ISDHistoryLoaderTests {
    @Test func loadsStationsAndFlagsGarbledRows() throws {
        let l = try ISDHistoryLoader.load(url: weatherFixture("isd_valid.csv"), displayName: "isd.csv")
        #expect(l.records.count == 6)
        #expect(l.records[0].latitude == nil)  // BOGUS NORWAY: blank
        #expect(abs((l.records[1].latitude ?? .nan) - 70.933) < tol)
        #expect(l.records[5].locationGarbled)  // SANDSPIT: shifted fields
        #expect(l.records[5].longitude == nil)
    }

    @Test func outOfRangeLatitudeIsLocated() throws {
        #expect(
            throws: DataError.invalidField(
                file: "i.csv", line: 4, field: "LAT", value: "+99.792", reason: "outside -90.0…90.0")
        ) {
            try ISDHistoryLoader.load(url: weatherFixture("isd_bad_lat.csv"), displayName: "i.csv")
        }
    }

    @Test func findsRotaForItsLCDStation() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Datasets/weather")
        let all = try ISDHistoryLoader.load(url: root.appendingPathComponent("isd-history.csv")).records
        let rota = try #require(ISDHistoryLoader.station(forLCD: "08449013025", in: all))
        #expect(rota.call == "LERT")
        #expect(abs((rota.latitude ?? .nan) - 36.65) < tol)
        let lincoln = try #require(ISDHistoryLoader.station(forLCD: "USW00014939", in: all))
        #expect(abs((lincoln.latitude ?? .nan) - 40.851) < 0.01)
    }
}

@Suite("TMY loaders")
struct TMYLoaderTests {
    @Test func tmy3StationAndHourEndingTimes() throws {
        let f = try TMY3Loader.load(url: weatherFixture("tmy3_valid.csv"), displayName: "t3.csv")
        #expect(f.station.name == "SAND POINT")
        #expect(abs(f.station.utcOffsetHours + 9) < tol)
        #expect(f.hours.count == 24)
        // Row 01/01/1997 01:00 (AKST, UTC−9) covers 00:00–01:00 local = 09:00Z.
        #expect(CivilTime.isoUTC(f.hours[0].startUTC) == "1997-01-01T09:00:00Z")
        #expect(abs((f.hours[0].totalCloudTenths ?? .nan) - 9) < tol)
        #expect(f.hours[0].visibilityKm == nil)  // -9900
        #expect(abs((f.hours[0].aerosolOpticalDepth ?? .nan) - 0.051) < tol)
        // 24:00 is the last hour of the day.
        #expect(CivilTime.isoUTC(f.hours[23].startUTC) == "1997-01-02T08:00:00Z")
    }

    @Test func tmy3BadCloudAndDateAreLocated() throws {
        #expect(
            throws: DataError.invalidField(
                file: "c.csv", line: 6, field: "TotCld (tenths)", value: "11", reason: "outside 0…10")
        ) {
            try TMY3Loader.load(url: weatherFixture("tmy3_bad_cloud.csv"), displayName: "c.csv")
        }
        #expect(
            throws: DataError.invalidField(
                file: "d.csv", line: 7, field: "Date (MM/DD/YYYY)", value: "02/30/1997",
                reason: "expected an existing date MM/DD/YYYY")
        ) {
            try TMY3Loader.load(url: weatherFixture("tmy3_bad_date.csv"), displayName: "d.csv")
        }
    }

    @Test func tmy2FixedWidthFields() throws {
        let f = try TMY2Loader.load(url: weatherFixture("tmy2_valid.tm2"), displayName: "t2.tm2")
        #expect(f.station.id == "12839")
        #expect(abs(f.station.latitude - 25.8) < tol)
        #expect(abs(f.station.longitude + (80 + 16.0 / 60)) < tol)
        #expect(f.hours.count == 24)
        let h = f.hours[0]
        #expect(CivilTime.isoUTC(h.startUTC) == "1962-01-01T05:00:00Z")
        // pvlib read_tmy2 on this row: TotCld 7, OpqCld 3, DryBulb 200 (0.1 °C), RHum 73, Wspd 31? see fixture
        #expect(abs((h.totalCloudTenths ?? .nan) - 7) < tol)
        #expect(abs((h.opaqueCloudTenths ?? .nan) - 3) < tol)
        #expect(abs((h.temperatureC ?? .nan) - 20.0) < tol)
        #expect(abs((h.relativeHumidityPct ?? .nan) - 73) < tol)
        #expect(abs((h.aerosolOpticalDepth ?? .nan) - 0.062) < tol)
    }

    @Test func tmy2MalformedRecordsAreLocated() throws {
        #expect(
            throws: DataError.badLayout(file: "s.tm2", line: 4, reason: "TMY2 record must be 142 characters, found 138")
        ) {
            try TMY2Loader.load(url: weatherFixture("tmy2_short.tm2"), displayName: "s.tm2")
        }
        #expect(
            throws: DataError.invalidField(file: "c.tm2", line: 5, field: "TotCld", value: "12", reason: "outside 0…10")
        ) {
            try TMY2Loader.load(url: weatherFixture("tmy2_bad_cloud.tm2"), displayName: "c.tm2")
        }
    }
}

@Suite("Daily and air-quality loaders")
struct DailyAndAirLoaderTests {
    @Test func seattleDays() throws {
        let l = try SeattleDailyLoader.load(url: weatherFixture("seattle_valid.csv"))
        #expect(l.records.count == 10)
        #expect(l.records[1].label == .rain)
        #expect(abs(l.records[1].precipitationMm - 10.9) < tol)
        #expect(l.records[0].date == CivilDate(year: 2012, month: 1, day: 1))
    }

    @Test func seattleUnknownLabelAndBadUTF8() throws {
        #expect(
            throws: DataError.invalidField(
                file: "s.csv", line: 5, field: "weather", value: "hail",
                reason: "unknown label (expected sun, fog, rain, drizzle or snow)")
        ) {
            try SeattleDailyLoader.load(url: weatherFixture("seattle_bad_label.csv"), displayName: "s.csv")
        }
        #expect(throws: DataError.self) {
            try SeattleDailyLoader.load(url: weatherFixture("seattle_bad_utf8.csv"), displayName: "u.csv")
        }
        do {
            _ = try SeattleDailyLoader.load(url: weatherFixture("seattle_bad_utf8.csv"), displayName: "u.csv")
        } catch let error as DataError {
            #expect(error.line == 3)
        }
    }

    @Test func beijingHoursAreUTC() throws {
        let l = try BeijingPM25Loader.load(url: weatherFixture("beijing_valid.csv"))
        #expect(l.records.count == 12)
        #expect(l.records[0].pm25 == nil)
        #expect(CivilTime.isoUTC(l.records[0].startUTC) == "2009-12-31T16:00:00Z")  // 00:00 CST
        #expect(abs((l.records[2].pm25 ?? .nan) - 129) < tol)
        // Magnus RH for T = −4 °C, Td = −16 °C ≈ 39 %.
        #expect(abs(l.records[2].relativeHumidityPct - 39.0) < 1.5)
    }

    @Test func beijingHourOutOfRange() throws {
        #expect(
            throws: DataError.invalidField(file: "b.csv", line: 6, field: "hour", value: "24", reason: "outside 0…23")
        ) {
            try BeijingPM25Loader.load(url: weatherFixture("beijing_bad_hour.csv"), displayName: "b.csv")
        }
    }
}
