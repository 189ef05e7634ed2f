import FieldtestData
import Foundation
import Yams

/// A set of routing profiles read from YAML.
public struct RoutingProfiles: Sendable, Equatable {
    /// Profiles in document order.
    public var profiles: [RoutingProfile]

    /// Creates a set from profiles.
    public init(_ profiles: [RoutingProfile]) { self.profiles = profiles }

    /// The profile named `name`, if any.
    public func profile(named name: String) -> RoutingProfile? { profiles.first { $0.name == name } }

    /// The built-in profiles (`walk`, `wheelchair`, `wheelchair-strict`, and AccessMap-style
    /// `manual-wheelchair`, `powered-wheelchair`, `cane`), parsed from `defaultYAML`.
    public static let builtIn: RoutingProfiles = {
        // The embedded document is checked by the test suite; a parse failure here is a programming error
        // that the tests catch, so fall back to an empty set rather than crash.
        (try? RoutingProfiles(yaml: defaultYAML, file: "<built-in profiles>")) ?? RoutingProfiles([])
    }()

    /// The default profile document, which is also the schema's documentation.
    public static let defaultYAML = """
        # Fieldtest routing profiles, schema version 1.
        #
        # Each profile under `profiles:` may set:
        #   inherits:              another profile of this file to start from
        #   description:           one line shown in listings
        #   speed_mps:             free-flow speed in metres per second, 0.05…20
        #   highways:              list of accepted `highway=*` values
        #   mode_key:              the tag for this mode's access (default foot)
        #   mode_denied:           values of mode_key that exclude a way (default ["no"])
        #   access_denied:         values of `access` that exclude a way ... (default ["no", "private"])
        #   mode_overrides_access: ... unless mode_key has one of these (default ["yes", "designated", "permissive"])
        #   oneway_key:            tag whose yes / -1 makes a way one-way for this mode; "" ignores one-ways
        #                          (default oneway:foot: pedestrians ignore plain `oneway`)
        #   exclude_ways:          map tag -> list of values; a way with any is unusable
        #   exclude_nodes:         map tag -> list of values; a node with any is impassable
        #   max_incline_percent:   steepest numeric `incline` allowed, either direction, 0…100 (`up`/`down` are not
        #                          numeric); null for no limit
        #   accessibility_key:     the tag stating accessibility (default wheelchair)
        #   unknown_accessibility: allow (untagged ways usable, reported in the audit) or forbid (strict)
        # Quote yes/no values: YAML 1.1 readers take a bare no for false.
        version: 1
        profiles:
          walk:
            description: Pedestrian on foot
            speed_mps: 1.4
            highways: [footway, path, pedestrian, steps, living_street, residential, service, track,
                       unclassified, tertiary, tertiary_link, secondary, secondary_link, primary, primary_link,
                       cycleway, corridor]
            mode_key: foot
            mode_denied: ["no"]
            access_denied: ["no", "private"]
            mode_overrides_access: ["yes", "designated", "permissive"]
            oneway_key: "oneway:foot"
            unknown_accessibility: allow
          wheelchair:
            inherits: walk
            description: Wheelchair user; no steps, no wheelchair=no, inclines up to 8 %, no raised kerbs or stiles
            speed_mps: 1.0
            exclude_ways:
              highway: [steps]
              wheelchair: ["no"]
            exclude_nodes:
              kerb: [raised]
              barrier: [stile, turnstile, kissing_gate]
              wheelchair: ["no"]
            max_incline_percent: 8
            unknown_accessibility: allow
          wheelchair-strict:
            inherits: wheelchair
            description: Wheelchair user who only trusts ways tagged with wheelchair=*
            exclude_ways:
              highway: [steps]
              wheelchair: ["no", "limited"]
            unknown_accessibility: forbid
          manual-wheelchair:
            inherits: wheelchair
            description: AccessMap-style manual wheelchair preset (incline up to 8.33 %, the ADA ramp slope)
            speed_mps: 0.9
            max_incline_percent: 8.33
          powered-wheelchair:
            inherits: wheelchair
            description: AccessMap-style powered wheelchair preset (incline up to 12 %)
            speed_mps: 1.3
            max_incline_percent: 12
          cane:
            inherits: walk
            description: AccessMap-style cane preset (avoids steps, incline up to 14 %)
            speed_mps: 1.0
            exclude_ways:
              highway: [steps]
            max_incline_percent: 14
        """

    fileprivate static let knownKeys: Set<String> = [
        "inherits", "description", "speed_mps", "highways", "mode_key", "mode_denied", "access_denied",
        "mode_overrides_access", "oneway_key", "exclude_ways", "exclude_nodes", "max_incline_percent",
        "accessibility_key", "unknown_accessibility",
    ]

    /// The most profiles one document may define. Each profile gets its own adjacency and landmark
    /// tables (about the size of the graph each), so an unbounded count is unbounded memory.
    public static let maximumProfiles = 32

    /// The largest profile document read, in bytes (a document of 32 full profiles is about 16 KB).
    public static let maximumDocumentBytes = 1 << 20

    /// Parses a profile document; errors name `file` and the 1-based line. O(document size).
    public init(yaml: String, file: String) throws(RoutingError) {
        let root: Node
        do {
            // Plain scalars stay untyped (the basic resolver): every field is read as text and parsed here,
            // and the default resolver's regular expressions cost about 2 ms to compile on every run.
            guard let node = try Yams.compose(yaml: yaml, .basic) else {
                throw RoutingError.invalidProfile(file: file, line: 1, reason: "empty profile document")
            }
            root = node
        } catch let e as RoutingError {
            throw e
        } catch {
            throw .invalidProfile(file: file, line: nil, reason: "not valid YAML: \(error)")
        }
        var reader = ProfileDocumentReader(file: file)
        let (profilesNode, raw) = try reader.profileNodes(root)
        reader.raw = raw
        var order: [RoutingProfile] = []
        for (name, node) in raw { order.append(try reader.resolve(name, node, depth: 0)) }
        guard !order.isEmpty else { throw reader.fail(profilesNode, "no profiles defined") }
        self.profiles = order
    }

    /// Optimal-string-alignment edit distance, for "did you mean" hints. O(|a|·|b|).
    static func editDistance(_ a: String, _ b: String) -> Int {
        DamerauLevenshtein.distance(a, b)
    }
}

extension Node.Mapping {
    /// The value of the key `key`, compared as text (`subscript` would compare resolved tags too).
    fileprivate func value(of key: String) -> Node? { first { $0.key.string == key }?.value }
}

/// Reads the profiles of one document: each profile's keys, resolved through `inherits`, with errors
/// naming the file and the line of the offending node.
private struct ProfileDocumentReader {
    let file: String
    /// The document's profiles by name, in document order, not yet resolved.
    var raw: [(String, Node)] = []
    /// Profiles resolved so far, by name.
    var built: [String: RoutingProfile] = [:]

    init(file: String) { self.file = file }

    func fail(_ n: Node, _ reason: String) -> RoutingError {
        .invalidProfile(file: file, line: n.mark.map { $0.line }, reason: reason)
    }

    /// The `profiles` mapping and its entries, after checking the top level.
    func profileNodes(_ root: Node) throws(RoutingError) -> (Node, [(String, Node)]) {
        guard let top = root.mapping else { throw fail(root, "expected a mapping with 'version' and 'profiles'") }
        guard let v = top.value(of: "version") else {
            throw fail(root, "missing 'version'; this reader supports version 1")
        }
        guard v.int == 1 else { throw fail(v, "unsupported version '\(v.string ?? "?")'; supported versions: 1") }
        for (k, _) in top where k.string != "version" && k.string != "profiles" {
            throw fail(k, "unknown key '\(k.string ?? "?")'; the top level has 'version' and 'profiles'")
        }
        guard let profilesNode = top.value(of: "profiles"), let entries = profilesNode.mapping else {
            throw fail(root, "missing 'profiles' mapping")
        }
        var raw: [(String, Node)] = []
        for (k, value) in entries {
            guard raw.count < RoutingProfiles.maximumProfiles else {
                throw fail(
                    k,
                    "more than \(RoutingProfiles.maximumProfiles) profiles; each one costs a copy of the graph's tables"
                )
            }
            guard let name = k.string, !name.isEmpty else { throw fail(k, "a profile name must be a string") }
            guard value.mapping != nil else { throw fail(value, "profile '\(name)' must be a mapping") }
            raw.append((name, value))
        }
        return (profilesNode, raw)
    }

    func strings(_ n: Node, _ key: String) throws(RoutingError) -> Set<String> {
        guard let seq = n.sequence else { throw fail(n, "'\(key)' must be a list") }
        var out: Set<String> = []
        for item in seq {
            guard let s = item.string else { throw fail(item, "'\(key)' entries must be strings") }
            out.insert(s)
        }
        return out
    }

    func tagMap(_ n: Node, _ key: String) throws(RoutingError) -> [String: Set<String>] {
        guard let m = n.mapping else { throw fail(n, "'\(key)' must map tags to lists of values") }
        var out: [String: Set<String>] = [:]
        for (k, vals) in m {
            guard let tag = k.string else { throw fail(k, "'\(key)' keys must be tag names") }
            out[tag] = try strings(vals, "\(key).\(tag)")
        }
        return out
    }

    func number(_ n: Node, _ key: String) throws(RoutingError) -> Double {
        guard let d = n.float ?? n.int.map(Double.init), d.isFinite else {
            throw fail(n, "'\(key)' must be a number")
        }
        return d
    }

    /// The profile `name` (its `node`), its parent resolved first; `depth` bounds an `inherits` cycle.
    mutating func resolve(_ name: String, _ node: Node, depth: Int) throws(RoutingError) -> RoutingProfile {
        if let done = built[name] { return done }
        guard depth < 16 else { throw fail(node, "profile '\(name)' inherits in a cycle") }
        guard let m = node.mapping else { throw fail(node, "profile '\(name)' must be a mapping") }
        for (k, _) in m {
            let key = k.string ?? ""
            if !RoutingProfiles.knownKeys.contains(key) {
                let hint =
                    RoutingProfiles.knownKeys.min {
                        RoutingProfiles.editDistance($0, key) < RoutingProfiles.editDistance($1, key)
                    } ?? ""
                throw fail(k, "unknown key '\(key)' in profile '\(name)'; did you mean '\(hint)'?")
            }
        }
        var p: RoutingProfile
        if let parentNode = m.value(of: "inherits") {
            guard let parent = parentNode.string, let entry = raw.first(where: { $0.0 == parent }) else {
                throw fail(parentNode, "profile '\(name)' inherits unknown profile '\(parentNode.string ?? "?")'")
            }
            p = try resolve(parent, entry.1, depth: depth + 1)
            p.name = name
        } else {
            p = RoutingProfile(name: name, speedMetresPerSecond: 0, highways: [])
        }
        try apply(m, to: &p)
        guard p.speedMetresPerSecond > 0 else { throw fail(node, "profile '\(name)' needs speed_mps") }
        guard !p.highways.isEmpty else { throw fail(node, "profile '\(name)' needs a non-empty 'highways' list") }
        built[name] = p
        return p
    }

    /// Sets the fields the mapping `m` gives on `p` (what it inherited stays where `m` is silent).
    func apply(_ m: Node.Mapping, to p: inout RoutingProfile) throws(RoutingError) {
        if let n = m.value(of: "description") { p.summary = n.string ?? "" }
        if let n = m.value(of: "speed_mps") {
            let s = try number(n, "speed_mps")
            guard RoutingProfile.speedRange.contains(s) else {
                throw fail(n, "'speed_mps' is \(s); it must be in 0.05…20 metres per second (walking is about 1.4)")
            }
            p.speedMetresPerSecond = s
        }
        if let n = m.value(of: "highways") { p.highways = try strings(n, "highways") }
        if let n = m.value(of: "mode_key") { p.modeKey = n.string ?? p.modeKey }
        if let n = m.value(of: "mode_denied") { p.modeDenied = try strings(n, "mode_denied") }
        if let n = m.value(of: "access_denied") { p.accessDenied = try strings(n, "access_denied") }
        if let n = m.value(of: "mode_overrides_access") {
            p.modeOverridesAccess = try strings(n, "mode_overrides_access")
        }
        if let n = m.value(of: "oneway_key") { p.onewayKey = (n.string ?? "").isEmpty ? nil : n.string }
        if let n = m.value(of: "exclude_ways") { p.excludeWays = try tagMap(n, "exclude_ways") }
        if let n = m.value(of: "exclude_nodes") { p.excludeNodes = try tagMap(n, "exclude_nodes") }
        if let n = m.value(of: "max_incline_percent") { p.maxInclinePercent = try inclineLimit(n) }
        if let n = m.value(of: "accessibility_key") { p.accessibilityKey = n.string ?? p.accessibilityKey }
        if let n = m.value(of: "unknown_accessibility") {
            guard let s = n.string, let u = UnknownAccessibility(rawValue: s) else {
                throw fail(n, "'unknown_accessibility' must be allow or forbid")
            }
            p.unknownAccessibility = u
        }
    }

    /// `max_incline_percent`: a percentage in 0…100, or null for no limit.
    func inclineLimit(_ n: Node) throws(RoutingError) -> Double? {
        if ["null", "~", ""].contains(n.string ?? "") { return nil }
        let limit = try number(n, "max_incline_percent")
        guard RoutingProfile.maxInclineRange.contains(limit) else {
            throw fail(
                n,
                "'max_incline_percent' is \(limit); it must be in 0…100 percent (it limits the incline in both directions), or null for no limit"
            )
        }
        return limit
    }
}
