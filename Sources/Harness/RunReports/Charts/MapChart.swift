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

    /// The kinds a map draws and the legend text of each.
    public static let mapLegend: [(cls: String, text: String)] = [
        ("campus", "campus paths"), ("route", "routes"), ("evacuation", "evacuation routes"),
        ("true-track", "true track"), ("gps-track", "GPS fixes"), ("fused-track", "fused GPS + steps"),
        ("heat", "crowd heat map (devices per 50 m cell)"), ("exit", "exits"),
    ]

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
        for (kind, cls) in mapLayers {
            for f in features where f.kind == kind {
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

    /// A hover text for a route or evacuation: length, duration, profile.
    static func tip(_ f: MapFeature) -> String? {
        guard f.kind == "route" || f.kind == "evacuation" else { return nil }
        var parts: [String] = [f.kind]
        if let p = f.texts["profile"] { parts.append(p) }
        if let l = f.numbers["length_m"] { parts.append("\(Int(l.rounded())) m") }
        if let d = f.numbers["duration_s"] { parts.append("\(Int(d.rounded())) s") }
        if let e = f.texts["exit"], !e.isEmpty { parts.append("to \(e)") }
        return parts.joined(separator: ", ")
    }
}
