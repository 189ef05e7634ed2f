import Foundation
import Testing

@testable import FieldtestData

/// Messages about a field name its header column, and number fields are decimal.
@Suite("CSV messages name columns; numbers are decimal")
struct CSVColumnNamesTests {
    @Test("a quoting error or invalid UTF-8 below the header names the column, not '#N'")
    func readerErrorsNameTheColumn() throws {
        let quoted = "id,latitude,longitude\np,\"48\"x,2.35\n"
        let quoteError = #expect(throws: DataError.self) { try CSVTable(bytes: Array(quoted.utf8), file: "p.csv") }
        guard case .invalidField(let file, let line, let field, let value, _)? = quoteError else {
            Issue.record("expected invalidField, got \(String(describing: quoteError))")
            return
        }
        #expect(file == "p.csv" && line == 2 && field == "latitude" && value == "\"48\"x")

        let badUTF8 = Array("id,text\n1,".utf8) + [0xFF, 0xFE] + Array("\n".utf8)
        #expect(throws: DataError.invalidUTF8(file: "t.csv", line: 2, field: "text")) {
            try CSVTable(bytes: badUTF8, file: "t.csv")
        }
        #expect(DataError.invalidUTF8(file: "t.csv", line: 2, field: "text").description.contains("in field 'text'"))
        // The original Sentiment140 CSV has no header: its layout's names are used.
        let s140 = Array("0,1,date,NO_QUERY,user,\"hi\"x\n".utf8)
        let s140Error = #expect(throws: DataError.self) { try Sentiment140Loader.parseOriginalCSV(s140, file: "s.csv") }
        guard case .invalidField(_, _, let s140Field, _, _)? = s140Error else {
            Issue.record("expected invalidField")
            return
        }
        #expect(s140Field == "text")
    }

    @Test(
        "number fields are decimal: hexadecimal, inf and nan are errors naming the field",
        arguments: ["0x10", "0x1p4", "inf", "-infinity", "nan"])
    func numbersAreDecimal(raw: String) throws {
        let error = #expect(throws: DataError.self) {
            try FieldParser.double(raw, field: "longitude", in: -180...180, file: "p.csv", line: 2)
        }
        guard case .invalidField(_, 2, "longitude", raw, let reason)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(
            reason == "not a decimal number; write it in base 10 (e.g. 16, not 0x10)" || reason == "not a finite number"
        )
        if raw.hasPrefix("0x") { #expect(reason.hasPrefix("not a decimal number")) }
    }

    @Test("ordinary decimal forms still parse")
    func decimalsParse() throws {
        for (raw, value) in [("16", 16.0), ("-12.5", -12.5), ("+3", 3), ("1e-3", 0.001), (" 2.5E2 ", 250), (".5", 0.5)]
        {
            #expect(try FieldParser.double(raw, field: "x", in: nil, file: "f", line: 1) == value)
        }
    }
}
