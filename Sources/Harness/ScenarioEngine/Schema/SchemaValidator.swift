import FieldtestData
import Foundation
import Yams

/// Checks a composed YAML document against a `SchemaType`, collecting located
/// diagnostics, and converts it into `LocatedValue`s.
struct SchemaValidator {
    let file: String
    var diagnostics: [ScenarioDiagnostic] = []
    /// Every `.dataset` value seen, with its path and accepted formats, for the
    /// manifest checks that need the bundled datasets (see `ScenarioBuilder`).
    var datasetReferences: [DatasetReference] = []

    init(file: String) { self.file = file }

    mutating func error(_ node: Node?, _ message: String) {
        let mark = node?.mark
        diagnostics.append(
            ScenarioDiagnostic(file: file, line: mark?.line ?? 0, column: mark?.column ?? 0, message: message))
    }

    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s):
            if s.style == .plain && (node.int != nil || node.float != nil) { return "a number" }
            if s.style == .plain && node.bool != nil { return "a boolean" }
            if s.style == .plain && node.null != nil { return "nothing (null)" }
            return "a string"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    static func typeName(_ type: SchemaType) -> String {
        switch type {
        case .string(let allowed):
            return allowed.map { "one of \($0.map { "'\($0)'" }.joined(separator: ", "))" } ?? "a string"
        case .integer: return "an integer"
        case .unsignedInteger: return "an integer from 0 to \(UInt64.max)"
        case .number: return "a number"
        case .boolean: return "true or false"
        case .duration: return "a duration (e.g. 90s, 5m, 2h, 1d)"
        case .period: return "a duration longer than zero (e.g. 90s, 5m, 2h, 1d)"
        case .place: return "a venue name or 'lat,lon'"
        case .timestamp: return "an ISO 8601 time of a day that exists, with zone (e.g. 2018-06-01T00:00:00Z)"
        case .array: return "a list"
        case .object, .map, .tagged: return "a mapping"
        case .oneOf(let alts): return alts.map(typeName).joined(separator: " or ")
        case .scalar: return "a string, number or boolean"
        case .path: return "a path inside Datasets/"
        case .fileName: return "a name made of letters, digits, '.', '_' and '-'"
        case .dataset: return "a dataset name"
        }
    }

    func located(_ node: Node, _ value: YAMLValue) -> LocatedValue {
        LocatedValue(value: value, line: node.mark?.line ?? 0, column: node.mark?.column ?? 0)
    }

    /// Validates `node` as `type`; `path` names it in messages (e.g. `devices[0].gps`).
    mutating func validate(_ node: Node, as type: SchemaType, path: String) -> LocatedValue? {
        if case .alias = node {
            error(node, "'\(path)': YAML aliases are not supported; repeat the value")
            return nil
        }
        switch type {
        case .scalar, .string, .integer, .unsignedInteger, .number, .boolean:
            return validateScalar(node, as: type, path: path)
        case .path, .fileName, .dataset: return validateName(node, as: type, path: path)
        case .duration, .period, .place, .timestamp: return validateTimeOrPlace(node, as: type, path: path)
        case .array, .map, .object, .tagged, .oneOf: return validateContainer(node, as: type, path: path)
        }
    }

    /// `validate` for a scalar: text, a whole or real number, a boolean.
    mutating func validateScalar(_ node: Node, as type: SchemaType, path: String) -> LocatedValue? {
        switch type {
        case .scalar:
            guard case .scalar(let s) = node else { return mismatch(node, type, path) }
            if s.style == .plain, let i = node.int { return located(node, .int(i)) }
            if s.style == .plain, let d = node.float { return located(node, .double(d)) }
            if s.style == .plain, let b = node.bool { return located(node, .bool(b)) }
            return located(node, .string(s.string))
        case .string(let allowed):
            guard case .scalar(let s) = node, !(s.style == .plain && node.null != nil) else {
                return mismatch(node, type, path)
            }
            if let allowed, !allowed.contains(s.string) {
                error(
                    node,
                    "'\(path)': '\(s.string)' is not allowed; expected \(Self.typeName(type))\(Suggest.hint(s.string, allowed))"
                )
                return nil
            }
            return located(node, .string(s.string))
        case .integer(let lo, let hi):
            guard case .scalar(let s) = node, s.style == .plain, let i = node.int else {
                return mismatch(node, type, path)
            }
            if let lo, i < lo {
                error(node, "'\(path)': \(i) is below the minimum \(lo)")
                return nil
            }
            if let hi, i > hi {
                error(node, "'\(path)': \(i) is above the maximum \(hi)")
                return nil
            }
            return located(node, .int(i))
        case .unsignedInteger:
            guard case .scalar(let s) = node, s.style == .plain else { return mismatch(node, type, path) }
            if let i = node.int {
                guard let u = UInt64(exactly: i) else {
                    error(node, "'\(path)': \(i) is below the minimum 0")
                    return nil
                }
                return located(node, .unsigned(u))
            }
            // Beyond Int.max: plain decimal digits up to UInt64.max.
            let digits = s.string.hasPrefix("+") ? s.string.dropFirst() : Substring(s.string)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return mismatch(node, type, path)
            }
            guard let u = UInt64(digits) else {
                error(node, "'\(path)': \(s.string) is above the maximum \(UInt64.max)")
                return nil
            }
            return located(node, .unsigned(u))
        case .number(let lo, let hi):
            guard case .scalar(let s) = node, s.style == .plain, let d = node.float ?? node.int.map(Double.init),
                d.isFinite
            else {
                return mismatch(node, type, path)
            }
            if let lo, d < lo {
                error(node, "'\(path)': \(d) is below the minimum \(lo)")
                return nil
            }
            if let hi, d > hi {
                error(node, "'\(path)': \(d) is above the maximum \(hi)")
                return nil
            }
            return located(node, .double(d))
        case .boolean:
            guard case .scalar(let s) = node, s.style == .plain, let b = node.bool else {
                return mismatch(node, type, path)
            }
            return located(node, .bool(b))
        default: return mismatch(node, type, path)
        }
    }

    /// `validate` for a path under Datasets/, a folder name, a dataset reference.
    mutating func validateName(_ node: Node, as type: SchemaType, path: String) -> LocatedValue? {
        switch type {
        case .path:
            guard case .scalar(let s) = node, !s.string.isEmpty else { return mismatch(node, type, path) }
            let parts = s.string.split(separator: "/")
            if s.string.hasPrefix("/") || s.string.hasPrefix("~") || parts.contains("..") {
                error(
                    node,
                    "'\(path)': '\(s.string)' is outside Datasets/; give a path relative to the Datasets folder without '..'"
                )
                return nil
            }
            return located(node, .string(s.string))
        case .fileName:
            guard case .scalar(let s) = node, !(s.style == .plain && node.null != nil) else {
                return mismatch(node, type, path)
            }
            let allowed = s.string.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "."
                    || $0 == "_" || $0 == "-"
            }
            guard allowed, !s.string.isEmpty, s.string != ".", s.string != ".." else {
                error(
                    node,
                    "'\(path)': '\(s.string)' cannot be used as a folder name; use letters, digits, '.', '_' and '-' only (not empty, not '.' or '..')"
                )
                return nil
            }
            let limit = SchemaType.maximumFileNameLength
            guard s.string.count <= limit else {
                error(node, "'\(path)': the name is \(s.string.count) characters long; shorten it to at most \(limit)")
                return nil
            }
            return located(node, .string(s.string))
        case .dataset(let formats):
            guard case .scalar(let s) = node, !(s.style == .plain && node.null != nil), !s.string.isEmpty else {
                return mismatch(node, type, path)
            }
            let value = located(node, .string(s.string))
            datasetReferences.append(DatasetReference(path: path, value: value, formats: formats))
            return value
        default: return mismatch(node, type, path)
        }
    }

    /// `validate` for a duration, a period, a place, a timestamp.
    mutating func validateTimeOrPlace(_ node: Node, as type: SchemaType, path: String) -> LocatedValue? {
        switch type {
        case .duration:
            if case .scalar(let s) = node, let d = Double(s.string.trimmingCharacters(in: .whitespaces)) ?? node.float,
                !d.isFinite
            {
                error(
                    node, "'\(path)': '\(s.string)' is not a finite duration; give a length such as 90s, 5m, 2h or 1d")
                return nil
            }
            guard case .scalar(let s) = node, let secs = DurationText.seconds(s.string) else {
                return mismatch(node, type, path)
            }
            return located(node, .double(secs))
        case .period(let minimum, let limit):
            guard let value = validate(node, as: .duration, path: path), let secs = value.double else { return nil }
            if secs <= 0 {
                error(node, "'\(path)' must be longer than zero; give a period such as 90s, 5m or 1h")
                return nil
            }
            if secs < minimum {
                error(
                    node,
                    "'\(path)' is \(DurationText.describe(secs)); it must be at least \(DurationText.describe(minimum))"
                )
                return nil
            }
            if secs > limit {
                error(
                    node,
                    "'\(path)' is \(DurationText.describe(secs)); it must be at most \(DurationText.describe(limit))")
                return nil
            }
            return value
        case .place:
            guard let value = validate(node, as: .string(), path: path), let text = value.string else { return nil }
            if case .invalid(let why) = PlaceText.read(text) {
                error(node, "'\(path)': \(why); give a venue name or 'latitude,longitude' in degrees")
                return nil
            }
            return value
        case .timestamp:
            guard case .scalar(let s) = node, let secs = TimestampText.seconds(s.string) else {
                return mismatch(node, type, path)
            }
            return located(node, .double(secs))
        default: return mismatch(node, type, path)
        }
    }

    /// `validate` for a sequence, a mapping, an object, a tagged object, one of several types.
    mutating func validateContainer(_ node: Node, as type: SchemaType, path: String) -> LocatedValue? {
        switch type {
        case .array(let item, let minItems):
            guard case .sequence(let seq) = node else { return mismatch(node, type, path) }
            if seq.count < minItems {
                error(node, "'\(path)': needs at least \(minItems) item\(minItems == 1 ? "" : "s")")
                return nil
            }
            var out: [LocatedValue] = []
            for (i, n) in seq.enumerated() {
                if let v = validate(n, as: item, path: "\(path)[\(i)]") { out.append(v) }
            }
            return located(node, .array(out))
        case .map(let valueType):
            guard case .mapping(let m) = node else { return mismatch(node, type, path) }
            var out: [(key: String, value: LocatedValue)] = []
            for (k, v) in m {
                guard let key = k.string else {
                    error(k, "'\(path)': keys must be strings")
                    continue
                }
                if let lv = validate(v, as: valueType, path: "\(path).\(key)") { out.append((key, lv)) }
            }
            return located(node, .object(out))
        case .object(let schema):
            return validateObject(node, schema, path: path, skip: nil)
        case .tagged(let discriminator, let variants):
            guard case .mapping(let m) = node else { return mismatch(node, type, path) }
            let names = variants.map(\.0)
            guard let tagNode = m.first(where: { $0.key.string == discriminator })?.value else {
                error(
                    node, "'\(path)': missing key '\(discriminator)'; expected one of \(names.joined(separator: ", "))")
                return nil
            }
            guard let tag = tagNode.string, let variant = variants.first(where: { $0.0 == tag })?.1 else {
                let given = tagNode.string ?? ""
                error(
                    tagNode,
                    "'\(path).\(discriminator)': unknown value '\(given)'\(Suggest.hint(given, names)); expected one of \(names.joined(separator: ", "))"
                )
                return nil
            }
            guard var obj = validateObject(node, variant, path: path, skip: discriminator) else { return nil }
            if case .object(var pairs) = obj.value {
                pairs.insert((discriminator, located(tagNode, .string(tag))), at: 0)
                obj.value = .object(pairs)
            }
            return obj
        case .oneOf(let alternatives):
            for alt in alternatives where Self.shapeMatches(node, alt) {
                return validate(node, as: alt, path: path)
            }
            return mismatch(node, type, path)
        default: return mismatch(node, type, path)
        }
    }

    static func shapeMatches(_ node: Node, _ type: SchemaType) -> Bool {
        switch (node, type) {
        case (.scalar, .string), (.scalar, .integer), (.scalar, .unsignedInteger), (.scalar, .number),
            (.scalar, .boolean),
            (.scalar, .duration), (.scalar, .period), (.scalar, .place), (.scalar, .timestamp), (.scalar, .scalar),
            (.scalar, .path), (.scalar, .fileName),
            (.scalar, .dataset):
            return true
        case (.sequence, .array), (.mapping, .object), (.mapping, .map), (.mapping, .tagged):
            return true
        default:
            return false
        }
    }

    mutating func validateObject(_ node: Node, _ schema: ObjectSchema, path: String, skip: String?) -> LocatedValue? {
        guard case .mapping(let m) = node else { return mismatch(node, .object(schema), path) }
        var out: [(key: String, value: LocatedValue)] = []
        var present = Set<String>()
        let names = schema.fields.map(\.name)
        let prefix = path.isEmpty ? "" : "\(path)."
        for (k, v) in m {
            guard let key = k.string else {
                error(k, "keys must be strings")
                continue
            }
            if key == skip {
                present.insert(key)
                continue
            }
            guard let field = schema.field(key) else {
                error(k, "unknown key '\(prefix)\(key)'\(Suggest.hint(key, names))")
                continue
            }
            present.insert(key)
            if let lv = validate(v, as: field.type, path: "\(prefix)\(key)") { out.append((key, lv)) }
        }
        for f in schema.fields where f.required && !present.contains(f.name) {
            error(node, "missing required key '\(prefix)\(f.name)'\(f.doc.isEmpty ? "" : " (\(f.doc))")")
        }
        return located(node, .object(out))
    }

    mutating func mismatch(_ node: Node, _ type: SchemaType, _ path: String) -> LocatedValue? {
        var what = Self.describe(node)
        if case .scalar(let s) = node, what == "a string" || what == "a number" { what += " '\(s.string)'" }
        error(node, "'\(path)': expected \(Self.typeName(type)), found \(what)")
        return nil
    }
}

/// A dataset named by a scenario value, to check against the manifest.
struct DatasetReference {
    /// Where it is, e.g. `feeds[0].dataset` or `sweep.parameters.campus[1]`.
    var path: String
    /// The name and its position.
    var value: LocatedValue
    /// Formats the field accepts.
    var formats: [DatasetFormat]
}
