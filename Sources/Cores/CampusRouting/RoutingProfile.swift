import FieldtestData
import Foundation

/// How a profile treats ways that carry no accessibility tag (`accessibilityKey`).
public enum UnknownAccessibility: String, Sendable, Equatable {
    /// Untagged ways are usable (they are counted in the route's accessibility audit).
    case allow
    /// Only ways tagged with `accessibilityKey` (and not excluded) are usable.
    case forbid
}

/// Directions in which a profile may traverse a way.
public struct TravelDirections: Sendable, Equatable {
    /// Along the way's node order.
    public var forward: Bool
    /// Against the way's node order.
    public var backward: Bool

    /// Creates a direction set.
    public init(forward: Bool, backward: Bool) {
        self.forward = forward
        self.backward = backward
    }
}

/// A routing profile: which ways and nodes a traveller may use, and how fast they go.
///
/// Profiles are data, read from YAML (`RoutingProfiles.defaultYAML` documents the schema). The rules,
/// applied in order to a way's tags:
/// 1. `highway` must be one of `highways`;
/// 2. excluded when the mode key (e.g. `foot`) is in `modeDenied`;
/// 3. excluded when `access` is in `accessDenied` unless the mode key is in `modeOverridesAccess`;
/// 4. excluded when any `excludeWays` key has one of its listed values;
/// 5. excluded when a numeric `incline` is steeper than `maxInclinePercent` (either sign; `%`, `°` or bare percent);
/// 6. under `unknownAccessibility == .forbid`, excluded when `accessibilityKey` is absent.
/// One-way restrictions apply only through `onewayKey` (`yes`/`true`/`1` forward, `-1` backward).
/// Nodes matching `excludeNodes` are impassable: every edge through them is removed.
public struct RoutingProfile: Sendable, Equatable {
    /// Profile name used in queries (e.g. `walk`).
    public var name: String
    /// One-line description.
    public var summary: String
    /// Free-flow speed in metres per second (profiles files accept `speedRange`).
    public var speedMetresPerSecond: Double
    /// Accepted `speed_mps` of a profiles file, in metres per second: 0.05…20 (a slow shuffle to a sprint).
    public static let speedRange: ClosedRange<Double> = 0.05...20
    /// Accepted `max_incline_percent` of a profiles file: 0…100 % (a 45° slope); the limit applies to both directions.
    public static let maxInclineRange: ClosedRange<Double> = 0...100
    /// Accepted `highway` values.
    public var highways: Set<String>
    /// The tag naming this mode's own access (e.g. `foot`).
    public var modeKey: String
    /// Values of `modeKey` that exclude a way.
    public var modeDenied: Set<String>
    /// Values of `access` that exclude a way unless overridden by `modeKey`.
    public var accessDenied: Set<String>
    /// Values of `modeKey` that override a denying `access`.
    public var modeOverridesAccess: Set<String>
    /// The tag whose `yes`/`-1` makes a way one-way for this mode (e.g. `oneway:foot`); nil ignores one-ways.
    public var onewayKey: String?
    /// Way tags that exclude a way: key → values.
    public var excludeWays: [String: Set<String>]
    /// Node tags that make a node impassable: key → values.
    public var excludeNodes: [String: Set<String>]
    /// Steepest allowed numeric incline in percent; nil for no limit.
    public var maxInclinePercent: Double?
    /// The tag stating accessibility (e.g. `wheelchair`).
    public var accessibilityKey: String
    /// Strict or allow-unknown handling of ways without `accessibilityKey`.
    public var unknownAccessibility: UnknownAccessibility

    /// Creates a profile.
    public init(
        name: String, summary: String = "", speedMetresPerSecond: Double, highways: Set<String>,
        modeKey: String = "foot", modeDenied: Set<String> = ["no"], accessDenied: Set<String> = ["no", "private"],
        modeOverridesAccess: Set<String> = ["yes", "designated", "permissive"], onewayKey: String? = "oneway:foot",
        excludeWays: [String: Set<String>] = [:], excludeNodes: [String: Set<String>] = [:],
        maxInclinePercent: Double? = nil, accessibilityKey: String = "wheelchair",
        unknownAccessibility: UnknownAccessibility = .allow
    ) {
        self.name = name
        self.summary = summary
        self.speedMetresPerSecond = speedMetresPerSecond
        self.highways = highways
        self.modeKey = modeKey
        self.modeDenied = modeDenied
        self.accessDenied = accessDenied
        self.modeOverridesAccess = modeOverridesAccess
        self.onewayKey = onewayKey
        self.excludeWays = excludeWays
        self.excludeNodes = excludeNodes
        self.maxInclinePercent = maxInclinePercent
        self.accessibilityKey = accessibilityKey
        self.unknownAccessibility = unknownAccessibility
    }

    /// The directions in which this profile may use a way with `tags`, or nil when excluded. O(tags).
    public func directions(wayTags tags: [String: String]) -> TravelDirections? {
        guard let highway = tags["highway"], highways.contains(highway) else { return nil }
        let mode = tags[modeKey]
        if let mode, modeDenied.contains(mode) { return nil }
        if let access = tags["access"], accessDenied.contains(access),
            !(mode.map { modeOverridesAccess.contains($0) } ?? false)
        {
            return nil
        }
        for (key, values) in excludeWays {
            if let v = tags[key], values.contains(v) { return nil }
        }
        if let limit = maxInclinePercent, let raw = tags["incline"], let grade = RoutingProfile.inclinePercent(raw),
            abs(grade) > limit
        {
            return nil
        }
        if unknownAccessibility == .forbid, tags[accessibilityKey] == nil { return nil }
        if let key = onewayKey, let v = tags[key] {
            switch v {
            case "yes", "true", "1": return TravelDirections(forward: true, backward: false)
            case "-1", "reverse": return TravelDirections(forward: false, backward: true)
            default: break
            }
        }
        return TravelDirections(forward: true, backward: true)
    }

    /// Whether a node with `tags` is impassable for this profile. O(tags).
    public func blocks(nodeTags tags: [String: String]) -> Bool {
        if tags.isEmpty { return false }
        for (key, values) in excludeNodes {
            if let v = tags[key], values.contains(v) { return true }
        }
        return false
    }

    /// A numeric OSM `incline` in percent: `8%`, `-12 %`, `4.5°` (converted by tan), or a bare number
    /// (read as percent); nil for `up`, `down` and other non-numeric values. O(length).
    public static func inclinePercent(_ raw: String) -> Double? {
        var s = raw.trimmedOfWhitespace.replacingOccurrences(of: ",", with: ".")
        var degrees = false
        if s.hasSuffix("%") {
            s.removeLast()
        } else if s.hasSuffix("°") {
            s.removeLast()
            degrees = true
        } else if s.hasSuffix("deg") {
            s.removeLast(3)
            degrees = true
        }
        guard let v = Double(s.trimmedOfWhitespace), v.isFinite else { return nil }
        return degrees ? tan(v * .pi / 180) * 100 : v
    }
}
