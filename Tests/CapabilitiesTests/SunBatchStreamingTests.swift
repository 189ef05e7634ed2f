import FieldtestData
import FieldtestTestSupport
import Foundation
import SkyScoring
import Testing

@testable import Capabilities

/// `fieldtest sun`'s streamed path (`SunBatch.run(file:output:jobs:)`: fields read as byte ranges,
/// slices on several threads) against the whole-table path (`run(bytes:file:)`), byte for byte.
@Suite("sun batch streamed")
struct SunBatchStreamingTests {
    /// `count` rows over zones with and without daylight saving time, dates 1950–2080 and latitudes
    /// up to the polar circles and beyond.
    static func input(rows count: Int, seed: UInt64) -> String {
        let zones = [
            "UTC", "Europe/Oslo", "America/New_York", "Asia/Kolkata", "Australia/Adelaide", "Pacific/Apia",
            "America/St_Johns", "Etc/GMT-5",
        ]
        var rng = SeededGenerator(seed: seed)
        var text = "id,latitude,longitude,date,timezone\n"
        for i in 0..<count {
            let lat = Double(rng.next() % 170_000) / 1000 - 85
            let lon = Double(rng.next() % 360_000) / 1000 - 180
            let day = CivilDate(daysSinceEpoch: -7_300 + Int(rng.next() % 40_000))
            text += "row\(i),\(lat),\(lon),\(day),\(zones[Int(rng.next() % UInt64(zones.count))])\n"
        }
        return text
    }

    static func streamed(_ text: String, jobs: Int) throws -> String {
        let dir = TemporaryFiles.url("sun-stream")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.csv")
        let output = dir.appendingPathComponent("out.csv")
        try Data(text.utf8).write(to: input)
        try SunBatch.run(file: input.path, output: output.path, jobs: jobs)
        return String(decoding: try Data(contentsOf: output), as: UTF8.self)
    }

    @Test("the same bytes as the whole-table path, on any number of threads", arguments: [1, 2, 3])
    func sameBytesOnAnyThreads(jobs: Int) throws {
        // 20,000 rows: several slices of one run.
        let text = Self.input(rows: 20_000, seed: 7)
        let expected = try SunBatch.run(bytes: Array(text.utf8), file: "in.csv")
        #expect(try Self.streamed(text, jobs: jobs) == expected)
    }

    @Test("fields the byte reading does not take as they stand go through the table, with the same output")
    func irregularFieldsFallBack() throws {
        let rows = [
            "plain,59.91,10.75,2024-06-21,Europe/Oslo",
            "\"quoted \"\"id\"\"\",59.91,10.75,2024-06-21,Europe/Oslo",
            "spaced, 59.91 ,10.75, 2024-06-21 , Europe/Oslo ",
            "exponent,5.991e1,1.075E1,2024-06-21,Europe/Oslo",
            "\"quoted zone\",-33.87,151.21,2024-12-21,\"Australia/Sydney\"",
        ]
        let text = "id,latitude,longitude,date,timezone\n" + rows.joined(separator: "\n") + "\n"
        let expected = try SunBatch.run(bytes: Array(text.utf8), file: "in.csv")
        #expect(try Self.streamed(text, jobs: 2) == expected)
        #expect(expected.contains("\"quoted \"\"id\"\"\",2024-06-21,"))
    }

    @Test("a bad row far into a file is located as in the whole table, and no output is left")
    func badRowIsLocated() throws {
        var text = Self.input(rows: 9_000, seed: 11)
        text += "bad,10,10,2024-01-01,EST\n"
        let dir = TemporaryFiles.url("sun-bad")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.csv")
        let output = dir.appendingPathComponent("out.csv")
        try Data(text.utf8).write(to: input)
        var whole: DataError?
        do { _ = try SunBatch.run(bytes: Array(text.utf8), file: input.path) } catch { whole = error }
        let expected = try #require(whole)
        guard case .invalidField(_, let line, let field, _, _) = expected else {
            Issue.record("unexpected \(expected)")
            return
        }
        #expect(line == 9_002 && field == "timezone")
        #expect(throws: expected) { try SunBatch.run(file: input.path, output: output.path, jobs: 2) }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
