import FieldtestData
import Foundation

/// Renders the scenario schema as JSON Schema (draft 2020-12) so editors can
/// complete and validate scenario files. Generated from the same
/// `SchemaType` description the validator uses, so the two cannot drift.
public enum JSONSchemaWriter {
    /// The schema document of scenarios for the apps of `registry`, pretty-printed with sorted keys.
    public static func render(_ registry: AppRegistry) -> String {
        var root = object(ScenarioSchema.document(app: nil, registry: registry))
        root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        root["$id"] = "https://fieldtest.invalid/scenario.schema.json"
        root["title"] = "Fieldtest scenario (version 1)"
        let data = try? JSONSerialization.data(
            withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return (data.flatMap { String(data: $0, encoding: .utf8) } ?? "{}") + "\n"
    }

    static func object(_ schema: ObjectSchema) -> [String: Any] {
        var props: [String: Any] = [:]
        for f in schema.fields {
            var p = json(f.type)
            if !f.doc.isEmpty { p["description"] = (p["description"] as? String).map { "\(f.doc); \($0)" } ?? f.doc }
            props[f.name] = p
        }
        var out: [String: Any] = ["type": "object", "properties": props, "additionalProperties": false]
        let required = schema.fields.filter(\.required).map(\.name)
        if !required.isEmpty { out["required"] = required }
        if !schema.doc.isEmpty { out["description"] = schema.doc }
        return out
    }

    /// Letters, digits, `.`, `_`, `-`; not `.` or `..`.
    static let fileNamePattern = "^(?!\\.\\.?$)[A-Za-z0-9._-]+$"

    static let durationPattern = "^([0-9]+(\\.[0-9]+)?(ms|s|m|min|h|d))+$"

    static func json(_ type: SchemaType) -> [String: Any] {
        switch type {
        case .string(let allowed):
            return allowed.map { ["type": "string", "enum": $0] } ?? ["type": "string"]
        case .integer(let lo, let hi):
            var o: [String: Any] = ["type": "integer"]
            if let lo { o["minimum"] = lo }
            if let hi { o["maximum"] = hi }
            return o
        case .unsignedInteger:
            return ["type": "integer", "minimum": 0, "maximum": NSNumber(value: UInt64.max)]
        case .number(let lo, let hi):
            var o: [String: Any] = ["type": "number"]
            if let lo { o["minimum"] = lo }
            if let hi { o["maximum"] = hi }
            return o
        case .boolean:
            return ["type": "boolean"]
        case .duration:
            return ["oneOf": [["type": "number", "minimum": 0], ["type": "string", "pattern": durationPattern]]]
        case .period(let minimum, let maximum):
            return [
                "oneOf": [
                    ["type": "number", "exclusiveMinimum": 0, "minimum": minimum, "maximum": maximum],
                    ["type": "string", "pattern": durationPattern],
                ],
                "description":
                    "longer than zero\(minimum > 0 ? ", at least \(DurationText.describe(minimum))" : ""), at most \(DurationText.describe(maximum))",
            ]
        case .place:
            return [
                "type": "string", "minLength": 1,
                "description": "a venue name, or 'lat,lon' in degrees (latitude -90..90, longitude -180..180)",
            ]
        case .timestamp:
            return ["type": "string", "format": "date-time"]
        case .path:
            return ["type": "string", "pattern": "^(?!/)(?!.*(^|/)\\.\\.(/|$)).+$"]
        case .fileName:
            return ["type": "string", "pattern": fileNamePattern, "maxLength": SchemaType.maximumFileNameLength]
        case .dataset(let formats):
            return [
                "type": "string", "minLength": 1,
                "description": "format \(formats.map(\.rawValue).joined(separator: " or "))",
            ]
        case .scalar:
            return ["type": ["string", "number", "boolean"]]
        case .array(let item, let minItems):
            var o: [String: Any] = ["type": "array", "items": json(item)]
            if minItems > 0 { o["minItems"] = minItems }
            return o
        case .object(let schema):
            return object(schema)
        case .map(let value):
            return ["type": "object", "additionalProperties": json(value)]
        case .oneOf(let alternatives):
            return ["oneOf": alternatives.map(json)]
        case .tagged(let discriminator, let variants):
            return [
                "oneOf": variants.map { name, schema -> [String: Any] in
                    var o = object(schema)
                    var props = o["properties"] as? [String: Any] ?? [:]
                    props[discriminator] = ["const": name]
                    o["properties"] = props
                    o["required"] = ((o["required"] as? [String]) ?? []) + [discriminator]
                    if !schema.doc.isEmpty { o["description"] = schema.doc }
                    return o
                }
            ]
        }
    }
}
