import Foundation
import Testing

@testable import Capabilities

/// Numbers and text checked where they enter `serve` and where a system's answers enter the harness:
/// a bad request gets a refusal and the server answers the next one; a bad answer is a fault, never a trap.
@Suite("Served requests and answers at the boundary")
struct ServedBoundsTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The answer lines `core` gives to `requests` (raw bytes, one request a line), through the server loop.
    static func serve(_ core: inout some ServedCore, _ requests: [[UInt8]]) -> [String] {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else { return [] }
        _ = LineReader.writeAll(requests.flatMap { $0 + [10] }, to: input[1])
        close(input[1])
        SystemServer.serve(&core, name: "t", version: "0", input: input[0], output: output[1], spinMicroseconds: 0)
        close(input[0])
        close(output[1])
        let reader = LineReader(fd: output[0])
        var lines: [String] = []
        while let line = try? reader.next(
            deadline: DispatchTime.now().uptimeNanoseconds + 1_000_000_000, spinNanoseconds: 0)
        {
            lines.append(String(decoding: line, as: UTF8.self))
        }
        close(output[0])
        return lines
    }

    static func serve(_ core: inout some ServedCore, _ requests: [String]) -> [String] {
        serve(&core, requests.map { Array($0.utf8) })
    }

    static let sunRequests = [
        #"{"op":"sun","id":"lon","latitude":0,"longitude":1e308,"date":"2021-03-01","timezone":"UTC"}"#,
        #"{"op":"sun","id":"nlon","latitude":0,"longitude":-1e308,"date":"2021-03-01","timezone":"UTC"}"#,
        #"{"op":"sun","id":"lat","latitude":1000,"longitude":0,"date":"2021-03-01","timezone":"UTC"}"#,
        #"{"op":"sun","id":"l91","latitude":91,"longitude":0,"date":"2021-03-01","timezone":"UTC"}"#,
        #"{"op":"sun","id":"l400","latitude":0,"longitude":400,"date":"2021-03-01","timezone":"UTC"}"#,
        #"{"op":"sun","id":"l9e18","latitude":0,"longitude":9e18,"date":"2021-03-01","timezone":"UTC"}"#,
        #"{"op":"sun","id":"str","latitude":"0","longitude":0,"date":"2021-03-01","timezone":"UTC"}"#,
    ]

    @Test("N4, N16: serve sun refuses out-of-range or non-finite coordinates and answers the next request")
    func n4n16ServeSunRefusesOutOfRangeCoordinates() {
        var core = ServedSun()
        let good = #"{"op":"sun","id":"ok","latitude":25.77,"longitude":-80.19,"date":"2021-03-01","timezone":"UTC"}"#
        let inf = #"{"op":"sun","id":"inf","latitude":-1e999,"longitude":0,"date":"2021-03-01","timezone":"UTC"}"#
        let lines = Self.serve(&core, Self.sunRequests + [inf, good])
        #expect(lines.count == Self.sunRequests.count + 2)
        for line in lines.prefix(Self.sunRequests.count) {
            #expect(line.contains(#""ok":false"#), "\(line)")
        }
        #expect(lines[0].contains("'longitude' is 1e+308; it must be a finite number in -180.0…180.0"), "\(lines[0])")
        #expect(lines[2].contains("'latitude' is 1000.0"), "\(lines[2])")
        #expect(lines[6].contains("'latitude' must be a number"), "\(lines[6])")
        #expect(lines[Self.sunRequests.count].contains(#""ok":false"#))  // 1e999 is no JSON number Fieldtest reads
        #expect(lines.last?.contains(#""sunrise":"2021-03-01T11:"#) == true, "\(lines.last ?? "")")
    }

    @Test("N4, N16: serve route refuses out-of-range coordinates after a load and keeps serving")
    func n4n16ServeRouteRefusesOutOfRangeCoordinates() throws {
        var core = ServedRoute()
        let map = Self.repo.appendingPathComponent("Datasets/maps/montgomery_college_rockville_campus.osm").path
        func route(_ id: String, _ a: String, _ b: String, _ c: String, _ d: String) -> String {
            #"{"op":"route","id":"\#(id)","from_lat":\#(a),"from_lon":\#(b),"to_lat":\#(c),"to_lon":\#(d),"profile":"walk"}"#
        }
        let lines = Self.serve(
            &core,
            [
                #"{"op":"load","id":"l","dataset":{"path":"\#(map)","format":"osm-xml"}}"#,
                route("a", "1e308", "-77.1536", "39.1", "-77.15"), route("b", "39.0956", "1e308", "39.1", "-77.15"),
                route("c", "39.0956", "-77.1536", "39.1", "9e18"), route("d", "91", "-77.1536", "39.1", "-77.15"),
                route("e", "39.0956", "-77.1536", "39.1", "181"), route("f", "39.0956", "-77.1536", "39.1", "-1e999"),
                route("g", "39.0956", "-77.1536", "39.0960", "-77.1530"),
            ])
        #expect(lines.count == 8)
        #expect(lines.first == #"{"id":"l","ok":true}"#)
        for line in lines.dropFirst().dropLast() { #expect(line.contains(#""ok":false"#), "\(line)") }
        #expect(lines[4].contains("'from_lat' is 91.0"), "\(lines[4])")
        #expect(lines.last?.contains(#""status":"#) == true, "\(lines.last ?? "")")
    }

    @Test("N4: serve locate refuses RSSI values outside -104…0 and 100")
    func n4ServeLocateRefusesOutOfRangeRSSI() {
        var core = ServedLocate()
        let path = Self.repo.appendingPathComponent("Tests/FieldtestDataTests/Fixtures/positioning/uji_small.csv").path
        let waps = (1...520).map { #""WAP\#(String(format: "%03d", $0))":\#($0 == 1 ? "-50" : "100")"# }
        let bad = (1...520).map { #""WAP\#(String(format: "%03d", $0))":\#($0 == 1 ? "1e300" : "100")"# }
        let lines = Self.serve(
            &core,
            [
                #"{"op":"load","id":"l","dataset":{"path":"\#(path)","format":"ujiindoorloc-csv"}}"#,
                #"{"op":"locate","id":"x",\#(bad.joined(separator: ","))}"#,
                #"{"op":"locate","id":"y",\#(waps.joined(separator: ",").replacingOccurrences(of: ":-50", with: ":50"))}"#,
                #"{"op":"locate","id":"z",\#(waps.joined(separator: ","))}"#,
            ])
        #expect(lines.count == 4)
        #expect(lines[1].contains(#""ok":false"#) && lines[1].contains("WAP001"), "\(lines[1])")
        #expect(lines[2].contains(#""ok":false"#) && lines[2].contains("-104…0"), "\(lines[2])")
        #expect(lines[3].contains(#""floor""#), "\(lines[3])")
    }

    @Test("N29: serve refuses invalid UTF-8 and lone surrogate escapes with an error answer, not U+FFFD")
    func n29ServeRefusesInvalidText() {
        var core = ServedSun()
        let prefix = Array(
            #"{"op":"sun","id":"1","latitude":0,"longitude":0,"date":"2021-03-01","timezone":"UTC","x":""#.utf8)
        let invalid = prefix + [0xFF, 0xFE] + Array(#""}"#.utf8)
        let lines = Self.serve(
            &core,
            [
                invalid, Array(#"{"op":"sun","id":"\ud800","latitude":0}"#.utf8),
                Array(#"{"op":"sun","id":"\udc00x","latitude":0}"#.utf8),
                Array(
                    #"{"op":"sun","id":"2","latitude":0,"longitude":0,"date":"2021-03-01","timezone":"UTC","x":"é \ud83d\ude00"}"#
                        .utf8),
            ])
        #expect(lines.count == 4)
        #expect(lines[0].contains(#""ok":false"#) && lines[0].contains("valid UTF-8"), "\(lines[0])")
        #expect(lines[1].contains(#""ok":false"#) && lines[1].contains("lone surrogate"), "\(lines[1])")
        #expect(lines[2].contains(#""ok":false"#) && lines[2].contains("lone surrogate"), "\(lines[2])")
        #expect(!lines.joined().contains("\u{FFFD}"))
        #expect(lines[3].contains(#""id":"2""#) && lines[3].contains("sunrise"), "\(lines[3])")
    }

    @Test("N4: a system's answers with coordinates or lengths out of range are wrong answers, not traps")
    func n4AnswersOutOfRangeAreWrongTypes() throws {
        func decode<T: Decodable>(_ text: String, as: T.Type) throws -> T {
            try JSONFieldDecoder.decode(T.self, from: try JSONReader.parse(Array(text.utf8)))
        }
        #expect(throws: (any Error).self) {
            try decode(#"{"longitude":1e300,"latitude":0,"floor":1,"building":0}"#, as: LocateAnswer.self)
        }
        #expect(throws: (any Error).self) {
            try decode(#"{"longitude":-7600,"latitude":-1e9,"floor":1,"building":0}"#, as: LocateAnswer.self)
        }
        #expect(throws: JSONReadError.self) {
            try JSONReader.parse(Array(#"{"longitude":1e999,"latitude":0,"floor":1,"building":0}"#.utf8))
        }
        #expect(
            try decode(#"{"longitude":-7600.5,"latitude":4864900,"floor":1,"building":0}"#, as: LocateAnswer.self)
                == LocateAnswer(longitude: -7600.5, latitude: 4_864_900, floor: 1, building: 0))
        #expect(throws: (any Error).self) {
            try decode(#"{"status":"ok","length_m":-1,"node_ids":[],"path":[]}"#, as: RouteAnswer.self)
        }
        #expect(throws: (any Error).self) {
            try decode(#"{"status":"ok","length_m":1,"node_ids":[],"path":[[91,0]]}"#, as: RouteAnswer.self)
        }
        #expect(throws: (any Error).self) { try decode(#"{"day_length_s":1e300}"#, as: SunTimes.self) }
    }
}

/// A timeout from a scenario is a number from input too.
@Suite("External system deadlines")
struct ExternalDeadlineTests {
    @Test("N4: a timeout of 1e12 s or more waits a year at most, instead of trapping on the first request")
    func n4HugeTimeoutDoesNotTrap() throws {
        for timeout in [1e12, 1e300, Double.infinity] {
            let system = try ExternalSystemTests.start(timeout: timeout, setup: 1e300)
            defer { system.close() }
            let answers = ExternalSentimentSystem(system).classify(["great flight thanks"])
            #expect(answers.first??.label == .positive, "timeout \(timeout)")
        }
    }
}
