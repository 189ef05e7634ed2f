import Foundation

/// A validator for the subset of Frictionless Table Schema (https://specs.frictionlessdata.io/table-schema/)
/// that `docs/schemas/*.table.json` uses: `fields` with `name`, `type` (`string`, `number`, `integer`,
/// `boolean`, `datetime`, `date`), `trueValues`/`falseValues`, and `constraints` (`required`, `enum`,
/// `minimum`, `maximum`, `pattern`, `unique`); `missingValues`; `primaryKey`. A schema using any other
/// type or constraint is refused, so nothing a schema states is silently left unchecked.
///
/// A file is valid when its header is the field names in order, every record has one cell per field,
/// every cell that is not a missing value reads as its field's type and meets its constraints, no
/// required cell is missing, and the primary key's values are present and unique.
struct TableSchema {
    struct Field {
        var name: String
        var type: String
        var required = false
        var enumValues: [String]?
        var minimum: Double?
        var maximum: Double?
        var pattern: NSRegularExpression?
        var unique = false
        var trueValues = ["true", "True", "TRUE", "1"]
        var falseValues = ["false", "False", "FALSE", "0"]
    }

    struct SchemaProblem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static let types: Set<String> = ["string", "number", "integer", "boolean", "datetime", "date"]
    static let fieldKeys: Set<String> = [
        "name", "type", "title", "description", "format", "constraints", "trueValues", "falseValues", "example",
        "rdfType",
    ]
    static let constraintKeys: Set<String> = ["required", "enum", "minimum", "maximum", "pattern", "unique"]
    static let schemaKeys: Set<String> = [
        "$schema", "title", "description", "fields", "missingValues", "primaryKey", "path",
    ]

    var fields: [Field]
    var missingValues: Set<String>
    var primaryKey: [String]
    /// The schema's file (for messages).
    var name: String

    init(file: URL) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] else {
            throw SchemaProblem("\(file.path): a table schema is a JSON object")
        }
        try self.init(object, name: file.lastPathComponent)
    }

    init(_ object: [String: Any], name: String = "schema") throws {
        self.name = name
        for key in object.keys where !Self.schemaKeys.contains(key) {
            throw SchemaProblem("\(name): key '\(key)' is not in the supported subset")
        }
        guard let list = object["fields"] as? [[String: Any]], !list.isEmpty else {
            throw SchemaProblem("\(name): 'fields' must be a non-empty array of objects")
        }
        fields = try list.map { try Self.field($0, schema: name) }
        missingValues = Set((object["missingValues"] as? [String]) ?? [""])
        switch object["primaryKey"] {
        case nil: primaryKey = []
        case let one as String: primaryKey = [one]
        case let many as [String]: primaryKey = many
        default: throw SchemaProblem("\(name): 'primaryKey' is a field name or an array of them")
        }
        let names = fields.map(\.name)
        guard Set(names).count == names.count else { throw SchemaProblem("\(name): two fields share a name") }
        for key in primaryKey where !names.contains(key) {
            throw SchemaProblem("\(name): primaryKey names '\(key)', which is no field")
        }
    }

    static func field(_ f: [String: Any], schema: String) throws -> Field {
        guard let name = f["name"] as? String else { throw SchemaProblem("\(schema): a field without a name") }
        for key in f.keys where !fieldKeys.contains(key) {
            throw SchemaProblem("\(schema): field '\(name)': key '\(key)' is not in the supported subset")
        }
        let type = (f["type"] as? String) ?? "string"
        guard types.contains(type) else {
            throw SchemaProblem("\(schema): field '\(name)': type '\(type)' unsupported")
        }
        if let format = f["format"] as? String, format != "default" {
            throw SchemaProblem("\(schema): field '\(name)': format '\(format)' unsupported")
        }
        var field = Field(name: name, type: type)
        if let t = f["trueValues"] as? [String] { field.trueValues = t }
        if let v = f["falseValues"] as? [String] { field.falseValues = v }
        let c = (f["constraints"] as? [String: Any]) ?? [:]
        for key in c.keys where !constraintKeys.contains(key) {
            throw SchemaProblem("\(schema): field '\(name)': constraint '\(key)' is not in the supported subset")
        }
        field.required = (c["required"] as? Bool) ?? false
        field.unique = (c["unique"] as? Bool) ?? false
        if let e = c["enum"] {
            guard let values = e as? [Any] else { throw SchemaProblem("\(schema): field '\(name)': enum is an array") }
            field.enumValues = values.map { "\($0)" }
        }
        field.minimum = (c["minimum"] as? NSNumber)?.doubleValue
        field.maximum = (c["maximum"] as? NSNumber)?.doubleValue
        if (c["minimum"] != nil || c["maximum"] != nil) && !["number", "integer"].contains(type) {
            throw SchemaProblem("\(schema): field '\(name)': minimum/maximum are checked on numbers only")
        }
        if let p = c["pattern"] as? String { field.pattern = try NSRegularExpression(pattern: "^(?:\(p))$") }
        return field
    }

    /// Every violation in `text` (a CSV file's bytes as text), each `FILE:LINE: …`; empty when valid.
    /// At most `limit` are listed.
    func errors(csv text: String, file: String, limit: Int = 20) -> [String] {
        let records = CSVRecords.parse(text)
        var out: [String] = []
        func add(_ line: Int, _ message: String) { if out.count < limit { out.append("\(file):\(line): \(message)") } }
        guard let header = records.first else { return ["\(file):1: empty file: no header"] }
        let names = fields.map(\.name)
        if header.fields != names {
            add(1, "header '\(header.fields.joined(separator: ","))' is not '\(names.joined(separator: ","))'")
            return out
        }
        var keys: [[String]: Int] = [:]
        var seen: [Int: [String: Int]] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == fields.count else {
                add(record.line, "\(record.fields.count) cells, the header has \(fields.count)")
                continue
            }
            for (i, (field, cell)) in zip(fields, record.fields).enumerated() {
                if let problem = problem(cell, field, primary: primaryKey.contains(field.name)) {
                    add(record.line, "field '\(field.name)': \(problem)")
                }
                if field.unique, !missingValues.contains(cell) {
                    if let earlier = seen[i, default: [:]][cell] {
                        add(record.line, "field '\(field.name)': '\(cell)' is also on line \(earlier) (unique)")
                    }
                    seen[i, default: [:]][cell] = record.line
                }
            }
            if !primaryKey.isEmpty {
                let key = primaryKey.map { k in record.fields[names.firstIndex(of: k)!] }
                if let earlier = keys[key] {
                    add(record.line, "primary key (\(primaryKey.joined(separator: ", "))) repeats line \(earlier)")
                }
                keys[key] = record.line
            }
        }
        return out
    }

    /// What is wrong with `cell` as a value of `field`, or nil.
    func problem(_ cell: String, _ field: Field, primary: Bool) -> String? {
        if missingValues.contains(cell) {
            return field.required || primary ? "a value is required" : nil
        }
        guard let number = Self.read(cell, field) else { return "'\(cell)' is not of type \(field.type)" }
        if let values = field.enumValues, !values.contains(cell) {
            return "'\(cell)' is not one of \(values.map { "'\($0)'" }.joined(separator: ", "))"
        }
        // NaN is a number but lies on no side of a bound.
        if let min = field.minimum, let n = number, !n.isNaN, n < min { return "\(cell) is below the minimum \(min)" }
        if let max = field.maximum, let n = number, !n.isNaN, n > max { return "\(cell) is above the maximum \(max)" }
        if let p = field.pattern,
            p.firstMatch(in: cell, range: NSRange(cell.startIndex..., in: cell)) == nil
        {
            return "'\(cell)' does not match the pattern \(p.pattern)"
        }
        return nil
    }

    /// `cell` read as `field`'s type: `.some(number)` for a number or integer, `.some(nil)` for the
    /// other types, nil when it is not of the type.
    static func read(_ cell: String, _ field: Field) -> Double?? {
        switch field.type {
        case "string": return .some(nil)
        case "integer":
            return matches(cell, #"[+-]?[0-9]+"#) ? .some(Double(cell)) : nil
        case "number":
            if ["nan", "inf", "-inf"].contains(cell.lowercased()) { return .some(Double(cell.lowercased())) }
            return matches(cell, #"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?"#) ? .some(Double(cell)) : nil
        case "boolean":
            return field.trueValues.contains(cell) || field.falseValues.contains(cell) ? .some(nil) : nil
        case "date":
            return validDate(cell) ? .some(nil) : nil
        case "datetime":
            let parts = cell.split(separator: "T", maxSplits: 1).map(String.init)
            guard parts.count == 2, validDate(parts[0]),
                matches(parts[1], #"([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})"#)
            else { return nil }
            return .some(nil)
        default: return nil
        }
    }

    static func validDate(_ text: String) -> Bool {
        guard matches(text, #"[0-9]{4}-[0-9]{2}-[0-9]{2}"#) else { return false }
        let p = text.split(separator: "-").compactMap { Int($0) }
        guard p.count == 3, (1...12).contains(p[1]) else { return false }
        let leap = p[0] % 4 == 0 && (p[0] % 100 != 0 || p[0] % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][p[1] - 1]
        return (1...days).contains(p[2])
    }

    static func matches(_ text: String, _ pattern: String) -> Bool {
        text.range(of: "^(?:\(pattern))$", options: .regularExpression) != nil
    }
}

/// RFC 4180 records of a text (CRLF or LF line ends; quoted fields may hold commas, quotes and line
/// breaks), each with the 1-based line it starts on. Kept apart from the tool's own reader, so the
/// check does not share its bugs.
enum CSVRecords {
    struct Record {
        var line: Int
        var fields: [String]
    }

    static func parse(_ text: String) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var start = 1
        var chars = Array(text.unicodeScalars)[...]
        var atFieldStart = true
        func endRecord() {
            fields.append(field)
            records.append(Record(line: start, fields: fields))
            (fields, field, atFieldStart) = ([], "", true)
        }
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" {
                        field.unicodeScalars.append(chars.removeFirst())
                    } else {
                        quoted = false
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where atFieldStart: quoted = true
            case ",": (fields, field) = (fields + [field], "")
            case "\r" where chars.first == "\n": break
            case "\n":
                endRecord()
                line += 1
                start = line
                continue
            default: field.unicodeScalars.append(c)
            }
            atFieldStart = c == ","
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}
