import FieldtestData
import Foundation

/// A feature of a trace map, as read from `traces.geojson`.
public struct MapFeature: Sendable, Equatable {
    /// What it shows (`campus`, `route`, `evacuation`, `true_track`, `gps_track`, `fused_track`,
    /// `heatmap_cell`, `exits`, …).
    public var kind: String
    /// Its lines (a point or multipoint is one "line" of its points; a polygon its ring).
    public var lines: [[GeoPoint]]
    /// Whether `lines` are separate points rather than lines.
    public var isPoints: Bool
    /// Whether the first line is a polygon's ring.
    public var isPolygon: Bool
    /// Numeric properties (e.g. `length_m`, `devices`).
    public var numbers: [String: Double]
    /// Text properties (e.g. `profile`, `device`).
    public var texts: [String: String]

    /// A feature; see the properties.
    public init(
        kind: String, lines: [[GeoPoint]], isPoints: Bool = false, isPolygon: Bool = false,
        numbers: [String: Double] = [:], texts: [String: String] = [:]
    ) {
        self.kind = kind
        self.lines = lines
        self.isPoints = isPoints
        self.isPolygon = isPolygon
        self.numbers = numbers
        self.texts = texts
    }
}

extension Charts {
    /// The order maps draw kinds in (later on top), and their CSS classes.
    static let mapLayers: [(kind: String, cls: String)] = [
        ("heatmap_cell", "heat"), ("campus", "campus"), ("route", "route"), ("evacuation", "evacuation"),
        ("true_track", "true-track"), ("gps_track", "gps-track"), ("fused_track", "fused-track"), ("exits", "exit"),
    ]

    /// The kinds a map draws and the legend text of each (the heat map's gives its scale in words).
    public static let mapLegend: [(cls: String, text: String)] = [
        ("campus", "campus paths"), ("route", "online route (solid blue)"),
        ("route offline", "offline route (dashed purple)"), ("evacuation", "evacuation routes"),
        ("true-track", "true track"), ("gps-track", "GPS fixes"), ("fused-track", "fused GPS + steps"),
        ("heat", "crowd heat map (devices per 50 m cell)"), ("exit", "exits"),
    ]

    /// The CSS class `f` is drawn with, nil for kinds a map does not draw: a route whose `online`
    /// property is false (computed on the phone, from its offline graph) is `route offline`.
    public static func mapClass(_ f: MapFeature) -> String? {
        guard let cls = mapLayers.first(where: { $0.kind == f.kind })?.cls else { return nil }
        return f.kind == "route" && f.numbers["online"] == 0 ? "route offline" : cls
    }

    /// The legend of a map of `features`: one entry per class drawn (exits only beside an evacuation),
    /// the heat map's naming the range of devices its shades span.
    public static func mapLegend(for features: [MapFeature]) -> [(cls: String, text: String)] {
        let evacuations = features.contains { $0.kind == "evacuation" }
        let drawn = Set(features.filter { $0.kind != "exits" || evacuations }.compactMap(mapClass))
        let steps = heatSteps(features)
        return mapLegend.filter { drawn.contains($0.cls) }.map { entry in
            guard entry.cls == "heat", let low = steps.first, let high = steps.last else { return entry }
            let range = low == high ? "\(low) device\(low == 1 ? "" : "s")" : "\(low) (light) to \(high) (dark) devices"
            return (entry.cls, "crowd heat map: \(range) per 50 m cell")
        }
    }

    /// The device counts the heat-map scale shows: every count from 1 to the largest when there are at
    /// most 5, else 5 evenly spaced ones from 1 to the largest; empty without heat-map cells.
    static func heatSteps(_ features: [MapFeature]) -> [Int] {
        let counts = features.filter { $0.kind == "heatmap_cell" }.compactMap { $0.numbers["devices"] }
        guard let top = counts.max() else { return [] }
        let high = max(1, Int(top.rounded()))
        if high <= 5 { return Array(1...high) }
        return (0..<5).map { 1 + Int((Double($0) * Double(high - 1) / 4).rounded()) }
    }

    /// The heat map's colour scale in the map's top-right corner: a swatch per step of `steps`, shaded
    /// as the cells are, with its count under it; aria-labelled, since a screen reader cannot see it.
    static func heatScale(_ steps: [Int], maxDevices: Double, width: Double) -> SVG.Node {
        let cell = 22.0
        let x0 = width - 12 - cell * Double(steps.count)
        let boxWidth = max(cell * Double(steps.count), 80) + 8  // wide enough for its title
        var nodes: [SVG.Node] = [
            SVG.rect(x: width - 8 - boxWidth, y: 6, width: boxWidth, height: 44, cls: "map-key"),
            SVG.text("devices / cell", x: width - 12, y: 17, anchor: "end", cls: "tick"),
        ]
        for (i, n) in steps.enumerated() {
            let x = x0 + cell * Double(i)
            let corners = [(x, 21.0), (x + cell, 21.0), (x + cell, 33.0), (x, 33.0)]
            nodes.append(
                SVG.polygon(
                    corners.map { (x: $0.0, y: $0.1) }, cls: "heat",
                    opacity: 0.15 + 0.75 * Double(n) / max(1, maxDevices)))
            nodes.append(SVG.text("\(n)", x: x + cell / 2, y: 45, anchor: "middle", cls: "tick"))
        }
        let label =
            "heat-map colour scale: \(steps.map(String.init).joined(separator: ", ")) device\(steps == [1] ? "" : "s") per 50 m cell, darker is more"
        return SVG.element("g", [("role", "img"), ("aria-label", label)], nodes)
    }

    /// The height a map of the area `pts` spans takes at `width`, keeping its aspect (220 to 480 px).
    static func mapHeight(_ pts: [GeoPoint], width: Double) -> Double {
        guard let p = MapProjection(fitting: pts, width: width, height: 10_000, margin: 0) else { return 240 }
        let ys = pts.map { p($0).y }
        let span = (ys.max() ?? 0) - (ys.min() ?? 0)
        return min(480, max(220, span + 24))
    }

    /// The area a map shows: what happened (routes, tracks, cells), padded by a quarter of its size and
    /// at least `padMetres`, so the campus around it is context rather than most of the picture; the
    /// whole of `features` when only the campus is there.
    public static func mapArea(_ features: [MapFeature], padMetres: Double = 120) -> [GeoPoint] {
        let context: Set<String> = ["campus", "exits"]
        let focus = features.filter { !context.contains($0.kind) }.flatMap { $0.lines.flatMap { $0 } }
        guard let minLat = focus.map(\.latitude).min(), let maxLat = focus.map(\.latitude).max(),
            let minLon = focus.map(\.longitude).min(), let maxLon = focus.map(\.longitude).max()
        else { return features.flatMap { $0.lines.flatMap { $0 } } }
        let sw = GeoPoint(latitude: minLat, longitude: minLon)
        let ne = GeoPoint(latitude: maxLat, longitude: maxLon)
        let span = Geodesy.haversineMetres(sw, ne)
        let pad = max(padMetres, span / 4)
        return [sw.offset(eastMetres: -pad, northMetres: -pad), ne.offset(eastMetres: pad, northMetres: pad)]
    }

    /// A north-up map of `features` over `mapArea(features)`, with a scale bar; exits are drawn only
    /// beside evacuations, where they matter.
    public static func map(title: String, features: [MapFeature], width: Double = 720) -> SVG.Node {
        let area = mapArea(features)
        let height = mapHeight(area, width: width)
        let evacuations = features.contains { $0.kind == "evacuation" }
        let features = features.filter { $0.kind != "exits" || evacuations }
        guard let proj = MapProjection(fitting: area, width: width, height: height, margin: 12) else {
            return SVG.root(width: width, height: 40, label: title, [SVG.text("nothing to draw", x: 8, y: 24)])
        }
        var nodes: [SVG.Node] = [SVG.rect(x: 0, y: 0, width: width, height: height, cls: "map-bg")]
        let maxDevices = features.filter { $0.kind == "heatmap_cell" }.compactMap { $0.numbers["devices"] }.max() ?? 1
        for (kind, _) in mapLayers {
            for f in features where f.kind == kind {
                guard let cls = mapClass(f) else { continue }
                let tip = Self.tip(f)
                if f.isPolygon, let ring = f.lines.first {
                    let d = f.numbers["devices"] ?? 0
                    nodes.append(
                        SVG.polygon(
                            ring.map { proj($0) }, cls: cls, opacity: 0.15 + 0.75 * d / max(1, maxDevices)))
                } else if f.isPoints {
                    for p in f.lines.flatMap({ $0 }) {
                        let q = proj(p)
                        nodes.append(SVG.circle(x: q.x, y: q.y, r: kind == "exits" ? 3 : 1.6, cls: cls, tip: tip))
                    }
                } else {
                    for line in f.lines where line.count >= 2 {
                        if kind == "gps_track" {
                            for p in line {
                                let q = proj(p)
                                nodes.append(SVG.circle(x: q.x, y: q.y, r: 1.6, cls: cls))
                            }
                        } else {
                            nodes.append(SVG.polyline(line.map { proj($0) }, cls: cls))
                        }
                    }
                    if tip != nil, let last = f.lines.last?.last {
                        let q = proj(last)
                        nodes.append(SVG.circle(x: q.x, y: q.y, r: 2.5, cls: cls + " end", tip: tip))
                    }
                }
            }
        }
        let steps = heatSteps(features)
        if !steps.isEmpty { nodes.append(heatScale(steps, maxDevices: maxDevices, width: width)) }
        // Scale bar: the round length nearest a quarter of the width.
        let metres = LinearScale.tickStep(0, width / 4 / proj.pixelsPerMetre, count: 1)
        let bar = proj.pixels(metres: metres)
        nodes.append(SVG.line(10, height - 10, 10 + bar, height - 10, cls: "scale-bar"))
        nodes.append(
            SVG.text(
                metres >= 1000 ? "\(SVG.number(metres / 1000)) km" : "\(SVG.number(metres)) m", x: 14 + bar,
                y: height - 6, cls: "tick"))
        return SVG.root(width: width, height: height, label: title, nodes)
    }

    /// What a map of `features` draws, counted (online and offline routes, evacuations, tracks, heat-map
    /// cells), with what the trace's feature cap left out (`dropped`): "12 of 40 routes drawn".
    public static func mapCounts(_ features: [MapFeature], dropped: TraceGeoJSON.Dropped? = nil) -> String {
        func count(_ n: Int, _ one: String) -> String { "\(n) \(one)" + (n == 1 ? "" : "s") }
        let routes = features.filter { $0.kind == "route" }
        let offline = routes.filter { $0.numbers["online"] == 0 }.count
        let missing = dropped?.kinds["route"] ?? 0
        var parts: [String] = []
        if missing > 0 {
            parts.append("\(routes.count) of \(routes.count + missing) routes drawn")
        } else {
            parts.append(count(routes.count, "route"))
        }
        if !routes.isEmpty { parts[0] += " (\(routes.count - offline) online, \(offline) offline)" }
        let others = [
            ("evacuation", "evacuation"), ("true_track", "true track"), ("gps_track", "GPS track"),
            ("fused_track", "fused track"), ("heatmap_cell", "heat-map cell"),
        ]
        for (kind, name) in others {
            let n = features.filter { $0.kind == kind }.count
            let gone = dropped?.kinds[kind] ?? 0
            if gone > 0 {
                parts.append("\(n) of \(n + gone) \(name)s drawn")
            } else if n > 0 || kind == "evacuation" {
                parts.append(count(n, name))
            }
        }
        if let dropped, dropped.kinds.isEmpty, dropped.features > 0 {
            parts.append(
                "\(dropped.features) more feature\(dropped.features == 1 ? "" : "s") left out by the trace cap")
        }
        return parts.joined(separator: ", ")
    }

    /// A hover text for a route or evacuation: length, duration, profile.
    static func tip(_ f: MapFeature) -> String? {
        guard f.kind == "route" || f.kind == "evacuation" else { return nil }
        var parts: [String] = [f.kind == "route" && f.numbers["online"] == 0 ? "offline route" : f.kind]
        if let p = f.texts["profile"] { parts.append(p) }
        if let l = f.numbers["length_m"] { parts.append("\(Int(l.rounded())) m") }
        if let d = f.numbers["duration_s"] { parts.append("\(Int(d.rounded())) s") }
        if let e = f.texts["exit"], !e.isEmpty { parts.append("to \(e)") }
        return parts.joined(separator: ", ")
    }
}
