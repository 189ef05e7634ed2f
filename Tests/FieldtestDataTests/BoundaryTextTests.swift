import Foundation
import Testing

@testable import FieldtestData

/// Line ends, NUL bytes and signed zeros at the edges of the shared readers and writers.
@Suite("Text at the boundary")
struct BoundaryTextTests {
    @Test("N11: UJIIndoorLoc rows with CR-only line ends read as with LF or CRLF, at the same lines")
    func n11CarriageReturnOnlyLinesRead() throws {
        let lf = [UInt8](try Data(contentsOf: try PositioningFixtures.url("uji_small.csv")))
        let plain = lf.filter { $0 != UInt8(ascii: "\r") }
        let crlf = plain.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
        let cr = plain.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: "\r") : $0 }
        let expected = try UJIIndoorLoc.load(bytes: plain, file: "lf.csv").records
        #expect(expected.count == 5)
        #expect(try UJIIndoorLoc.load(bytes: crlf, file: "crlf.csv").records == expected)
        #expect(try UJIIndoorLoc.load(bytes: cr, file: "cr.csv").records == expected)
        // A bad row is located at the same line whatever the line ends.
        var damaged = cr
        let third = try #require(damaged.indices.filter { damaged[$0] == UInt8(ascii: "\r") }.dropFirst(2).first)
        damaged.insert(contentsOf: Array(",x".utf8), at: third)
        #expect(throws: DataError.self) { try UJIIndoorLoc.load(bytes: damaged, file: "cr.csv") }
        do {
            _ = try UJIIndoorLoc.load(bytes: damaged, file: "cr.csv")
        } catch { #expect(error.line == 3, "\(error)") }
        #expect(UJIIndoorLoc.lineEnds(Array("a\rb\r\nc\n".utf8)) == 3)
    }

    @Test("N29: a NUL byte in tweet text is refused at its line, whatever the line ends")
    func n29NULIsRefusedAtItsLine() {
        #expect(throws: Never.self) {
            try NULCheck.refuse(Array("id,text\n1,fine é\n".utf8), file: "t.csv", field: "text")
        }
        for text in [
            "id,text\n1,ok\n2,bad\u{0}x\n", "id,text\r\n1,ok\r\n2,bad\u{0}x\r\n", "id,text\r1,ok\r2,bad\u{0}x\r",
        ] {
            do {
                try NULCheck.refuse(Array(text.utf8), file: "t.csv", field: "text")
                Issue.record("a NUL byte was accepted")
            } catch {
                #expect(error.line == 3, "\(error)")
                #expect(error.description.contains("t.csv:3"), "\(error)")
                #expect(error.description.contains("NUL"), "\(error)")
            }
        }
        do {
            try NULCheck.refuse([0], file: "t.csv", firstLine: 40, field: "text")
        } catch { #expect(error.line == 40) }
    }

    @Test("N34: a score that rounds to zero prints as 0.0000, never -0.0000")
    func n34NoNegativeZero() {
        #expect(CSVWriter.fixedUnsignedZero(-0.00001, decimals: 4) == "0.0000")
        #expect(CSVWriter.fixedUnsignedZero(-0.0, decimals: 4) == "0.0000")
        #expect(CSVWriter.fixedUnsignedZero(-0.00004999, decimals: 4) == "0.0000")
        #expect(CSVWriter.fixedUnsignedZero(-0.00005001, decimals: 4) == "-0.0001")
        #expect(CSVWriter.fixedUnsignedZero(-0.25, decimals: 4) == "-0.2500")
        #expect(CSVWriter.fixedUnsignedZero(0.3, decimals: 4) == "0.3000")
    }
}
