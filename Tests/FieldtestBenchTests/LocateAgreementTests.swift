import FieldtestData
import FieldtestTestSupport
import Foundation
import Positioning
import Testing

@testable import FieldtestBench

/// `bench locate`'s like-for-like check: the baseline script's output is read strictly, outputs are
/// counted as equal directly or up to ties at the k-th neighbour, and the bound (all but one in 200)
/// decides the verdict that fails the benchmark under `--check`.
@Suite("bench locate like-for-like check")
struct LocateAgreementTests {
    typealias Prediction = LocateBaselineOutput.Prediction

    @Test func parsesTheTimeAndBothPredictionsOfEachQuery() throws {
        let out = try #require(
            LocateBaselineOutput(parsing: "0.25\n1.5,2.5,1.5,2.5\n-7500.0,4864900.0,-7501.0,4864901.0\n"))
        #expect(out.seconds == 0.25)
        #expect(
            out.predictions == [
                Prediction(x: 1.5, y: 2.5, xRowOrder: 1.5, yRowOrder: 2.5),
                Prediction(x: -7500, y: 4_864_900, xRowOrder: -7501, yRowOrder: 4_864_901),
            ])
    }

    @Test(arguments: ["", "nan\n1,2,1,2", "0\n1,2,1,2", "-1\n", "time\n1,2,1,2"])
    func withoutAPositiveTimeThereIsNoBaseline(output: String) {
        #expect(LocateBaselineOutput(parsing: output) == nil)
    }

    /// A line that is not four numbers (the old two-column format, a stray word) makes the outputs
    /// unreadable rather than silently dropping the line and shifting the comparison.
    @Test(arguments: ["0.5\n1,2", "0.5\n1,2,3,4\n1,2,x,4", "0.5\n1,2,3,4,5", "0.5\n1,,3,4"])
    func aMalformedLineMakesThePredictionsUnreadable(output: String) throws {
        let out = try #require(LocateBaselineOutput(parsing: output))
        #expect(out.predictions == nil)
    }

    @Test func countsEqualOutputsDirectlyAndUpToTiesAtTheKthNeighbour() throws {
        let fieldtest: [(xMetres: Double, yMetres: Double)] = [(1, 2), (3, 4), (5, 6), (7, 8)]
        let baseline = [
            Prediction(x: 1 + 5e-7, y: 2, xRowOrder: 1, yRowOrder: 2),  // equal within 1e-6 m
            Prediction(x: 3.1, y: 4, xRowOrder: 3, yRowOrder: 4),  // a tie scikit-learn broke otherwise
            Prediction(x: 5, y: 6.1, xRowOrder: 5, yRowOrder: 6.1),  // differs
            Prediction(x: 7, y: 8 + 2e-6, xRowOrder: 7, yRowOrder: 8 + 2e-6),  // differs by more than 1e-6 m
        ]
        let a = try #require(LocateAgreement(fieldtest: fieldtest, baseline: baseline))
        #expect(a.queries == 4 && a.equal == 1 && a.equalUpToTies == 1 && a.agreeing == 2)
        #expect(!a.met)
        #expect(LocateAgreement(fieldtest: fieldtest, baseline: Array(baseline.prefix(3))) == nil)
        #expect(LocateAgreement(fieldtest: fieldtest, baseline: nil) == nil)
    }

    @Test func theBoundAllowsOneOutputIn200ToDiffer() {
        func agreement(_ queries: Int, agreeing: Int) -> LocateAgreement {
            let fieldtest = [(xMetres: Double, yMetres: Double)](repeating: (0, 0), count: queries)
            let baseline = (0..<queries).map { i in
                i < agreeing
                    ? Prediction(x: 0, y: 0, xRowOrder: 0, yRowOrder: 0)
                    : Prediction(x: 1, y: 0, xRowOrder: 1, yRowOrder: 0)
            }
            return LocateAgreement(fieldtest: fieldtest, baseline: baseline)!
        }
        #expect(agreement(200, agreeing: 199).met && agreement(200, agreeing: 199).bound == 199)
        #expect(!agreement(200, agreeing: 198).met)
        #expect(!agreement(200, agreeing: 9).met)
        #expect(agreement(1111, agreeing: 1106).met && !agreement(1111, agreeing: 1105).met)
        #expect(agreement(10, agreeing: 10).met && !agreement(10, agreeing: 9).met)
    }

    /// The script mirrors the Swift side on data with rows that detect no access point (left out by
    /// both) and identical fingerprints recorded at different points (ties at the k-th neighbour):
    /// every output agrees. Needs python3 with numpy and scikit-learn.
    @Test(.enabled(if: Self.pythonHasSklearn, "needs python3 with numpy and scikit-learn"))
    func theScriptComputesWhatTheSwiftRegressionComputes() throws {
        let folder = TemporaryFiles.url("locate-mirror")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("uji.csv")
        try Self.syntheticUJIIndoorLoc(rows: 90).write(to: file, atomically: true, encoding: .utf8)

        let bench = try BenchLocate.parse(["--queries", "30"])
        let samples = try FingerprintSample.fromUJIIndoorLoc(UJIIndoorLoc.load(url: file).records)
        #expect(samples.count == 84, "the six rows without signal are left out")
        let split = FingerprintBenchmarkSplit(samples, queryCount: 30)
        let model = try FingerprintLocator(training: split.training, configuration: bench.configuration())
        var workspace = FingerprintLocator.Workspace(for: model)
        let regression = try split.queries.map { try model.regressCoordinates($0.rssi, workspace: &workspace) }
        let k = model.configuration.positionNeighbours
        let baseline = try #require(
            BenchLocate.baseline(files: [file.path], queries: 30, k: k, repeats: 1, distance: .sorensen))
        let a = try #require(LocateAgreement(fieldtest: regression, baseline: baseline.predictions))
        #expect(a.agreeing == 30, "\(a)")
    }

    static let pythonHasSklearn: Bool = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import numpy, sklearn"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    /// A UJIIndoorLoc file of `rows` rows: every 15th detects nothing; rows 40…47 repeat one
    /// fingerprint at eight different points (exact distance ties).
    static func syntheticUJIIndoorLoc(rows: Int) -> String {
        let header =
            (1...520).map { String(format: "WAP%03d", $0) }
            + [
                "LONGITUDE", "LATITUDE", "FLOOR", "BUILDINGID", "SPACEID", "RELATIVEPOSITION", "USERID", "PHONEID",
                "TIMESTAMP",
            ]
        var lines = [header.joined(separator: ",")]
        for i in 0..<rows {
            let f = (40..<48).contains(i) ? 40 : i
            let rssi = (0..<520).map { j in
                i % 15 == 7 || (f * 7 + j * 3) % 11 != 0 || j > 200 ? 100 : -30 - (f * 13 + j * 5) % 70
            }
            let label = [
                String(format: "%.4f", -7500 + Double(i) * 1.5),
                String(format: "%.4f", 4_864_800 + Double(i % 9) * 2.25),
                String(i % 4), String(i % 3), "1", "1", "1", String(1 + i % 3), String(1_371_700_000 + i),
            ]
            lines.append((rssi.map(String.init) + label).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
