import FieldtestData
import MetricReports

/// How much of what a run did is kept beside its `metrics.csv` (`run --trace`).
public enum TraceLevel: String, Sendable, CaseIterable, Codable {
    /// No trace files.
    case none
    /// Bounded traces (the default): every check, the first routes and tracks, thinned lines.
    case summary
    /// Larger bounds, lines kept point for point: for looking into one scenario.
    case full

    /// The bounds that apply at this level.
    public var caps: TraceCaps {
        switch self {
        case .none: return TraceCaps(eventsPerCase: 0, featuresPerCase: 0, pointsPerLine: 0, latencySamplesPerCase: 0)
        case .summary:
            return TraceCaps(
                eventsPerCase: 2_000, featuresPerCase: 150, pointsPerLine: 120, latencySamplesPerCase: 5_000)
        case .full:
            return TraceCaps(
                eventsPerCase: 100_000, featuresPerCase: 5_000, pointsPerLine: 5_000, latencySamplesPerCase: 200_000)
        }
    }
}

/// The bounds of one case's traces. Past a bound the recorder keeps what came first and counts
/// what it dropped, so a trace file never grows with the length of a scenario beyond them.
public struct TraceCaps: Sendable, Equatable {
    /// Rows of `events.csv` per case.
    public var eventsPerCase: Int
    /// GeoJSON features of `traces.geojson` per case.
    public var featuresPerCase: Int
    /// Points of one line (route, track): longer lines are thinned evenly, first and last point kept.
    public var pointsPerLine: Int
    /// Rows of `latency.csv` per case.
    public var latencySamplesPerCase: Int

    /// Bounds; see the properties.
    public init(eventsPerCase: Int, featuresPerCase: Int, pointsPerLine: Int, latencySamplesPerCase: Int) {
        self.eventsPerCase = eventsPerCase
        self.featuresPerCase = featuresPerCase
        self.pointsPerLine = pointsPerLine
        self.latencySamplesPerCase = latencySamplesPerCase
    }
}

/// One measured call or check, a row of `events.csv`.
public struct TraceEvent: Sendable, Equatable {
    /// Virtual time, seconds since 1970 UTC.
    public var time: Double
    /// The device it happened on (empty when it belongs to no device, e.g. a check at the end of the run).
    public var device: String
    /// Requirement ID.
    public var requirement: String
    /// What was measured, e.g. `route_length` or a metric name of `metrics.csv`.
    public var metric: String
    /// The measured value, in `unit`.
    public var value: Double
    /// Its unit (`m`, `s`, `count`, …).
    public var unit: String
    /// The value it was compared with (a reference or a threshold), when there is one.
    public var expected: Double?
    /// How `value` was compared with `expected`.
    public var comparator: ThresholdComparator
    /// Verdict: pass or fail when checked, info otherwise.
    public var status: MetricStatus

    /// An event; see the properties.
    public init(
        time: Double, device: String, requirement: String, metric: String, value: Double, unit: String,
        expected: Double? = nil, comparator: ThresholdComparator = .none, status: MetricStatus = .info
    ) {
        self.time = time
        self.device = device
        self.requirement = requirement
        self.metric = metric
        self.value = value
        self.unit = unit
        self.expected = expected
        self.comparator = comparator
        self.status = status
    }
}

/// One latency sample, a row of `latency.csv` (wall-clock compute time plus emulated network time).
public struct TraceLatencySample: Sendable, Equatable {
    /// Virtual time of the call, seconds since 1970 UTC.
    public var time: Double
    /// Requirement ID.
    public var requirement: String
    /// The latency series (`metrics.csv` reports it as `<metric>_p50`, …).
    public var metric: String
    /// The sample, seconds.
    public var seconds: Double
}

/// A value of a GeoJSON feature's `properties`.
public enum TraceValue: Sendable, Equatable {
    case number(Double)
    case integer(Int)
    case text(String)
    case bool(Bool)
}

/// A named property of a trace feature (kept in the order given, so the file is deterministic).
public struct TraceProperty: Sendable, Equatable {
    /// Property name (snake case).
    public var name: String
    /// Its value.
    public var value: TraceValue

    /// A property.
    public init(_ name: String, _ value: TraceValue) {
        self.name = name
        self.value = value
    }
}

/// The geometry of a trace feature, in WGS 84 degrees.
public enum TraceGeometry: Sendable, Equatable {
    case point(GeoPoint)
    case multiPoint([GeoPoint])
    case lineString([GeoPoint])
    case multiLineString([[GeoPoint]])
    /// A closed ring (the first point is repeated at the end when written).
    case polygon([GeoPoint])
}

/// A feature of `traces.geojson`: what it shows (`kind`), when, its geometry and properties.
public struct TraceFeature: Sendable, Equatable {
    /// What the feature is: `campus`, `route`, `true_track`, `gps_track`, `fused_track`,
    /// `heatmap_cell`, `evacuation`, `exit`, …
    public var kind: String
    /// Virtual time, seconds since 1970 UTC (nil for what holds for the whole run, e.g. the campus).
    public var time: Double?
    /// The device it belongs to, if any.
    public var device: String?
    /// The geometry.
    public var geometry: TraceGeometry
    /// Further properties, in order.
    public var properties: [TraceProperty]

    /// A feature; see the properties.
    public init(
        kind: String, time: Double?, device: String? = nil, geometry: TraceGeometry,
        properties: [TraceProperty] = []
    ) {
        self.kind = kind
        self.time = time
        self.device = device
        self.geometry = geometry
        self.properties = properties
    }
}

/// What one case recorded, as values (the recorder's content when the case ends).
public struct CaseTrace: Sendable, Equatable {
    /// The app.
    public var app: String
    /// Checks and measured calls, in the order recorded.
    public var events: [TraceEvent] = []
    /// Latency samples, in the order recorded.
    public var latency: [TraceLatencySample] = []
    /// Map features, in the order recorded.
    public var features: [TraceFeature] = []
    /// Events, samples and features past the caps.
    public var droppedEvents = 0, droppedLatency = 0, droppedFeatures = 0
    /// Features past the cap by kind (`route` → 12), so a map can say how many of each it lacks.
    public var droppedFeatureKinds: [String: Int] = [:]

    /// An empty trace of `app`.
    public init(app: String) { self.app = app }
}

/// Records what a case did, for the trace files: drivers call it (through `RunContext.trace`) with
/// what their cores answered; the cores stay unaware of it. Every call is cheap when the level is
/// `none`, and bounded by the level's caps otherwise. Not thread-safe: one recorder per case.
public final class TraceRecorder {
    /// The level the run asked for.
    public let level: TraceLevel
    /// Its bounds.
    public let caps: TraceCaps
    /// What has been recorded so far.
    public private(set) var trace: CaseTrace
    /// Keys of features recorded `once`.
    private var onceKeys = Set<String>()

    /// A recorder for a case of `app` at `level`.
    public init(app: String, level: TraceLevel) {
        self.level = level
        self.caps = level.caps
        self.trace = CaseTrace(app: app)
    }

    /// Whether anything is recorded: drivers skip building geometry when not.
    public var isRecording: Bool { level != .none }

    /// Whether a feature recorded now would be kept (callers can skip building a costly geometry).
    public var acceptsFeatures: Bool { isRecording && trace.features.count < caps.featuresPerCase }

    /// Records one measured call or check.
    public func event(_ event: TraceEvent) {
        guard isRecording else { return }
        guard trace.events.count < caps.eventsPerCase else {
            trace.droppedEvents += 1
            return
        }
        trace.events.append(event)
    }

    /// Records a check that summarises the case (one per metric row, at the end of the run): kept
    /// whatever the cap, since the rows are few and `events.csv` must hold every one.
    public func summaryEvent(_ event: TraceEvent) {
        guard isRecording else { return }
        trace.events.append(event)
    }

    /// Records one check: `value` against `expected` under `comparator`, pass or fail.
    public func check(
        time: Double, device: String, requirement: String, metric: String, value: Double, unit: String,
        expected: Double, comparator: ThresholdComparator
    ) {
        let ok = value.isFinite && comparator.accepts(value, threshold: expected)
        event(
            TraceEvent(
                time: time, device: device, requirement: requirement, metric: metric, value: value, unit: unit,
                expected: expected, comparator: comparator, status: ok ? .pass : .fail))
    }

    /// Records one latency sample, seconds.
    public func latency(time: Double, requirement: String, metric: String, seconds: Double) {
        guard isRecording else { return }
        guard trace.latency.count < caps.latencySamplesPerCase else {
            trace.droppedLatency += 1
            return
        }
        trace.latency.append(TraceLatencySample(time: time, requirement: requirement, metric: metric, seconds: seconds))
    }

    /// Records a map feature; lines longer than the cap are thinned. With `once`, only the first
    /// feature of that key is kept (e.g. the campus, which every request would otherwise repeat).
    public func feature(_ feature: TraceFeature, once key: String? = nil) {
        guard isRecording else { return }
        if let key, !onceKeys.insert(key).inserted { return }
        guard trace.features.count < caps.featuresPerCase else {
            trace.droppedFeatures += 1
            trace.droppedFeatureKinds[feature.kind, default: 0] += 1
            return
        }
        var f = feature
        guard let geometry = Self.valid(f.geometry) else { return }
        f.geometry = Self.thinned(geometry, to: caps.pointsPerLine)
        trace.features.append(f)
    }

    /// `geometry` as RFC 7946 allows it: a line of one position becomes a point, lines of none are left
    /// out, a ring needs three distinct corners; nil when nothing is left.
    static func valid(_ geometry: TraceGeometry) -> TraceGeometry? {
        switch geometry {
        case .point: return geometry
        case .multiPoint(let p): return p.isEmpty ? nil : geometry
        case .lineString(let p):
            if p.count >= 2 { return geometry }
            return p.first.map { .point($0) }
        case .multiLineString(let lines):
            let kept = lines.filter { $0.count >= 2 }
            return kept.isEmpty ? nil : .multiLineString(kept)
        case .polygon(let ring):
            return Set(ring).count >= 3 ? geometry : nil
        }
    }

    /// `geometry` with every line thinned to at most `limit` points (at least 2).
    static func thinned(_ geometry: TraceGeometry, to limit: Int) -> TraceGeometry {
        switch geometry {
        case .point, .multiPoint: return geometry
        case .lineString(let p): return .lineString(thin(p, to: limit))
        case .multiLineString(let lines): return .multiLineString(lines.map { thin($0, to: limit) })
        case .polygon(let p): return .polygon(thin(p, to: limit))
        }
    }

    /// At most `limit` (≥ 2) of `points`, evenly spaced by index, the first and last always kept.
    public static func thin(_ points: [GeoPoint], to limit: Int) -> [GeoPoint] {
        let limit = max(2, limit)
        guard points.count > limit else { return points }
        let step = Double(points.count - 1) / Double(limit - 1)
        return (0..<limit).map { points[Int((Double($0) * step).rounded())] }
    }
}
