import Foundation

/// A validator for the subset of JSON Schema (draft 2020-12) that `docs/schemas/` uses: `type`
/// (one or a list), `const`, `enum`, `pattern`, `minimum`, `maximum`, `minLength`, `minItems`,
/// `required`, `properties`, `additionalProperties` (a boolean or a schema), `items`, `oneOf`,
/// `anyOf`, `not`, and `$ref` to `#/$defs/NAME`; annotations (`$schema`, `$id`, `title`,
/// `description`, `format`, `$comment`, `examples`) are ignored. A schema using any other keyword is
/// refused, so a keyword this validator cannot check is never silently passed.
struct JSONSchemaSubset {
    /// The whole schema document (for `$ref`).
    let root: [String: Any]

    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "format", "$comment", "examples"]
    static let assertions: Set<String> = [
        "type", "const", "enum", "pattern", "minimum", "maximum", "minLength", "minItems", "required", "properties",
        "additionalProperties", "items", "oneOf", "anyOf", "not", "$ref", "$defs",
    ]

    init(file: URL) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] else {
            throw SchemaProblem("\(file.path): a schema is a JSON object")
        }
        root = object
    }

    init(_ root: [String: Any]) { self.root = root }

    struct SchemaProblem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Every violation of `instance` against the schema, each `PATH: what`; empty when valid.
    func errors(_ instance: Any) throws -> [String] { try errors(instance, root, path: "$") }

    func errors(_ value: Any, _ schema: [String: Any], path: String) throws -> [String] {
        for key in schema.keys where !Self.annotations.contains(key) && !Self.assertions.contains(key) {
            throw SchemaProblem("schema at \(path): keyword '\(key)' is not in the supported subset")
        }
        if let ref = schema["$ref"] as? String { return try errors(value, resolve(ref), path: path) }
        var out: [String] = []
        if let type = schema["type"] {
            let names = (type as? [String]) ?? [type as? String ?? ""]
            if !names.contains(where: { Self.has(value, type: $0) }) {
                out.append("\(path): \(Self.describe(value)) is not of type \(names.joined(separator: "|"))")
            }
        }
        if let c = schema["const"], !Self.equal(value, c) { out.append("\(path): \(Self.describe(value)) is not \(c)") }
        if let e = schema["enum"] as? [Any], !e.contains(where: { Self.equal(value, $0) }) {
            out.append("\(path): \(Self.describe(value)) is not one of \(e)")
        }
        out += try stringErrors(value, schema, path: path)
        out += numberErrors(value, schema, path: path)
        out += try objectErrors(value, schema, path: path)
        if let array = value as? [Any], !(value is String) {
            if let min = schema["minItems"] as? Int, array.count < min {
                out.append("\(path): fewer than \(min) items")
            }
            if let items = schema["items"] as? [String: Any] {
                for (i, element) in array.enumerated() { out += try errors(element, items, path: "\(path)[\(i)]") }
            }
        }
        out += try combinatorErrors(value, schema, path: path)
        return out
    }

    func stringErrors(_ value: Any, _ schema: [String: Any], path: String) throws -> [String] {
        guard let text = value as? String else { return [] }
        var out: [String] = []
        if let min = schema["minLength"] as? Int, text.count < min { out.append("\(path): shorter than \(min)") }
        if let pattern = schema["pattern"] as? String {
            let regex = try NSRegularExpression(pattern: pattern)
            if regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                out.append("\(path): '\(text)' does not match \(pattern)")
            }
        }
        return out
    }

    func numberErrors(_ value: Any, _ schema: [String: Any], path: String) -> [String] {
        guard let number = Self.number(value) else { return [] }
        var out: [String] = []
        if let min = (schema["minimum"] as? NSNumber)?.doubleValue, number < min {
            out.append("\(path): \(number) is below \(min)")
        }
        if let max = (schema["maximum"] as? NSNumber)?.doubleValue, number > max {
            out.append("\(path): \(number) is above \(max)")
        }
        return out
    }

    func objectErrors(_ value: Any, _ schema: [String: Any], path: String) throws -> [String] {
        guard let object = value as? [String: Any] else { return [] }
        var out: [String] = []
        for key in schema["required"] as? [String] ?? [] where object[key] == nil {
            out.append("\(path): required key '\(key)' is missing")
        }
        let properties = schema["properties"] as? [String: Any] ?? [:]
        for (key, element) in object.sorted(by: { $0.key < $1.key }) {
            if let sub = properties[key] as? [String: Any] {
                out += try errors(element, sub, path: "\(path).\(key)")
            } else if let extra = schema["additionalProperties"] {
                if Self.isBool(extra), let allowed = extra as? Bool {
                    if !allowed { out.append("\(path): key '\(key)' is not in the schema") }
                } else if let sub = extra as? [String: Any] {
                    out += try errors(element, sub, path: "\(path).\(key)")
                }
            }
        }
        return out
    }

    func combinatorErrors(_ value: Any, _ schema: [String: Any], path: String) throws -> [String] {
        var out: [String] = []
        if let all = schema["oneOf"] as? [[String: Any]] {
            let matching = try all.filter { try errors(value, $0, path: path).isEmpty }.count
            if matching != 1 { out.append("\(path): matches \(matching) of the oneOf alternatives, not exactly 1") }
        }
        if let any = schema["anyOf"] as? [[String: Any]],
            try !any.contains(where: { try errors(value, $0, path: path).isEmpty })
        {
            out.append("\(path): matches none of the anyOf alternatives")
        }
        if let not = schema["not"] as? [String: Any], try errors(value, not, path: path).isEmpty {
            out.append("\(path): matches the schema under 'not'")
        }
        return out
    }

    func resolve(_ ref: String) throws -> [String: Any] {
        let prefix = "#/$defs/"
        guard ref.hasPrefix(prefix), let defs = root["$defs"] as? [String: Any],
            let target = defs[String(ref.dropFirst(prefix.count))] as? [String: Any]
        else { throw SchemaProblem("$ref '\(ref)': only #/$defs/NAME of this document is supported") }
        return target
    }

    /// Whether `value` is a JSON boolean: a Swift `Bool`, or an `NSNumber` holding a C `char` (how
    /// `JSONSerialization` holds `true` and `false`, where numbers are `q` or `d`).
    static func isBool(_ value: Any) -> Bool {
        if type(of: value) == Bool.self { return true }
        guard type(of: value) != Int.self, type(of: value) != Double.self, let n = value as? NSNumber else {
            return false
        }
        return String(cString: n.objCType) == "c"
    }

    /// `value` as a number, when it is a JSON number (not a boolean).
    static func number(_ value: Any) -> Double? {
        if isBool(value) { return nil }
        switch value {
        case let n as Int: return Double(n)
        case let n as Double: return n
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }

    static func has(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBool(value)
        case "integer":
            guard let n = number(value) else { return false }
            return n.rounded() == n
        case "number": return number(value) != nil
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    static func equal(_ a: Any, _ b: Any) -> Bool {
        if let x = a as? String, let y = b as? String { return x == y }
        if a is String || b is String { return false }
        if isBool(a) || isBool(b) { return isBool(a) && isBool(b) && (a as? Bool) == (b as? Bool) }
        if let x = number(a), let y = number(b) { return x == y }
        if a is NSNull && b is NSNull { return true }
        return false
    }

    static func describe(_ value: Any) -> String {
        if let text = value as? String { return "'\(text)'" }
        if value is NSNull { return "null" }
        return "\(value)"
    }
}
