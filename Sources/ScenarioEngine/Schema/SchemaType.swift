import FieldtestData

/// The shape of a scenario-file value. One description drives three things:
/// validation with located diagnostics, conversion into `YAMLValue`, and the
/// JSON Schema published as `Scenarios/scenario.schema.json`.
public indirect enum SchemaType: Sendable {
    /// Any string; with `allowed`, one of those values.
    case string(allowed: [String]? = nil)
    /// A whole number within the bounds.
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    /// A whole number from 0 to `UInt64.max` (18446744073709551615), e.g. a seed.
    case unsignedInteger
    /// A number within the bounds.
    case number(minimum: Double? = nil, maximum: Double? = nil)
    /// true / false.
    case boolean
    /// A duration: seconds as a number, or text such as `90s`, `5m`, `2h`, `1d`, `1h30m`.
    case duration
    /// An instant, ISO 8601 with a zone (`2018-06-01T00:00:00Z`).
    case timestamp
    /// A list of items of one type.
    case array(SchemaType, minItems: Int = 0)
    /// A mapping with known keys.
    case object(ObjectSchema)
    /// A mapping from free-form keys to values of one type.
    case map(SchemaType)
    /// The first alternative that matches (e.g. an ID or an object with the ID).
    case oneOf([SchemaType])
    /// A mapping whose `discriminator` key picks one of several object shapes.
    case tagged(discriminator: String, variants: [(String, ObjectSchema)])
    /// A scalar of any type (string, number or boolean).
    case scalar
    /// A file path relative to the `Datasets/` folder; paths that leave it are errors.
    case path
    /// A name usable as one path component (a report folder): ASCII letters, digits,
    /// `.`, `_` and `-`, not empty, not `.` or `..`.
    case fileName
    /// The manifest name of a bundled dataset whose format is one of `formats`
    /// (checked against `Datasets/MANIFEST.csv` when the loader has the manifest).
    case dataset(formats: [DatasetFormat])
}

/// The keys of a mapping.
public struct ObjectSchema: Sendable {
    /// Fields in documentation order.
    public var fields: [SchemaField]
    /// A human description for the JSON Schema.
    public var doc: String

    public init(_ doc: String = "", _ fields: [SchemaField]) {
        self.fields = fields
        self.doc = doc
    }

    func field(_ name: String) -> SchemaField? { fields.first { $0.name == name } }
}

/// One key of a mapping.
public struct SchemaField: Sendable {
    /// The key.
    public var name: String
    /// Its value's type.
    public var type: SchemaType
    /// Whether the key must be present.
    public var required: Bool
    /// What it means, with units.
    public var doc: String

    public init(_ name: String, _ type: SchemaType, required: Bool = false, _ doc: String = "") {
        self.name = name
        self.type = type
        self.required = required
        self.doc = doc
    }
}
