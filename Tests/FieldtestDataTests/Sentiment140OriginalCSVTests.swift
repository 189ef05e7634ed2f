import Foundation
import Testing

@testable import FieldtestData

@Suite("Sentiment140 original CSV")
struct Sentiment140OriginalCSVTests {
    /// Three records in the layout of `testdata.manual.2009.06.14.csv`, the last with a Latin-1 byte (é = 0xE9).
    static let sample: [UInt8] =
        Array(
            """
            "4","3","Mon May 11 03:17:40 UTC 2009","kindle2","tpryan","@stellargirl I loooooooovvvvvveee my Kindle2, not that the DX is cool"
            "0","1","Mon May 11 03:18:03 UTC 2009","kindle2","vcu451","Fuck this economy. I hate aig and their non loan given asses."
            "2","5","Mon May 11 05:21:45 UTC 2009","lebron","x","Lebron plays tonight, caf
            """.utf8) + [0xE9] + Array("\"\r\n".utf8)

    @Test func recognisesTheLayoutByItsFirstRecord() {
        #expect(Sentiment140Loader.looksLikeOriginalCSV(Self.sample))
        #expect(!Sentiment140Loader.looksLikeOriginalCSV(Array("id,text,label\n1,hello,positive\n".utf8)))
        #expect(!Sentiment140Loader.looksLikeOriginalCSV(Array("\"5\",\"1\",\"d\",\"q\",\"u\",\"text\"\n".utf8)))
        #expect(!Sentiment140Loader.looksLikeOriginalCSV([]))
    }

    @Test func mapsPolaritiesAndReadsLatin1() throws {
        let loaded = try Sentiment140Loader.parseOriginalCSV(Self.sample, file: "test.csv")
        #expect(loaded.records.map(\.label) == [.positive, .negative, .neutral])
        #expect(loaded.records.map(\.line) == [1, 2, 3])
        #expect(loaded.records[0].text == "@stellargirl I loooooooovvvvvveee my Kindle2, not that the DX is cool")
        #expect(loaded.records[2].text == "Lebron plays tonight, café")
        #expect(loaded.report.rowsLoaded == 3)
    }

    @Test func badRecordsAreLocated() {
        let badPolarity = Array("\"4\",\"1\",\"d\",\"q\",\"u\",\"fine\"\n\"3\",\"2\",\"d\",\"q\",\"u\",\"meh\"\n".utf8)
        #expect(
            throws: DataError.invalidField(
                file: "t.csv", line: 2, field: "polarity", value: "3",
                reason: "expected 0 (negative), 2 (neutral) or 4 (positive)")
        ) {
            try Sentiment140Loader.parseOriginalCSV(badPolarity, file: "t.csv")
        }
        let short = Array("\"4\",\"1\",\"d\",\"q\",\"u\",\"fine\"\n\"0\",\"2\",\"d\",\"q\",\"only five\"\n".utf8)
        #expect(throws: DataError.wrongColumnCount(file: "t.csv", line: 2, expected: 6, found: 5)) {
            try Sentiment140Loader.parseOriginalCSV(short, file: "t.csv")
        }
        let lenient = try? Sentiment140Loader.parseOriginalCSV(short, file: "t.csv", policy: .lenient)
        #expect(lenient?.records.count == 1)
        #expect(lenient?.report.rowsSkipped == 1)
    }
}
