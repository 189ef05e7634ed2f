import Foundation
import Testing

/// Hostile input at the command line's edges: serve keeps serving, inputs by any line end or on
/// standard input read as by path, and bombs and spans are bounded.
@Suite("fieldtest at the boundary")
struct BoundaryCLITests {
    let cli = FieldtestCLITests()
    let io = OutputsCLITests()
    static let repo = FieldtestCLITests.repo

    @Test("N4: serve sun and serve route answer a refusal to a huge coordinate and go on serving")
    func n4ServeSurvivesHugeCoordinates() throws {
        let sun =
            [
                #"{"op":"hello","protocol":1,"capability":"sun","seed":1}"#,
                #"{"op":"sun","id":"1","latitude":0,"longitude":1e308,"date":"2021-03-01","timezone":"UTC"}"#,
                #"{"op":"sun","id":"2","latitude":0,"longitude":0,"date":"2021-03-01","timezone":"UTC"}"#,
            ].joined(separator: "\n") + "\n"
        let r = try io.run(["serve", "sun"], in: Self.repo, input: Data(sun.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains(#""id":"1","ok":false"#), "\(r.stdout)")
        #expect(lines[2].contains(#""sunrise":"2021-03-01T06:"#), "\(r.stdout)")
        let route =
            [
                #"{"op":"hello","protocol":1,"capability":"route","seed":1}"#,
                #"{"op":"load","id":"l","dataset":{"path":"Datasets/maps/montgomery_college_rockville_campus.osm","format":"osm-xml"}}"#,
                #"{"op":"route","id":"1","from_lat":39.0956,"from_lon":-77.1536,"to_lat":39.1,"to_lon":9e18,"profile":"walk"}"#,
                #"{"op":"route","id":"2","from_lat":39.0956,"from_lon":-77.1536,"to_lat":1e999,"to_lon":0,"profile":"walk"}"#,
                #"{"op":"route","id":"3","from_lat":39.0956,"from_lon":-77.1536,"to_lat":39.0960,"to_lon":-77.1530,"profile":"walk"}"#,
            ].joined(separator: "\n") + "\n"
        let routed = try io.run(["serve", "route"], in: Self.repo, input: Data(route.utf8))
        #expect(routed.status == 0, "\(routed.stderr)")
        let answers = routed.stdout.split(separator: "\n")
        #expect(answers.count == 5, "\(routed.stdout)")
        #expect(answers.count == 5 && answers[2].contains(#""ok":false"#) && answers[3].contains(#""ok":false"#))
        #expect(answers.last?.contains(#""status":"#) == true)
    }

    @Test("N11: locate --input with CR-only line ends locates every fingerprint")
    func n11LocateReadsCarriageReturnOnlyInput() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let query = Self.repo.appendingPathComponent("Tests/FieldtestDataTests/Fixtures/positioning/uji_query.csv")
        let bytes = [UInt8](try Data(contentsOf: query))
        // The fixture has CRLF line ends: without the LFs they are classic-Mac CRs.
        let cr = bytes.filter { $0 != UInt8(ascii: "\n") }
        let lf = bytes.filter { $0 != UInt8(ascii: "\r") }
        #expect(cr.contains(UInt8(ascii: "\r")) && !cr.contains(UInt8(ascii: "\n")))
        try Data(cr).write(to: dir.appendingPathComponent("cr.csv"))
        try Data(lf).write(to: dir.appendingPathComponent("lf.csv"))
        let train = Self.repo.appendingPathComponent("Tests/FieldtestDataTests/Fixtures/positioning/uji_small.csv").path
        let a = try cli.run(["locate", "--train", train, "--input", dir.appendingPathComponent("cr.csv").path])
        let b = try cli.run(["locate", "--train", train, "--input", dir.appendingPathComponent("lf.csv").path])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.split(separator: "\n").count > 1, "\(a.stdout)")
    }

    @Test("N31: evaluate and train read a labelled CSV on standard input as by path")
    func n31LabelledCSVOnStandardInput() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var csv = "text,label\n"
        for i in 0..<20 {
            csv +=
                "what a lovely sunny day \(i),positive\nthe bus leaves at eight \(i),neutral\nawful delays again \(i),negative\n"
        }
        let file = dir.appendingPathComponent("tweets.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let byPath = try io.run(["evaluate", "sentiment", "--input", file.path], in: Self.repo)
        let piped = try io.run(["evaluate", "sentiment", "--input", "-"], in: Self.repo, input: Data(csv.utf8))
        #expect(byPath.status == 0, "\(byPath.stderr)")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!piped.stdout.isEmpty)
        let modelA = dir.appendingPathComponent("a.ftsm").path
        let modelB = dir.appendingPathComponent("b.ftsm").path
        let trainByPath = try io.run(
            ["train", "sentiment", "--input", file.path, "--output", modelA, "--dev-fraction", "0"], in: Self.repo)
        let trainPiped = try io.run(
            ["train", "sentiment", "--input", "-", "--output", modelB, "--dev-fraction", "0"], in: Self.repo,
            input: Data(csv.utf8))
        #expect(trainByPath.status == 0, "\(trainByPath.stderr)")
        #expect(trainPiped.status == 0, "\(trainPiped.stderr)")
        #expect(FileManager.default.fileExists(atPath: modelA) && FileManager.default.fileExists(atPath: modelB))
    }

    @Test("N29: classify refuses a NUL byte in tweet text at its file and line, exit 2")
    func n29ClassifyRefusesNUL() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("q.csv")
        try Data(Array("id,text\n1,fine\n2,bad\u{0}day\n".utf8)).write(to: file)
        let r = try cli.run(["classify", "--input", file.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("q.csv:3:"), "\(r.stderr)")
        #expect(r.stderr.contains("NUL"), "\(r.stderr)")
    }

    @Test("N21: score over two rows in years 1 and 9999 ends at once")
    func n21ScoreSpanIsBounded() throws {
        let dir = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("span.csv")
        try
            "location_id,latitude,longitude,time,cloud_low_pct\nm,25.77,-80.19,0001-01-01T00:00:00Z,10\nm,25.77,-80.19,9999-12-31T23:00:00Z,10\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let r = try cli.run(["score", "--weather", file.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("location_id,event,event_time,quality_pct"))
    }
}
