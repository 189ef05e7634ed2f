import FieldtestData
import Foundation
import Testing
@testable import Positioning

/// Paths to the bundled datasets, derived from this file's location.
enum PositioningPaths {
    static let datasets = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Datasets")
}

@Suite("Wi-Fi fingerprinting")
struct FingerprintLocatorTests {
    /// Synthetic site: 2 buildings × 2 floors, APs on a grid, RSSI from a log-distance model.
    static func synthetic() -> [FingerprintSample] {
        var out: [FingerprintSample] = []
        var aps: [(x: Double, y: Double, b: Int, f: Int)] = []
        for i in 0..<16 {
            let b = i >= 8 ? 1 : 0
            let x = Double(i % 4) * 20 + Double(b) * 200
            let y = Double((i / 4) % 2) * 20
            aps.append((x, y, b, (i / 4) % 2))
        }
        for b in 0..<2 {
            for f in 0..<2 {
                for gx in 0..<7 {
                    for gy in 0..<3 {
                        let x = Double(gx) * 10 + Double(b) * 200, y = Double(gy) * 10
                        let rssi: [Int8] = aps.map { ap in
                            guard ap.b == b else { return FingerprintSample.notDetected }
                            let d = max(1, hypot(ap.x - x, ap.y - y))
                            let floorLoss = ap.f == f ? 0.0 : 15.0
                            let v = -40 - 25 * log10(d) - floorLoss
                            return v < -100 ? FingerprintSample.notDetected : Int8(v.rounded())
                        }
                        out.append(FingerprintSample(rssi: rssi, xMetres: x, yMetres: y, floor: f, building: b))
                    }
                }
            }
        }
        return out
    }

    @Test("a training fingerprint is located exactly at its own position (distance 0 takes all weight)",
          arguments: [nil, RSSIRepresentation.positive()])
    func exactMatch(positionRepresentation: RSSIRepresentation?) throws {
        let samples = Self.synthetic()
        let model = try FingerprintLocator(training: samples,
                                           configuration: .init(positionRepresentation: positionRepresentation))
        #expect(model.positionStage.count == (positionRepresentation == nil ? 0 : 1))
        for s in [samples[3], samples[40], samples[77]] {
            let e = try model.locate(s.rssi)
            #expect(e.building == s.building)
            #expect(e.floor == s.floor)
            // Exact duplicates get all the weight: the estimate is the sample's own position.
            #expect(abs(e.xMetres - s.xMetres) < 1e-9 && abs(e.yMetres - s.yMetres) < 1e-9)
        }
    }

    @Test("sparse distances equal dense Euclidean and Sørensen distances", arguments: [
        RSSIRepresentation.positive(), .exponential(), .powed(),
    ], FingerprintDistance.allCases)
    func sparseEqualsDense(representation: RSSIRepresentation, distance: FingerprintDistance) throws {
        var rng = SeededGenerator(seed: 42)
        func random() -> [Int8] {
            (0..<30).map { _ in Bool.random(using: &rng) ? FingerprintSample.notDetected : Int8.random(in: -104...0, using: &rng) }
        }
        let training = (0..<50).map { i in FingerprintSample(rssi: random(), xMetres: Double(i), yMetres: 0, floor: 0, building: 0) }
        let model = try FingerprintLocator(training: training,
                                           configuration: .init(representation: representation, distance: distance))
        let q = random()
        var ws = FingerprintLocator.Workspace(for: model)
        try model.squaredDistances(q, workspace: &ws)
        for (i, t) in training.enumerated() {
            var squares = 0.0, absolute = 0.0, total = 0.0
            for (a, b) in zip(q, t.rssi) {
                let fa = representation.value(ujiRSSI: a), fb = representation.value(ujiRSSI: b)
                squares += (fa - fb) * (fa - fb)
                absolute += abs(fa - fb)
                total += fa + fb
            }
            let dense = distance == .euclidean ? squares : absolute / total
            // The sparse expansions lose a few ulps of the sums; 1e-9 relative is ample.
            #expect(abs(ws.squared[i] - dense) <= 1e-9 * max(1, dense))
        }
    }

    @Test("between grid points the estimate lies between its neighbours, right building and floor")
    func interpolates() throws {
        let samples = Self.synthetic()
        // Hold out the point (30, 10) of building 1, floor 0 and locate it.
        let held = try #require(samples.firstIndex { $0.building == 1 && $0.floor == 0 && $0.xMetres == 230 && $0.yMetres == 10 })
        var training = samples
        let query = training.remove(at: held)
        let model = try FingerprintLocator(training: training, configuration: .init(positionNeighbours: 4))
        let e = try model.locate(query.rssi)
        #expect(e.building == 1)
        #expect(e.floor == 0)
        // Its four grid neighbours are 10 m away; the weighted mean must fall within that ring.
        #expect(hypot(e.xMetres - 230, e.yMetres - 10) < 10)
    }

    @Test("bad inputs are refused with a clear error")
    func errors() throws {
        #expect(throws: PositioningError.emptyTrainingSet) { try FingerprintLocator(training: []) }
        let s = Self.synthetic()
        #expect(throws: PositioningError.invalidParameter(name: "floorNeighbours", reason: "must be at least 1 (got 0)")) {
            try FingerprintLocator(training: s, configuration: .init(floorNeighbours: 0))
        }
        let model = try FingerprintLocator(training: s)
        #expect(throws: PositioningError.wrongFingerprintLength(index: 1, expected: 16, found: 3)) {
            try model.locateAll([s[0].rssi, [1, 2, 3]])
        }
    }

    @Test("real UJIIndoorLoc data: phone 23 held out from the first training half")
    func realHeldOutPhone() throws {
        let url = PositioningPaths.datasets.appendingPathComponent("positioning/ujiindoorloc_train_a.csv")
        let records = try UJIIndoorLoc.load(url: url, displayName: "ujiindoorloc_train_a.csv").records
        let samples = try FingerprintSample.fromUJIIndoorLoc(records)
        let held = samples.filter { $0.phone == 23 }
        let model = try FingerprintLocator(training: samples.filter { $0.phone != 23 })
        let estimates = try model.locateAll(held.map(\.rssi))
        let e = try #require(FingerprintEvaluation(estimates: estimates, truth: held))
        #expect(e.count == held.count && e.count > 100)
        // Measured (deterministic): see the bounds below, which leave a margin of about 1 m and 2 points.
        #expect(e.buildingHitRate >= 0.99)
        #expect(e.floorHitRate >= 0.88)
        #expect(e.errors.meanMetres < 12)
        #expect(e.errors.medianMetres <= e.errors.p95Metres)
    }

    @Test("published 1-NN baseline: the nearest training fingerprint by Euclidean distance on positive RSSI, and the tuned cascade beats it")
    func publishedBaseline() throws {
        let url = PositioningPaths.datasets.appendingPathComponent("positioning/ujiindoorloc_train_a.csv")
        let samples = try FingerprintSample.fromUJIIndoorLoc(try UJIIndoorLoc.load(url: url, displayName: "ujiindoorloc_train_a.csv").records)
        let held = samples.filter { $0.phone == 23 }, training = samples.filter { $0.phone != 23 }
        let baseline = try FingerprintLocator(training: training, configuration: .publishedBaseline)
        // Brute force on a few queries: positive RSSI = dBm + 105 (not detected = 0), squared Euclidean;
        // the estimate must be one of the training fingerprints at the smallest distance (ties happen).
        func positive(_ v: Int8) -> Double { v == FingerprintSample.notDetected ? 0 : max(Double(v) + 104, 0) + 1 }
        for q in held.prefix(12) {
            var nearest: [Int] = [], bestDistance = Double.infinity
            for (i, t) in training.enumerated() {
                var d = 0.0
                for j in q.rssi.indices { let x = positive(q.rssi[j]) - positive(t.rssi[j]); d += x * x }
                if d < bestDistance { bestDistance = d; nearest = [i] } else if d == bestDistance { nearest.append(i) }
            }
            let e = try baseline.locate(q.rssi)
            #expect(nearest.contains { i in
                let t = training[i]
                return t.building == e.building && t.floor == e.floor && abs(t.xMetres - e.xMetres) < 1e-9 && abs(t.yMetres - e.yMetres) < 1e-9
            })
        }
        let truthBaseline = try #require(FingerprintEvaluation(estimates: try baseline.locateAll(held.map(\.rssi)), truth: held))
        let tuned = try FingerprintLocator(training: training)
        let truthTuned = try #require(FingerprintEvaluation(estimates: try tuned.locateAll(held.map(\.rssi)), truth: held))
        #expect(truthTuned.floorHitRate > truthBaseline.floorHitRate)
        #expect(truthTuned.errors.meanMetres < truthBaseline.errors.meanMetres)
    }

    @Test("batch output: 1-based rows, three-decimal metres, evaluation only with ground truth")
    func batch() throws {
        let s = Self.synthetic()
        let csv = FingerprintBatch.csv([FingerprintEstimate(xMetres: -7541.2649, yMetres: 4864920.7805, floor: 2, building: 1)])
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
            UJIIndoorLocRecord(rssi: s.rssi + Array(repeating: FingerprintSample.notDetected, count: 520 - s.rssi.count),
                               label: labelled ? UJIIndoorLocLabel(longitudeMetres: s.xMetres, latitudeMetres: s.yMetres,
                                                                   floor: s.floor, building: s.building) : nil)
        }
    }

    @Test("a query with no access point detected gets status no_signal and empty estimates; other rows are unchanged")
    func noSignalRows() throws {
        let s = Self.synthetic()
        let training = Self.records(s)
        let queries = [s[3], s[50]]
        let plain = try FingerprintBatch.run(training: training, queries: Self.records(queries))
        var silent = Self.records([s[3]])[0]
        silent.rssi = Array(repeating: FingerprintSample.notDetected, count: 520)
        let mixed = try FingerprintBatch.run(training: training, queries: [Self.records([queries[0]])[0], silent,
                                                                           Self.records([queries[1]])[0]])
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

    @Test("cross-validation over a single phone says it needs two phones, not that training is empty")
    func crossValidationNeedsTwoGroups() {
        let s = Self.synthetic()
        #expect(throws: PositioningError.tooFewGroups(grouping: "phone", found: 1)) {
            try FingerprintCrossValidation.leaveOneGroupOut(s, by: .phone)
        }
        #expect(PositioningError.tooFewGroups(grouping: "phone", found: 1).description.contains("at least two phones"))
        #expect(throws: PositioningError.emptyTrainingSet) { try FingerprintCrossValidation.leaveOneGroupOut([], by: .user) }
    }
}
