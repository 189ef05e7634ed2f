import Foundation
import Testing

@testable import FieldtestData

@Suite("GeoLife loaders")
struct GeoLifeLoadersTests {
    @Test("CSV points with UTC start times")
    func csv() throws {
        let loaded = try GeoLifeLoaders.loadCSV(url: try MapFixtures.url("geolife.csv"), displayName: "geolife.csv")
        #expect(loaded.records.count == 2)
        let p = loaded.records[1]
        #expect(p.trajectoryID == "2_20090202094733")
        #expect(p.userID == 2)
        #expect(p.pointIndex == 1)
        // 2009-02-02T09:47:33Z = 1233568053 s since the epoch (exact integer arithmetic).
        #expect(abs(p.startTime - 1_233_568_053) < 1e-9)
        #expect(abs(p.latitude - 39.901037) < 1e-12)
    }

    @Test("a malformed start time is located")
    func csvBad() throws {
        #expect(
            throws: DataError.invalidField(
                file: "geolife_bad.csv", line: 3, field: "start_time_from_filename",
                value: "2009-02-30Tnoon", reason: "expected an ISO time YYYY-MM-DDThh:mm:ss")
        ) {
            try GeoLifeLoaders.loadCSV(url: try MapFixtures.url("geolife_bad.csv"), displayName: "geolife_bad.csv")
        }
    }

    @Test("original 6-line preamble, fractional days to UTC, -777 altitude")
    func plt() throws {
        let loaded = try GeoLifeLoaders.loadPLT(url: try MapFixtures.url("original.plt"), displayName: "original.plt")
        #expect(loaded.records.count == 2)
        // 39744.1201851852 days after 1899-12-30 is 2008-10-23 02:53:04 UTC = 1224730384 s; the column
        // carries 10 decimals of a day (~1e-5 s), so 1e-3 s is a safe tolerance.
        #expect(abs(loaded.records[0].time - 1_224_730_384) < 1e-3)
        #expect(loaded.records[0].altitudeFeet == 492)
        #expect(loaded.records[1].altitudeFeet == nil)
    }

    @Test("a bad longitude in a .plt is located")
    func pltBad() throws {
        #expect(
            throws: DataError.invalidField(
                file: "bad.plt", line: 3, field: "longitude", value: "north", reason: "not a number")
        ) {
            try GeoLifeLoaders.loadPLT(url: try MapFixtures.url("bad.plt"), displayName: "bad.plt")
        }
    }

    @Test("bundled files load whole with the manifest counts")
    func bundled() throws {
        let csv = try GeoLifeLoaders.loadCSV(
            url: MapFixtures.datasets.appendingPathComponent("positioning/geolife_trajectories_40.csv"))
        #expect(csv.records.count == 53716)
        let plt = try GeoLifeLoaders.loadPLT(
            url: MapFixtures.datasets.appendingPathComponent("positioning/20081023025304.plt"))
        #expect(plt.records.count == 908)
        #expect(zip(plt.records, plt.records.dropFirst()).allSatisfy { $0.time <= $1.time })
    }
}
