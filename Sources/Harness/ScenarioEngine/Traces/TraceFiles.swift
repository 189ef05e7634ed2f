import FieldtestData
import Foundation
import MetricReports

/// Writes a scenario's traces beside its `metrics.csv`: `events.csv`, `latency.csv` and
/// `traces.geojson` (see docs/reports.md). Every case's traces go into the same three files, in case
/// order, each row or feature naming its case. `events.csv` and `traces.geojson` hold only virtual
/// times and deterministic values, so two runs of one scenario and seed write them byte for byte
/// alike; `latency.csv` holds wall-clock samples and differs from run to run.
public enum TraceFiles {
    /// The file names.
    public static let eventsFile = "events.csv", latencyFile = "latency.csv", geoJSONFile = "traces.geojson"
    /// The file of every latency series' full HDR histogram.
    public static let latencyHistogramFile = "latency-histogram.csv"

    /// The columns of `latency-histogram.csv`, in order: one row per non-empty bucket, its value in
    /// seconds (the highest the bucket holds) and how many samples it holds.
    public static let latencyHistogramColumns = ["case", "requirement", "metric", "seconds", "count"]

    /// `latency-histogram.csv` rows of one case (no header).
    public static func latencyHistogramRows(_ histograms: [LatencyHistogramRecord], case label: String) -> String {
        var w = CSVWriter()
        for h in histograms {
            for (s, n) in zip(h.seconds, h.counts) {
                w.row([label, h.requirement, h.metric, CSVWriter.exactNumber(s), String(n)])
            }
        }
        return w.text
    }

    /// The columns of `events.csv`, in order.
    public static let eventColumns = [
        "case", "time", "elapsed_s", "app", "device", "requirement", "metric", "value", "unit", "expected",
        "comparator", "status",
    ]

    /// The columns of `latency.csv`, in order.
    public static let latencyColumns = ["case", "time", "requirement", "metric", "seconds"]

    /// One case's trace with its label and start time.
    public struct Case: Sendable {
        /// The case label (the `scenario` column of its metric rows).
        public var label: String
        /// The scenario's start, seconds since 1970 UTC (for `elapsed_s`).
        public var start: Double
        /// What it recorded.
        public var trace: CaseTrace

        /// A case; see the properties.
        public init(label: String, start: Double, trace: CaseTrace) {
            self.label = label
            self.start = start
            self.trace = trace
        }
    }

    /// Writes the three files into `folder` (at `none`, removes any left there by an earlier run,
    /// so a folder never holds traces of another run).
    public static func write(_ cases: [Case], level: TraceLevel, to folder: URL) throws {
        let names = [eventsFile, latencyFile, latencyHistogramFile, geoJSONFile]
        guard level != .none else {
            for n in names { unlink(folder.appendingPathComponent(n).path) }
            return
        }
        try AtomicFile.write(events(cases), to: folder.appendingPathComponent(eventsFile))
        try AtomicFile.write(latency(cases), to: folder.appendingPathComponent(latencyFile))
        try AtomicFile.write(geoJSON(cases, level: level), to: folder.appendingPathComponent(geoJSONFile))
    }

    /// `events.csv`: one row per event; a case that dropped events past the cap ends with an info
    /// row `trace_events_dropped` giving how many.
    public static func events(_ cases: [Case]) -> String {
        var w = CSVWriter()
        w.row(eventColumns)
        for c in cases {
            for e in c.trace.events {
                w.row([
                    c.label, isoTime(e.time), CSVWriter.number(e.time - c.start), c.trace.app, e.device,
                    e.requirement, e.metric, CSVWriter.exactNumber(e.value), e.unit,
                    e.expected.map(CSVWriter.exactNumber) ?? "", e.comparator.rawValue, e.status.rawValue,
                ])
            }
            if c.trace.droppedEvents > 0 {
                let end = c.trace.events.last?.time ?? c.start
                w.row([
                    c.label, isoTime(end), CSVWriter.number(end - c.start), c.trace.app, "", "",
                    "trace_events_dropped", String(c.trace.droppedEvents), "count", "", "", "info",
                ])
            }
        }
        return w.text
    }

    /// `latency.csv`: every latency sample, seconds.
    public static func latency(_ cases: [Case]) -> String {
        var w = CSVWriter()
        w.row(latencyColumns)
        for c in cases {
            for s in c.trace.latency {
                w.row([c.label, isoTime(s.time), s.requirement, s.metric, CSVWriter.exactNumber(s.seconds)])
            }
        }
        return w.text
    }

    /// `traces.geojson`: one RFC 7946 FeatureCollection of every case's features (`[longitude,
    /// latitude]`, 7 decimals: about a centimetre). Each feature's properties start with `case`,
    /// `kind`, `time` (ISO 8601, when it has one) and `device`, then the feature's own, then simplestyle
    /// ones (`title`, `stroke`, `fill`, …; see `simplestyle`). A line of one repeated position is written
    /// as that Point. A campus drawn identically by
    /// several cases of a sweep is written once. The foreign member `fieldtest` gives the level,
    /// the caps and what each case dropped past them.
    public static func geoJSON(_ cases: [Case], level: TraceLevel) -> String {
        var out = geoJSONHead(level: level)
        out += cases.compactMap(droppedEntry).joined(separator: ",")
        out += geoJSONMiddle
        var campuses: [TraceGeometry] = []
        var first = true
        for c in cases {
            for f in c.trace.features {
                if f.kind == "campus" {
                    if campuses.contains(f.geometry) { continue }
                    campuses.append(f.geometry)
                }
                out += (first ? "\n" : ",\n") + feature(f, label: c.label)
                first = false
            }
        }
        out += geoJSONTail
        return out
    }

    /// `traces.geojson` up to its list of dropped entries: the level and the caps.
    static func geoJSONHead(level: TraceLevel) -> String {
        var out = "{\"type\":\"FeatureCollection\",\"fieldtest\":{\"trace\":\(json(level.rawValue))"
        let caps = level.caps
        out += ",\"caps\":{\"events_per_case\":\(caps.eventsPerCase),\"features_per_case\":\(caps.featuresPerCase)"
        out += ",\"points_per_line\":\(caps.pointsPerLine),\"latency_samples_per_case\":\(caps.latencySamplesPerCase)}"
        return out + ",\"dropped\":["
    }

    /// Between the dropped entries and the features; and the end of the file.
    static let geoJSONMiddle = "]},\"features\":[", geoJSONTail = "\n]}\n"

    /// The dropped entry of a case that dropped anything past the caps, or nil.
    static func droppedEntry(_ c: Case) -> String? {
        guard c.trace.droppedEvents + c.trace.droppedFeatures + c.trace.droppedLatency > 0 else { return nil }
        return "{\"case\":\(json(c.label)),\"events\":\(c.trace.droppedEvents),"
            + "\"features\":\(c.trace.droppedFeatures),\"latency_samples\":\(c.trace.droppedLatency)"
            + ",\"feature_kinds\":{"
            + c.trace.droppedFeatureKinds.sorted { $0.key < $1.key }.map { "\(json($0.key)):\($0.value)" }
            .joined(separator: ",") + "}}"
    }

    /// One feature as GeoJSON text.
    static func feature(_ f: TraceFeature, label: String) -> String {
        var props = "\"case\":\(json(label)),\"kind\":\(json(f.kind))"
        if let t = f.time { props += ",\"time\":\(json(isoTime(t)))" }
        if let d = f.device { props += ",\"device\":\(json(d))" }
        for p in f.properties {
            props += ",\(json(p.name)):"
            switch p.value {
            case .number(let v): props += v.isFinite ? CSVWriter.number(v) : "null"
            case .integer(let v): props += String(v)
            case .text(let s): props += json(s)
            case .bool(let b): props += b ? "true" : "false"
            }
        }
        for (name, value) in simplestyle(f, label: label) where !f.properties.contains(where: { $0.name == name }) {
            props += ",\(json(name)):\(value)"
        }
        return "{\"type\":\"Feature\",\"geometry\":\(geometry(f.geometry)),\"properties\":{\(props)}}"
    }

    /// Mapbox simplestyle 1.1 properties (JSON values) for `f`, so a GeoJSON viewer (geojson.io, GitHub)
    /// draws the kinds apart in the HTML report's colours: a `title`, strokes (routes computed offline in
    /// purple, online in blue) and, for heat-map cells, a fill whose opacity grows with the devices seen.
    static func simplestyle(_ f: TraceFeature, label: String) -> [(String, String)] {
        var style = [("title", json("\(f.kind) (\(label))"))]
        func stroke(_ colour: String, _ width: Int) {
            style += [("stroke", json(colour)), ("stroke-width", String(width)), ("stroke-opacity", "0.9")]
        }
        switch f.kind {
        case "campus": stroke("#B8C0C8", 1)
        case "route":
            let online = f.properties.first { $0.name == "online" }.map { $0.value == .bool(true) } ?? true
            stroke(online ? "#0072B2" : "#CC79A7", 3)
        case "evacuation": stroke("#D55E00", 3)
        case "true_track": stroke("#1F2328", 2)
        case "gps_track": stroke("#E69F00", 2)
        case "fused_track": stroke("#009E73", 2)
        case "exits": style += [("marker-color", json("#009E73")), ("marker-size", json("small"))]
        case "heatmap_cell":
            var devices = 0
            if case .integer(let n)? = f.properties.first(where: { $0.name == "devices" })?.value { devices = n }
            let opacity = min(0.8, 0.1 + 0.05 * Double(max(devices, 0)))
            style += [
                ("fill", json("#CC3311")), ("fill-opacity", CSVWriter.fixed(opacity, decimals: 2)),
                ("stroke-width", "0"),
            ]
        default: break
        }
        return style
    }

    /// A geometry as GeoJSON text.
    static func geometry(_ g: TraceGeometry) -> String {
        func position(_ p: GeoPoint) -> String {
            "[\(CSVWriter.fixed(p.longitude, decimals: 7)),\(CSVWriter.fixed(p.latitude, decimals: 7))]"
        }
        func line(_ points: [GeoPoint]) -> String { "[" + points.map(position).joined(separator: ",") + "]" }
        // A line whose written positions are all one (a route from a place to itself) is that point:
        // RFC 7946 asks two or more positions of a LineString, and a viewer draws nothing for it.
        func degenerate(_ points: [GeoPoint]) -> Bool { Set(points.map(position)).count < 2 }
        switch g {
        case .lineString(let p) where !p.isEmpty && degenerate(p):
            return "{\"type\":\"Point\",\"coordinates\":\(position(p[0]))}"
        case .multiLineString(let lines) where lines.contains(where: degenerate):
            let kept = lines.filter { !degenerate($0) }
            if kept.isEmpty { return geometry(.multiPoint(lines.compactMap(\.first))) }
            return geometry(.multiLineString(kept))
        default: break
        }
        switch g {
        case .point(let p): return "{\"type\":\"Point\",\"coordinates\":\(position(p))}"
        case .multiPoint(let p): return "{\"type\":\"MultiPoint\",\"coordinates\":\(line(p))}"
        case .lineString(let p): return "{\"type\":\"LineString\",\"coordinates\":\(line(p))}"
        case .multiLineString(let lines):
            return "{\"type\":\"MultiLineString\",\"coordinates\":[" + lines.map(line).joined(separator: ",") + "]}"
        case .polygon(let ring):
            let closed = ring.first.map { ring.last == $0 ? ring : ring + [$0] } ?? ring
            return "{\"type\":\"Polygon\",\"coordinates\":[\(line(closed))]}"
        }
    }

    /// `text` as a JSON string literal.
    static func json(_ text: String) -> String {
        var out = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// Virtual time `seconds` since 1970 as ISO 8601 UTC to the millisecond, e.g. `2023-01-24T06:01:00.000Z`.
    public static func isoTime(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "" }
        let millis = Int64((seconds * 1000).rounded(.down))
        var whole = time_t(millis / 1000)
        var ms = Int(millis % 1000)
        if ms < 0 {
            ms += 1000
            whole -= 1
        }
        var t = tm()
        gmtime_r(&whole, &t)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(t.tm_year) + 1900, Int(t.tm_mon) + 1, Int(t.tm_mday),
            Int(t.tm_hour), Int(t.tm_min), Int(t.tm_sec), ms)
    }
}
