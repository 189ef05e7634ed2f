import FieldtestData
import Foundation
import PositioningTestSupport
import Testing

@testable import Capabilities
@testable import Positioning

/// `fieldtest locate`'s batch (`FingerprintBatch`): output rows, no-signal queries, evaluation.
@Suite("Wi-Fi fingerprint batch")
struct FingerprintBatchTests {
    @Test("batch output: 1-based rows, three-decimal metres, evaluation only with ground truth")
    func batch() throws {
        let s = SyntheticSite.samples()
        let csv = FingerprintBatch.csv([
            FingerprintEstimate(xMetres: -7541.2649, yMetres: 4864920.7805, floor: 2, building: 1)
        ])
        #expect(csv == "row,longitude,latitude,floor,building,status\n1,-7541.265,4864920.781,2,1,ok\n")
        #expect(FingerprintBatch.fixed(-0.0004) == "0.000")
        #expect(FingerprintBatch.fixed(12.3456) == "12.346")
        let model = try FingerprintLocator(training: s)
        let estimates = try model.locateAll(s.map(\.rssi))
        let e = try #require(FingerprintEvaluation(estimates: estimates, truth: s))
        #expect(abs(e.buildingHitRate - 1) < 1e-12)
        #expect(abs(e.floorHitRate - 1) < 1e-12)
        #expect(e.errors.maxMetres < 1e-9)
    }

    @Test("fixed() formats any finite coordinate without trapping, however large")
    func fixedNeverTraps() {
        #expect(FingerprintBatch.fixed(1e20) == "100000000000000000000.000")
        #expect(FingerprintBatch.fixed(-1e20) == "-100000000000000000000.000")
        #expect(FingerprintBatch.fixed(Double.greatestFiniteMagnitude).hasSuffix(".000"))
        #expect(FingerprintBatch.fixed(.nan) == "nan")
        #expect(FingerprintBatch.fixed(-.infinity) == "-inf")
    }

    /// `samples` as UJIIndoorLoc records: RSSI padded with "not detected" to 520 access points.
    static func records(_ samples: [FingerprintSample], labelled: Bool = true) -> [UJIIndoorLocRecord] {
        samples.map { s in
            UJIIndoorLocRecord(
                rssi: s.rssi + Array(repeating: FingerprintSample.notDetected, count: 520 - s.rssi.count),
                label: labelled
                    ? UJIIndoorLocLabel(
                        longitudeMetres: s.xMetres, latitudeMetres: s.yMetres,
                        floor: s.floor, building: s.building) : nil)
        }
    }

    @Test("training fingerprints that detect no access point are left out; training on only such rows is refused")
    func noSignalTraining() throws {
        let s = SyntheticSite.samples()
        var training = Self.records(s)
        var silent = training[0]
        silent.rssi = Array(repeating: FingerprintSample.notDetected, count: 520)
        let query = Self.records([s[7]])
        let plain = try FingerprintBatch.run(training: training, queries: query)
        training.append(silent)
        #expect(FingerprintSample.withoutSignal(training) == 1)
        #expect(try FingerprintSample.fromUJIIndoorLoc(training).count == s.count)
        #expect(try FingerprintBatch.run(training: training, queries: query).estimates == plain.estimates)
        #expect(throws: PositioningError.noTrainingSignal(rows: 2)) {
            _ = try FingerprintBatch.run(training: [silent, silent], queries: query)
        }
    }

    @Test("a query with no access point detected gets status no_signal and empty estimates; other rows are unchanged")
    func noSignalRows() throws {
        let s = SyntheticSite.samples()
        let training = Self.records(s)
        let queries = [s[3], s[50]]
        let plain = try FingerprintBatch.run(training: training, queries: Self.records(queries))
        var silent = Self.records([s[3]])[0]
        silent.rssi = Array(repeating: FingerprintSample.notDetected, count: 520)
        let mixed = try FingerprintBatch.run(
            training: training,
            queries: [
                Self.records([queries[0]])[0], silent,
                Self.records([queries[1]])[0],
            ])
        #expect(mixed.statuses == [.ok, .noSignal, .ok])
        #expect(mixed.estimates[1] == nil)
        #expect(mixed.estimates[0] == plain.estimates[0] && mixed.estimates[2] == plain.estimates[1])
        #expect(mixed.noSignalCount == 1)
        let lines = mixed.csv.split(separator: "\n").map(String.init)
        let plainLines = plain.csv.split(separator: "\n").map(String.init)
        #expect(lines[0] == "row,longitude,latitude,floor,building,status")
        #expect(lines[2] == "2,,,,,no_signal")
        #expect(lines[1] == plainLines[1])
        #expect(lines[3].dropFirst(2) == plainLines[2].dropFirst(2))
        // Only located rows are evaluated: both exactly on training points.
        let e = try #require(mixed.evaluation)
        #expect(e.count == 2)
        #expect(abs(e.floorHitRate - 1) < 1e-12)
        // All rows silent: nothing located, nothing evaluated, no error.
        let none = try FingerprintBatch.run(training: training, queries: [silent])
        #expect(none.statuses == [.noSignal])
        #expect(none.evaluation == nil)
        #expect(none.csv == "row,longitude,latitude,floor,building,status\n1,,,,,no_signal\n")
    }
}
