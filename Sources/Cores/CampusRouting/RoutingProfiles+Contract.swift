import FieldtestData

extension RoutingProfiles {
    /// The marker line before the generated section of docs/system-protocol.md.
    public static let contractBeginMarker = "<!-- BEGIN generated: RoutingProfiles.contractMarkdown() -->"
    /// The marker line after the generated section of docs/system-protocol.md.
    public static let contractEndMarker = "<!-- END generated: RoutingProfiles.contractMarkdown() -->"

    /// The routing contract of these profiles as Markdown: per profile, which OSM ways and nodes it may
    /// use (accepted `highway` values, mode and access rules, one-way key, excluded way and node tags,
    /// incline limit, untagged accessibility) and its speed. docs/system-protocol.md holds this text
    /// for `builtIn` between `contractBeginMarker` and `contractEndMarker`. O(profiles × rules).
    public func contractMarkdown() -> String {
        var out = [
            "Generated from the built-in profiles YAML (`RoutingProfiles.defaultYAML`). A way is usable when every",
            "rule below allows it. A path's steps are pairs of consecutive node ids along a usable way, walkable in",
            "both directions unless the one-way key says otherwise (a way is cut where the extract lacks a node).",
            "Ways are split into pieces at junctions: their ends and every node that ways usable by any profile",
            "share (or one such way passes twice). A piece that passes through or ends at a node with an excluded",
            "tag is impassable for the profile: none of its steps may be used.",
        ]
        for p in profiles { out += [""] + Self.contract(of: p) }
        return out.joined(separator: "\n") + "\n"
    }

    /// The bullet list of one profile.
    static func contract(of p: RoutingProfile) -> [String] {
        func code(_ values: Set<String>) -> String { values.sorted().map { "`\($0)`" }.joined(separator: ", ") }
        func tags(_ map: [String: Set<String>]) -> String {
            guard !map.isEmpty else { return "none" }
            return map.keys.sorted().map { "`\($0)` = \(code(map[$0] ?? []))" }.joined(separator: "; ")
        }
        let summary = p.summary.isEmpty ? "" : " — \(p.summary)"
        let mode =
            p.modeDenied.isEmpty
            ? "mode key `\(p.modeKey)`, no value excludes a way"
            : "mode key `\(p.modeKey)`; a way with `\(p.modeKey)` = \(code(p.modeDenied)) is excluded"
        let access =
            p.accessDenied.isEmpty
            ? "`access` excludes no way"
            : "a way with `access` = \(code(p.accessDenied)) is excluded unless `\(p.modeKey)` = "
                + (p.modeOverridesAccess.isEmpty ? "(nothing overrides)" : code(p.modeOverridesAccess))
        let oneway =
            p.onewayKey.map {
                "`\($0)` = `yes`, `true`, `1` (along the way only) or `-1`, `reverse` (against it only); "
                    + "plain `oneway` is ignored"
            } ?? "none: every usable way is walkable both ways"
        let incline =
            p.maxInclinePercent.map {
                "a way whose numeric `incline` is steeper than \(Self.number($0)) % (up or down) is excluded"
            } ?? "no limit"
        let unknown =
            p.unknownAccessibility == .allow
            ? "ways without `\(p.accessibilityKey)` are usable"
            : "ways without `\(p.accessibilityKey)` are excluded"
        return [
            "### `\(p.name)`\(summary)",
            "",
            "- speed: \(Self.number(p.speedMetresPerSecond)) m/s",
            "- `highway`: \(code(p.highways))",
            "- mode: \(mode)",
            "- access: \(access)",
            "- one-way key: \(oneway)",
            "- excluded ways: \(tags(p.excludeWays))",
            "- excluded (impassable) nodes: \(tags(p.excludeNodes))",
            "- incline: \(incline)",
            "- untagged accessibility: \(unknown)",
        ]
    }

    /// A number as the YAML writes it: no trailing zeros (1.4, 8.33, 12).
    static func number(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(x)
    }
}
