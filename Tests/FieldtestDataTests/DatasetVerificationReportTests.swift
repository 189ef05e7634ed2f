import FieldtestTestSupport
import Foundation
import Testing

@testable import FieldtestData

/// What `fieldtest datasets verify` prints (`DatasetManifest.verificationReport`).
@Suite("Dataset verification report")
struct DatasetVerificationReportTests {
    /// A datasets folder with one good entry `good` and one entry `bad` whose hash is wrong.
    func folder() throws -> URL {
        let dir = TemporaryFiles.url("verify")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try DatasetOverlayTests.mapping.write(
            to: dir.appendingPathComponent("m.txt"), atomically: false, encoding: .utf8)
        let rows = [
            "good,m.txt,tweeteval-mapping,classification,3,\(DatasetOverlayTests.mappingSHA),MIT,test",
            "bad,m.txt,tweeteval-mapping,classification,3,\(String(repeating: "0", count: 64)),MIT,test",
        ]
        try ([DatasetOverlayTests.header] + rows).joined(separator: "\n").appending("\n").write(
            to: dir.appendingPathComponent("MANIFEST.csv"), atomically: false, encoding: .utf8)
        return dir
    }

    @Test func eachFileGetsALineAndTheCountCloses() throws {
        let manifest = try DatasetManifest(root: try folder())
        let all = try manifest.verificationReport(names: [])
        let lines = all.text.split(separator: "\n")
        #expect(all.failures == 1)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ok    good (3 rows, "))
        #expect(lines[1].hasPrefix("FAIL  bad: sha256 "))
        #expect(lines[2] == "1 of 2 datasets verified")
        let one = try manifest.verificationReport(names: ["good"])
        #expect(one.failures == 0 && one.text.hasSuffix("1 of 1 datasets verified\n"))
    }

    @Test func anUnknownNameIsAnErrorThatSaysWhereTheNamesAre() throws {
        let manifest = try DatasetManifest(root: try folder())
        #expect(throws: UnknownDatasetError(name: "nope")) { try manifest.verificationReport(names: ["good", "nope"]) }
        #expect(UnknownDatasetError(name: "nope").description.contains("fieldtest datasets list"))
    }

    @Test func addGoesIntoTheLastFolderGivenElseTheFilesOwnFolder() throws {
        let dir = try DatasetOverlayTests().temporaryFolder()
        let input = dir.appendingPathComponent("map.txt")
        try DatasetOverlayTests.mapping.write(to: input, atomically: false, encoding: .utf8)
        let mine = dir.appendingPathComponent("mine")
        let intoLast = try DatasetRegistration.add(
            file: input.path, name: "labels", format: .tweetevalMapping, into: nil, folders: [mine.path],
            license: nil)
        #expect(intoLast.manifest.path == mine.appendingPathComponent("MANIFEST.csv").path)
        let beside = try DatasetRegistration.add(
            file: input.path, name: "labels", format: .tweetevalMapping, into: nil, folders: [], license: "MIT")
        #expect(beside.manifest.path == dir.appendingPathComponent("MANIFEST.csv").path)
        #expect(beside.copiedTo == nil && beside.entry.license == "MIT")
    }
}
