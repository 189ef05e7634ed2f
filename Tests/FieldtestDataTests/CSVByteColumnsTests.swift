import Testing

@testable import FieldtestData

/// `CSVByteColumns` must read exactly what `CSVTable` reads, and decline (nil) every file
/// `CSVTable` rejects or that it cannot be sure to read the same way.
@Suite("CSV byte columns")
struct CSVByteColumnsTests {
    /// The fields of `columns` in every row, as strings.
    static func strings(_ text: String, _ columns: [String]) -> [[String]]? {
        let bytes = Array(text.utf8)
        guard let scan = CSVByteColumns.scan(bytes, columns: columns) else { return nil }
        return (0..<scan.rowCount).map { r in
            scan.columns.map { column in
                let f = column[r]
                return String(
                    decoding: f.isUnescaped ? scan.unescaped[f.start..<f.end] : bytes[f.start..<f.end], as: UTF8.self)
            }
        }
    }

    /// The same fields read by `CSVTable`.
    static func tableStrings(_ text: String, _ columns: [String]) throws -> [[String]] {
        let table = try CSVTable(bytes: Array(text.utf8), file: "t.csv")
        return try table.records.map { r in
            try columns.map {
                try CSVRow(file: "t.csv", line: r.line, fields: r.fields, header: table.header).string($0)
            }
        }
    }

    static let accepted = [
        "id,text\n1,hello\n2,world\n",
        "id,text\r\n1,hello\r\n2,world",
        "id,text\r1,cr only\r2,x\r",
        "\u{FEFF}id,text\n1,bom\n",
        "\n\r\nid,text\n\n1,a\n\r\n\n2,b\n\n",
        "id,text\n1,\"quoted, with comma\"\n2,\"with \"\"quotes\"\" inside\"\n3,\"line\nbreak\"\n4,\"\"\n",
        "text,extra,id\nhi there,x,7\n\"a\"\"b\",,8\n",
        "id,text\n1,a\"b\"c\n2,caf\u{E9} \u{1F600}\n3,\n",
        "id,text,id\n1,a,2\n",
        "id,text\n",
        "id,text\n1,last row without newline",
        "id,text\n\"\",\"\"\n,\n",
    ]

    @Test(arguments: accepted)
    func readsWhatTheTableReads(_ text: String) throws {
        let fast = try #require(Self.strings(text, ["id", "text"]), "declined: \(text.debugDescription)")
        #expect(fast == (try Self.tableStrings(text, ["id", "text"])))
    }

    @Test func knowsTheLineOfEachRow() throws {
        let scan = try #require(CSVByteColumns.scan(Array("id,text\n\n1,\"a\nb\"\n2,c\r\n3,d".utf8), columns: ["id"]))
        #expect(scan.lines == [3, 5, 6])
    }

    static let declined = [
        "",  // empty
        "\n\n",  // blank lines only
        "id,tweet\n1,a\n",  // no text column
        "id, text\n1,a\n",  // white space in the header (the table trims it)
        "\"id\",text\n1,a\n",  // quoted header
        "id,text\n1,a,b\n",  // too many fields
        "id,text\n1\n",  // too few
        "id,text\n1,\"open\n",  // unterminated quote
        "id,text\n1,\"a\"b\n",  // text after the closing quote
    ]

    @Test(arguments: declined)
    func declinesWhatTheTableMustJudge(_ text: String) {
        #expect(Self.strings(text, ["id", "text"]) == nil)
    }

    /// Seeded random files (synthetic) from the bytes the reader's rules turn on, at every offset of the
    /// eight-byte steps: whatever the table reads, the byte reading reads the same or declines; whatever
    /// the table rejects, the byte reading declines.
    @Test func agreesWithTheTableOnRandomFiles() throws {
        let pieces = [
            "a", "b", "xyzw", "0123456789", ",", ",", "\"", "\"\"", "\n", "\r\n", "\r", " ", "\u{E9}", "\u{1F600}",
            "id", "text",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        var accepted = 0
        for round in 0..<3000 {
            var text: String
            if round % 2 == 0 {
                // Well-formed: fields written by CSVWriter (quoted when needed).
                var w = CSVWriter()
                w.row(["id", "text"])
                for _ in 0..<next(5) {
                    w.row((0..<2).map { _ in (0..<next(6)).map { _ in pieces[next(pieces.count)] }.joined() })
                }
                text = w.text
            } else {
                // Anything: raw pieces after a header.
                text = "id,text\n" + (0..<next(40)).map { _ in pieces[next(pieces.count)] }.joined()
            }
            let fast = Self.strings(text, ["id", "text"])
            do {
                let table = try Self.tableStrings(text, ["id", "text"])
                if let fast {
                    #expect(fast == table, "\(text.debugDescription)")
                    accepted += 1
                }
            } catch {
                #expect(fast == nil, "\(text.debugDescription)")
            }
        }
        #expect(accepted > 1500)
    }

    @Test func declinesInvalidUTF8InAnyField() {
        for bad: [UInt8] in [[0xFF], [0xC3, 0x28], [0xE2, 0x82]] {
            for column in 0..<3 {
                var fields: [[UInt8]] = [Array("x".utf8), Array("y".utf8), Array("z".utf8)]
                fields[column] = Array("a".utf8) + bad
                let bytes = Array("id,text,other\n".utf8) + fields[0] + [0x2C] + fields[1] + [0x2C] + fields[2] + [0x0A]
                #expect(CSVByteColumns.scan(bytes, columns: ["id", "text"]) == nil, "column \(column)")
            }
        }
    }
}
