import Foundation
import Testing

@testable import FieldtestData

private func placesFixture(_ name: String) throws -> URL {
    let base = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return base.appendingPathComponent("weather").appendingPathComponent(name)
}

@Suite("Places loaders")
struct PlacesLoadersTests {
    @Test func usCities() throws {
        let l = try PlacesLoader.loadUSCities(url: placesFixture("us_cities_valid.csv"))
        #expect(l.records.count == 20)
        #expect(l.records[0].name == "New York City")
        #expect(l.records[0].countryCode == "US")
        #expect(l.records[0].timeZone == "America/New_York")
        #expect(abs(l.records[0].latitude - 40.71427) < 1e-9)
    }

    @Test func unknownTimeZoneIsLocated() throws {
        do {
            _ = try PlacesLoader.loadUSCities(url: placesFixture("us_cities_bad_zone.csv"), displayName: "u.csv")
            Issue.record("expected an error")
        } catch let error as DataError {
            guard case .invalidField(_, let line, let field, _, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(line == 8)
            #expect(field == "timezone")
            #expect(reason == "unknown IANA time zone")
        }
        let lenient = try PlacesLoader.loadUSCities(url: placesFixture("us_cities_bad_zone.csv"), policy: .lenient)
        #expect(lenient.records.count == 19)
        #expect(lenient.report.rowsSkipped == 1)
    }

    @Test func worldCitiesValidateRanges() throws {
        let l = try PlacesLoader.loadWorldCities(url: placesFixture("world_cities_valid.csv"))
        #expect(l.records.count == 20)
        #expect(l.records[0].countryCode == "CN")
        #expect(
            throws: DataError.invalidField(
                file: "p.csv", line: 10, field: "population", value: "-5", reason: "outside 0…\(Int.max)")
        ) {
            try PlacesLoader.loadWorldCities(
                url: placesFixture("world_cities_bad_population.csv"), displayName: "p.csv")
        }
        #expect(
            throws: DataError.invalidField(
                file: "o.csv", line: 4, field: "longitude", value: "190.5", reason: "outside -180…180")
        ) {
            try PlacesLoader.loadWorldCities(url: placesFixture("world_cities_bad_longitude.csv"), displayName: "o.csv")
        }
    }

    @Test func jsonTables() throws {
        let t = try JSONTableLoader.load(url: placesFixture("states_valid.json"))
        #expect(t.keys == ["CA", "NY"])
        #expect(t.names["NY"] == "New York")
        #expect(throws: DataError.badLayout(file: "j.json", line: 1, reason: "entry 'NY' has code 'NJ', expected 'NY'"))
        {
            try JSONTableLoader.load(url: placesFixture("states_bad_code.json"), displayName: "j.json")
        }
    }

    @Test func standardOffsets() {
        #expect(PlacesLoader.standardOffsetSeconds(zone: "Europe/Madrid", year: 2018) == 3600)
        #expect(PlacesLoader.standardOffsetSeconds(zone: "America/Chicago", year: 2023) == -21_600)
        #expect(PlacesLoader.standardOffsetSeconds(zone: "Asia/Kolkata", year: 2023) == 19_800)
        #expect(PlacesLoader.standardOffsetSeconds(zone: "Mars/Olympus", year: 2023) == nil)
    }

    @Test func greatCircle() {
        // London–Paris ≈ 343.5 km (haversine, mean radius); 1 km tolerance.
        let d = PlacesLoader.greatCircleMetres(51.5074, -0.1278, 48.8566, 2.3522)
        #expect(abs(d - 343_500) < 1000)
    }
}
