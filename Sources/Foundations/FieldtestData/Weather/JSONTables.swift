import Foundation

/// A JSON table keyed by code (GeoNames `us_states.json`, `countries.json`).
public struct JSONTable: Sendable {
    /// Entry keys (e.g. `NY`, `FR`) in sorted order.
    public var keys: [String]
    /// The `name` field of each entry, by key.
    public var names: [String: String]
}

/// Loader of code-keyed JSON objects whose values are objects with a `name` string.
public enum JSONTableLoader {
    /// Loads `url`; every entry must be an object holding a non-empty `name`, and
    /// when the entry has `code` or `iso` it must equal the key.
    public static func load(url: URL, displayName: String? = nil) throws(DataError) -> JSONTable {
        let name = displayName ?? url.path
        let bytes = try readFileBytes(url, displayName: name)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw .invalidUTF8(file: name, line: 1, field: nil)
        }
        guard let obj = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
            throw .badLayout(file: name, line: 1, reason: "not valid JSON")
        }
        guard let dict = obj as? [String: Any] else {
            throw .badLayout(file: name, line: 1, reason: "expected a JSON object keyed by code")
        }
        guard !dict.isEmpty else { throw .empty(file: name) }
        var names: [String: String] = [:]
        for (key, value) in dict {
            guard let entry = value as? [String: Any] else {
                throw .badLayout(file: name, line: 1, reason: "entry '\(key)' is not an object")
            }
            guard let n = entry["name"] as? String, !n.isEmpty else {
                throw .badLayout(file: name, line: 1, reason: "entry '\(key)' has no 'name'")
            }
            for field in ["code", "iso"] {
                if let c = entry[field] as? String, c != key {
                    throw .badLayout(
                        file: name, line: 1, reason: "entry '\(key)' has \(field) '\(c)', expected '\(key)'")
                }
            }
            names[key] = n
        }
        return JSONTable(keys: names.keys.sorted(), names: names)
    }
}
