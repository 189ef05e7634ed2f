import FieldtestData
import Foundation

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
    /// A repeat period, window or length: a duration longer than zero, at least
    /// `minimum` and at most `maximum` seconds (default: `ScenarioSchema.maximumDuration`, 366 d).
    case period(minimum: Double = 0, maximum: Double = ScenarioSchema.maximumDuration)
    /// A place as text: a venue name, or `lat,lon` in degrees (finite, latitude
    /// −90…90, longitude −180…180). Text of two comma-separated numbers is
    /// always read as coordinates (see `PlaceText`).
    case place
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
    /// `.`, `_` and `-`, not empty, not `.` or `..`, at most `maximumFileNameLength`
    /// characters (report file names add suffixes to it).
    case fileName
    /// The manifest name of a bundled dataset whose format is one of `formats`
    /// (checked against `Datasets/MANIFEST.csv` when the loader has the manifest).
    case dataset(formats: [DatasetFormat])
}

extension SchemaType {
    /// The longest `.fileName` value, characters.
    public static let maximumFileNameLength = 100
}

/// Coordinates written as text (`"-0.197,-78.502"`), as place fields accept them.
public enum PlaceText {
    /// What a place text is.
    public enum Reading: Equatable, Sendable {
        /// Not two comma-separated numbers: a name.
        case name
        /// Valid coordinates, degrees.
        case coordinates(latitude: Double, longitude: Double)
        /// Two numbers that are not a position on Earth; the message says why.
        case invalid(String)
    }

    /// Reads `text`: two comma-separated numbers are coordinates and must be
    /// finite with |latitude| ≤ 90 and |longitude| ≤ 180; anything else is a name.
    public static func read(_ text: String) -> Reading {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let lon = Double(parts[1].trimmingCharacters(in: .whitespaces))
        else { return .name }
        guard lat.isFinite, lon.isFinite else {
            return .invalid("'\(text)' is not a position: latitude and longitude must be finite numbers of degrees")
        }
        guard abs(lat) <= 90 else { return .invalid("latitude \(lat) in '\(text)' is outside -90…90 degrees") }
        guard abs(lon) <= 180 else { return .invalid("longitude \(lon) in '\(text)' is outside -180…180 degrees") }
        return .coordinates(latitude: lat, longitude: lon)
    }
}

/// The keys of a mapping.
public struct ObjectSchema: Sendable {
    /// Fields in documentation order.
    public var fields: [SchemaField]
    /// A human description for the JSON Schema.
    public var doc: String
    /// For an action or a feed: the occurrences of work one occurrence counts as toward the
    /// scenario's bound (`ScenarioSchema.maximumOccurrences`), before its work fields multiply it
    /// (see `SchemaField.workUnit`). Above one for what costs more than the bound's unit
    /// (`fieldtest-bench actions` measures it).
    public var work: Double

    public init(_ doc: String = "", _ fields: [SchemaField], work: Double = 1) {
        self.fields = fields
        self.doc = doc
        self.work = work
    }

    /// How many occurrences of work one occurrence of this action or feed counts as, given its
    /// `value`: `work` times each work field's `value / workUnit` (each at least one).
    public func workWeight(of value: LocatedValue) -> Double {
        fields.reduce(work) { weight, field in
            guard let unit = field.workUnit, let amount = value[field.name]?.double else { return weight }
            return weight * max(1, amount / unit)
        }
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
    /// When set, the field asks for work in proportion to its number (routes, entries, queries):
    /// each occurrence of its action, or delivery of its feed, counts as `value / workUnit`
    /// occurrences (at least one) toward the scenario's bound, `ScenarioSchema.maximumOccurrences`.
    public var workUnit: Double?

    public init(_ name: String, _ type: SchemaType, required: Bool = false, _ doc: String = "") {
        self.name = name
        self.type = type
        self.required = required
        self.doc = doc
    }

    /// This field, counting `unit` of its value as one occurrence of work (see `workUnit`).
    public func countingWork(per unit: Double = 1) -> SchemaField {
        var field = self
        field.workUnit = unit
        return field
    }
}
