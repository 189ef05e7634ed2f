import FieldtestData
import Foundation
import MetricReports
import Testing

/// `items.csv` read back as `run` writes it.
@Suite("items.csv read back")
struct ItemsCSVReadTests {
    @Test func whatIsWrittenReadsBack() throws {
        let records = [
            ItemRecord(
                requirement: "MIC-14", metric: "accuracy",
                outcome: ItemOutcome(item: "7", expected: "positive", answer: "neutral", correct: false)),
            ItemRecord(
                requirement: "SKY-P2", metric: "e",
                outcome: ItemOutcome(item: "Lincoln, NE 2023-01-24 sunset", expected: "t", answer: "u", error: 0.1)),
        ]
        let text = ItemsCSV.header + ItemsCSV.rows(records, case: "c[seed=1]")
        let rows = try ItemsCSV.parse(bytes: Array(text.utf8), file: "items.csv")
        #expect(rows.map(\.record) == records)
        #expect(rows.map(\.caseLabel) == ["c[seed=1]", "c[seed=1]"])
        #expect(rows.map(\.line) == [2, 3])
    }

    @Test func aBadCorrectIsReportedAtItsLineAndField() {
        let text = ItemsCSV.header + "c,R,m,1,a,b,yes,\n"
        #expect {
            try ItemsCSV.parse(bytes: Array(text.utf8), file: "items.csv")
        } throws: { error in
            "\(error)".contains("items.csv:2") && "\(error)".contains("correct")
        }
        #expect(throws: DataError.self) {
            try ItemsCSV.parse(bytes: Array("a,b\n1,2\n".utf8), file: "items.csv")
        }
    }
}
