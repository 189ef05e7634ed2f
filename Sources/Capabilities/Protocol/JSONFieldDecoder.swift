/// A `Decoder` over a parsed `JSONField`, so that answer types keep their `Decodable`
/// validation while the line is parsed once by `JSONReader`.
///
/// Numbers follow JSON rather than Swift literals: an integer decodes as a `Double`, and a
/// number with a fraction decodes as an integer type only when it is whole and in range.
struct JSONFieldDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONField
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONField, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    /// Decodes `type` from `value`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONField) throws -> T {
        try JSONFieldDecoder(value).decode(type)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let pairs) = value else {
            throw Self.mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(Keyed<Key>(pairs: pairs, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw Self.mismatch([Any].self, value, codingPath) }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Single value

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try Self.unbox(value, as: type, codingPath)
    }

    /// The primitive types read directly; anything else through its own `init(from:)`. The path
    /// is built only when needed (an error, a nested value), as most fields decode without one.
    static func unbox<T: Decodable>(
        _ value: JSONField, as type: T.Type, _ path: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        if T.self == String.self {
            guard case .string(let s) = value else { throw mismatch(type, value, path()) }
            return s as! T
        }
        if T.self == Double.self {
            guard let d = value.doubleValue else { throw mismatch(type, value, path()) }
            return d as! T
        }
        if T.self == Bool.self {
            guard case .bool(let b) = value else { throw mismatch(type, value, path()) }
            return b as! T
        }
        if T.self == Float.self {
            guard let d = value.doubleValue else { throw mismatch(type, value, path()) }
            return Float(d) as! T
        }
        if let integer = T.self as? any FixedWidthInteger.Type {
            guard let i = value.intValue else { throw mismatch(type, value, path()) }
            guard let fitted = integer.init(exactly: i) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path(), debugDescription: "\(i) does not fit in \(type)"))
            }
            return fitted as! T
        }
        return try T(from: JSONFieldDecoder(value, codingPath: path()))
    }

    static func mismatch(_ type: Any.Type, _ value: JSONField, _ path: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(type), found null"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value)"))
    }

    // MARK: Containers

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let pairs: [(String, JSONField)]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { pairs.compactMap { Key(stringValue: $0.0) } }

        func contains(_ key: Key) -> Bool { find(key) != nil }

        func find(_ key: Key) -> JSONField? {
            let name = key.stringValue
            for (k, v) in pairs where k == name { return v }
            return nil
        }

        func value(_ key: Key) throws -> JSONField {
            guard let v = find(key) else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "no field '\(key.stringValue)'"))
            }
            return v
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try JSONFieldDecoder.unbox(try value(key), as: type, codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try JSONFieldDecoder(try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try JSONFieldDecoder(try value(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            JSONFieldDecoder(pairs.first { $0.0 == "super" }?.1 ?? .null, codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONFieldDecoder(find(key) ?? .null, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONField]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(items: [JSONField], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        mutating func next(_ type: Any.Type) throws -> JSONField {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type, .init(codingPath: codingPath, debugDescription: "the array has only \(items.count) items"))
            }
            defer { currentIndex += 1 }
            return items[currentIndex]
        }

        /// The path of the item `next` returned last.
        var lastPath: [any CodingKey] { codingPath + [Index(intValue: currentIndex - 1)] }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let item = try next(type)
            return try JSONFieldDecoder.unbox(item, as: type, lastPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            let item = try next([String: Any].self)
            return try JSONFieldDecoder(item, codingPath: lastPath).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let item = try next([Any].self)
            return try JSONFieldDecoder(item, codingPath: lastPath).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            let item = try next(Any.self)
            return JSONFieldDecoder(item, codingPath: lastPath)
        }
    }

    /// An array position as a coding key.
    struct Index: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }
}

extension JSONField {
    /// Decodes `type` from this parsed value, as the harness decodes an external system's answers
    /// (`JSONReader.parse` then this): the answer types' own `Decodable` checks apply.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONFieldDecoder.decode(type, from: self)
    }
}
