import Foundation
import Testing

@testable import FieldtestData

/// Locates the UJIIndoorLoc fixtures and the bundled datasets.
enum PositioningFixtures {
    static func url(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/positioning/\(name)", withExtension: nil))
    }

    static let datasets = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Datasets")
}

@Suite("UJIIndoorLoc loader")
struct UJIIndoorLocLoaderTests {
    @Test("first rows of the training data: RSSI, not-detected sentinel and labels")
    func small() throws {
        let loaded = try UJIIndoorLoc.load(
            url: try PositioningFixtures.url("uji_small.csv"), displayName: "uji_small.csv")
        #expect(loaded.records.count == 5)
        #expect(loaded.report.rowsLoaded == 5)
        let r = loaded.records[0]
        #expect(r.rssi.count == 520)
        #expect(r.rssi[0] == UJIIndoorLoc.notDetected)
        #expect(r.rssi[89] == -46)  // WAP090
        #expect(r.rssi[102] == -93)  // WAP103
        #expect(r.rssi[167] == -77)  // WAP168
        let label = try #require(r.label)
        // Values are parsed from 16-digit decimals; 1e-9 m is far below their resolution.
        #expect(abs(label.longitudeMetres - -7536.621199999005) < 1e-9)
        #expect(abs(label.latitudeMetres - 4864934.225199997) < 1e-9)
        #expect(label.floor == 2)
        #expect(label.building == 1)
        #expect(label.space == 106)
        #expect(label.relativePosition == .outsideInFront)
        #expect(label.user == 2)
        #expect(label.phone == 23)
        #expect(label.timestampSeconds == 1_371_713_691)
    }

    @Test("an RSSI outside -104…0 and not 100 is located at its WAP column")
    func badRSSI() throws {
        #expect(
            throws: DataError.invalidField(
                file: "uji_bad_rssi.csv", line: 4, field: "WAP017", value: "50",
                reason: "RSSI must be an integer dBm in -104…0, or 100 for 'not detected'")
        ) {
            try UJIIndoorLoc.load(url: try PositioningFixtures.url("uji_bad_rssi.csv"), displayName: "uji_bad_rssi.csv")
        }
    }

    @Test("a fractional FLOOR is located")
    func badFloor() throws {
        #expect(
            throws: DataError.invalidField(
                file: "uji_bad_floor.csv", line: 3, field: "FLOOR", value: "1.5",
                reason: "not an integer")
        ) {
            try UJIIndoorLoc.load(
                url: try PositioningFixtures.url("uji_bad_floor.csv"), displayName: "uji_bad_floor.csv")
        }
    }

    @Test("a non-finite LONGITUDE is located")
    func badLongitude() throws {
        #expect(
            throws: DataError.invalidField(
                file: "uji_bad_longitude.csv", line: 3, field: "LONGITUDE", value: "nan",
                reason: "not a finite number")
        ) {
            try UJIIndoorLoc.load(
                url: try PositioningFixtures.url("uji_bad_longitude.csv"), displayName: "uji_bad_longitude.csv")
        }
    }

    @Test("a LONGITUDE or LATITUDE beyond ±1e8 projected metres is located; the bound itself loads")
    func implausibleCoordinates() throws {
        let header =
            (UJIIndoorLoc.accessPointColumns + [
                "LONGITUDE", "LATITUDE", "FLOOR", "BUILDINGID", "SPACEID",
                "RELATIVEPOSITION", "USERID", "PHONEID", "TIMESTAMP",
            ])
            .joined(separator: ",")
        let waps = Array(repeating: "-70", count: 520).joined(separator: ",")
        func file(_ lon: String, _ lat: String) -> [UInt8] {
            Array(
                (header + "\n" + waps + ",-7500.5,4864900.25,1,0,1,1,1,1,1\n" + waps + ",\(lon),\(lat),1,0,1,1,1,1,1\n")
                    .utf8)
        }
        let reason = "must be projected metres within ±100000000 (EPSG:3857-like, as in UJIIndoorLoc); check the units"
        #expect(
            throws: DataError.invalidField(file: "t.csv", line: 3, field: "LONGITUDE", value: "1e20", reason: reason)
        ) {
            try UJIIndoorLoc.load(bytes: file("1e20", "4864900"), file: "t.csv")
        }
        #expect(
            throws: DataError.invalidField(
                file: "t.csv", line: 3, field: "LATITUDE", value: "-100000000.5", reason: reason)
        ) {
            try UJIIndoorLoc.load(bytes: file("-7500", "-100000000.5"), file: "t.csv")
        }
        let edge = try UJIIndoorLoc.load(bytes: file("-100000000", "100000000"), file: "t.csv")
        #expect(edge.records.last?.label?.longitudeMetres == -1e8)
        #expect(edge.records.last?.label?.latitudeMetres == 1e8)
    }

    @Test("lenient load skips the bad row and reports it")
    func lenient() throws {
        let loaded = try UJIIndoorLoc.load(
            url: try PositioningFixtures.url("uji_bad_rssi.csv"),
            displayName: "uji_bad_rssi.csv", policy: .lenient)
        #expect(loaded.records.count == 4)
        #expect(loaded.report.rowsSkipped == 1)
        #expect(loaded.report.issues.first?.line == 4)
    }

    @Test("a query file without ground truth (CRLF) loads with nil labels only when labels are optional")
    func query() throws {
        let url = try PositioningFixtures.url("uji_query.csv")
        let loaded = try UJIIndoorLoc.load(url: url, displayName: "uji_query.csv", requireLabels: false)
        #expect(loaded.records.count == 5)
        #expect(loaded.records.allSatisfy { $0.label == nil })
        #expect(loaded.records[0].rssi[89] == -46)
        #expect(throws: DataError.missingColumn(file: "uji_query.csv", column: "LONGITUDE")) {
            try UJIIndoorLoc.load(url: url, displayName: "uji_query.csv")
        }
    }

    @Test("rows with the wrong field count, RSSI text and quoted fields")
    func inlineCases() throws {
        let header =
            (UJIIndoorLoc.accessPointColumns + [
                "LONGITUDE", "LATITUDE", "FLOOR", "BUILDINGID", "SPACEID",
                "RELATIVEPOSITION", "USERID", "PHONEID", "TIMESTAMP",
            ])
            .joined(separator: ",")
        let waps = Array(repeating: "100", count: 520)
        func row(_ w: [String], _ tail: String = "-7500.5,4864900.25,3,2,10,1,5,13,1371000000") -> String {
            w.joined(separator: ",") + "," + tail
        }
        var w = waps
        w[4] = "-104"
        w[5] = "0"
        let good = Array((header + "\n" + row(w) + "\n\n").utf8)
        let ok = try UJIIndoorLoc.load(bytes: good, file: "t.csv")
        #expect(ok.records.count == 1)
        #expect(ok.records[0].rssi[4] == -104)
        #expect(ok.records[0].rssi[5] == 0)
        #expect(ok.records[0].label?.relativePosition == .inside)

        let short = Array((header + "\n" + row(waps, "1,2,3") + "\n").utf8)
        #expect(throws: DataError.wrongColumnCount(file: "t.csv", line: 2, expected: 529, found: 523)) {
            try UJIIndoorLoc.load(bytes: short, file: "t.csv")
        }

        w = waps
        w[519] = "abc"
        #expect(
            throws: DataError.invalidField(
                file: "t.csv", line: 2, field: "WAP520", value: "abc",
                reason: "RSSI must be an integer dBm in -104…0, or 100 for 'not detected'")
        ) {
            try UJIIndoorLoc.load(bytes: Array((header + "\n" + row(w)).utf8), file: "t.csv")
        }

        w = waps
        w[0] = "\"-60\""
        let quoted = try UJIIndoorLoc.load(bytes: Array((header + "\n" + row(w)).utf8), file: "t.csv")
        #expect(quoted.records.first?.rssi[0] == -60)
        // A quoting error on a later row names that row's line, not line 1.
        w[0] = "\"100\"x"
        let badQuote = header + "\n" + row(waps) + "\n" + row(waps) + "\n" + row(w) + "\n"
        let quoteError = #expect(throws: DataError.self) {
            try UJIIndoorLoc.load(bytes: Array(badQuote.utf8), file: "uq.csv")
        }
        #expect(quoteError?.line == 4)
        #expect(quoteError?.description.hasPrefix("uq.csv:4: ") == true)
        #expect(quoteError?.description.contains("text after the closing quote") == true)

        #expect(
            throws: DataError.invalidField(
                file: "t.csv", line: 2, field: "RELATIVEPOSITION", value: "3",
                reason: "must be 1 (inside), 2 (outside in front of the door) or 0 (not recorded)")
        ) {
            try UJIIndoorLoc.load(bytes: Array((header + "\n" + row(waps, "1,2,0,0,0,3,0,0,0")).utf8), file: "t.csv")
        }
        // The official validation file records SPACEID, RELATIVEPOSITION and USERID as 0.
        let validationStyle = try UJIIndoorLoc.load(
            bytes: Array((header + "\n" + row(waps, "1,2,0,0,0,0,0,0,0")).utf8),
            file: "t.csv")
        #expect(validationStyle.records.first?.label?.relativePosition == nil)

        #expect(throws: DataError.empty(file: "e.csv")) {
            try UJIIndoorLoc.load(bytes: Array("\n\n".utf8), file: "e.csv")
        }
    }

    @Test("bundled training halves load strictly with 6,500 rows each")
    func bundled() throws {
        let a = PositioningFixtures.datasets.appendingPathComponent("positioning/ujiindoorloc_train_a.csv")
        let loaded = try UJIIndoorLoc.load(url: a, displayName: "ujiindoorloc_train_a.csv")
        #expect(loaded.records.count == 6500)
        #expect(loaded.records.first?.label?.timestampSeconds == 1_371_713_691)
        #expect(Set(loaded.records.compactMap { $0.label?.building }) == [0, 1, 2])
        let small = try PositioningFixtures.url("uji_small.csv")
        #expect(try DatasetLoaders.countRecords(format: .ujiIndoorLoc, url: small, displayName: "uji_small.csv") == 5)
    }
}
