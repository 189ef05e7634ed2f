import Foundation

/// `run.json`'s `machine` object: facts about the machine a run was measured on, by snake-case key
/// (`host`, `machine_id`, `cpu`, `os`, `cores`, `memory_bytes`, `build`, `virtual_machine_boot`).
///
/// Held as text, the way the terminal and the reports show it; written with the counts (`cores`,
/// `memory_bytes`) as JSON integers. Read either way: `run.json` files of format 1 wrote every value
/// as a string (`"cores": "2"`).
public struct MachineRecord: Codable, Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The keys whose values are integers in `run.json` (format 2 on).
    public static let integerKeys: Set<String> = ["cores", "memory_bytes"]

    /// Every fact, by key, as text.
    public var facts: [String: String]

    /// The facts `facts` holds.
    public init(_ facts: [String: String]) { self.facts = facts }

    public init(dictionaryLiteral elements: (String, String)...) {
        facts = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The fact named `key`, as text.
    public subscript(key: String) -> String? {
        get { facts[key] }
        set { facts[key] = newValue }
    }

    /// Whether no fact is recorded.
    public var isEmpty: Bool { facts.isEmpty }

    struct FactKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FactKey.self)
        var facts: [String: String] = [:]
        for key in c.allKeys {
            if let text = try? c.decode(String.self, forKey: key) {
                facts[key.stringValue] = text
            } else if let whole = try? c.decode(Int64.self, forKey: key) {
                facts[key.stringValue] = String(whole)
            } else if let whole = try? c.decode(UInt64.self, forKey: key) {
                facts[key.stringValue] = String(whole)
            } else {
                let number = try c.decode(Double.self, forKey: key)
                facts[key.stringValue] = String(number)
            }
        }
        self.facts = facts
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FactKey.self)
        for (key, value) in facts.sorted(by: { $0.key < $1.key }) {
            if Self.integerKeys.contains(key), let number = UInt64(value) {
                try c.encode(number, forKey: FactKey(stringValue: key))
            } else {
                try c.encode(value, forKey: FactKey(stringValue: key))
            }
        }
    }
}
