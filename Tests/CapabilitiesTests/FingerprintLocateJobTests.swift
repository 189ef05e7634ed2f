import FieldtestData
import FieldtestTestSupport
import Foundation
import Testing

@testable import Capabilities
@testable import Positioning

/// `fieldtest locate` as one call (`FingerprintLocateJob`), on the loader's small fixture files.
@Suite("Fingerprint locate job")
struct FingerprintLocateJobTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FieldtestDataTests/Fixtures/positioning")
    let train = fixtures.appendingPathComponent("uji_small.csv").path
    let query = fixtures.appendingPathComponent("uji_query.csv").path

    @Test func theQueriesAreLocatedAsTheBatchLocatesThem() throws {
        let out = TemporaryFiles.url("locate.csv")
        defer { try? FileManager.default.removeItem(at: out) }
        let job = try FingerprintLocateJob.run(
            training: [train], input: query, crossValidate: nil, method: .tuned, output: out.path)
        let batch = try FingerprintBatch.run(
            training: UJIIndoorLoc.load(url: URL(fileURLWithPath: train)).records,
            queries: UJIIndoorLoc.load(url: URL(fileURLWithPath: query), requireLabels: false).records)
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(written == batch.csv)
        #expect(written.hasPrefix("row,longitude,latitude,floor,building,status\n"))
        #expect(batch.evaluation == nil && job.notes.count == (batch.noSignalCount > 0 ? 1 : 0))
        // An output over an input is refused before anything is read.
        #expect(throws: OutputPathCheck.OverwritesInput.self) {
            try FingerprintLocateJob.run(
                training: [train], input: query, crossValidate: nil, method: .tuned, output: query)
        }
    }

    @Test func crossValidationReadsNoInputAndNeedsTwoGroups() throws {
        // The fixture's rows are all of phone 23: the error is the locator's, not a missing --input.
        #expect(throws: PositioningError.tooFewGroups(grouping: "phone", found: 1)) {
            try FingerprintLocateJob.run(
                training: [train], input: nil, crossValidate: .phone, method: .tuned, output: nil)
        }
    }

    @Test func eachMethodNamesItsConfiguration() {
        #expect(FingerprintLocateJob.Method(rawValue: "no-offset-search")?.configuration == .withoutOffsetSearch)
        #expect(FingerprintLocateJob.Method.baseline.configuration == .publishedBaseline)
        #expect(FingerprintLocateJob.Method.previous.configuration == .previousTuned)
        #expect(
            FingerprintLocateJob.Method.allCases.map(\.rawValue) == [
                "tuned", "previous", "no-offset-search", "baseline",
            ])
    }
}
