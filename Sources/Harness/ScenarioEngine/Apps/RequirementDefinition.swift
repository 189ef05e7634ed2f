import MetricReports

/// A metric a requirement reports: its unit, kind, comparator and default
/// threshold. The default threshold lives here and nowhere else; a scenario's
/// threshold override replaces it in the rows (`MetricCollector.rows`).
public struct MetricDefinition: Sendable, Equatable {
    /// Name in the `metric` column, e.g. `sun_event_abs_error_max`. For a latency
    /// series, the stem of its `_p50/_p95/_p99/_max` rows.
    public var name: String
    /// What the value measures.
    public var kind: MetricKind
    /// Unit of the value (`s`, `m`, `ratio`, `count`, …).
    public var unit: String
    /// How the value is compared with the threshold (`none`: informational).
    public var comparator: ThresholdComparator
    /// Default threshold in `unit`; nil when the row is informational or the
    /// threshold is derived from the run (the driver passes it, e.g. a feed period).
    public var threshold: Double?
    /// Whether this is a latency series (samples in seconds, threshold on p95)
    /// rather than a single value.
    public var isSeries: Bool
    /// How the samples the app records as it runs (`MetricCollector.sample`/`check`) become the
    /// row's value; nil for a value recorded once (`MetricCollector.expect`).
    public var aggregate: MetricAggregate?
    /// Why a checked row of this metric can have no sample even when its requirement is exercised,
    /// in words (`no query had no route`); the `note` of such a `not_measured` row. Nil: the
    /// requirement's `exercisedBy` says what was missing.
    public var unmeasuredNote: String?
    /// Whether the row gets a 95 % interval where its aggregate or unit defines one (`MetricCollector`:
    /// Wilson for a share, bootstrap for a mean or quantile). False for a `ratio` that is not a share
    /// of its samples (an F1 score, a ratio of two latencies), whose Wilson interval would mislead.
    public var hasInterval = true
    /// Whether a latency series is measured on the scenario's virtual clock (the time between two
    /// emulated events, e.g. a save and the server's receipt) rather than on the host: deterministic,
    /// so a baseline check compares its rows on any machine, exactly (`Tolerances.virtualClockLatency`).
    public var isOnVirtualClock = false

    public init(
        _ name: String, kind: MetricKind, unit: String, comparator: ThresholdComparator = .none,
        threshold: Double? = nil, isSeries: Bool = false, aggregate: MetricAggregate? = nil
    ) {
        self.name = name
        self.kind = kind
        self.unit = unit
        self.comparator = comparator
        self.threshold = threshold
        self.isSeries = isSeries
        self.aggregate = aggregate
    }

    /// This metric, with `note` saying why it can have no sample (e.g. `no query had no route`).
    public func unmeasured(_ note: String) -> MetricDefinition {
        var d = self
        d.unmeasuredNote = note
        return d
    }

    /// This metric without an interval: a `ratio` that is not a share of its samples (an F1 score,
    /// a ratio of two latencies).
    public func withoutInterval() -> MetricDefinition {
        var d = self
        d.hasInterval = false
        return d
    }

    /// This latency series, measured on the virtual clock: same scenario and seed, same rows.
    public func onVirtualClock() -> MetricDefinition {
        var d = self
        d.isOnVirtualClock = true
        return d
    }

    /// This metric, its value aggregated from samples recorded as the app runs.
    public func over(_ aggregate: MetricAggregate) -> MetricDefinition {
        var d = self
        d.aggregate = aggregate
        return d
    }

    /// A latency series, seconds, whose p95 must stay at or below `threshold` seconds (none: informational).
    public static func latency(_ name: String, p95AtMost threshold: Double? = nil) -> MetricDefinition {
        MetricDefinition(
            name, kind: .latency, unit: "s", comparator: threshold == nil ? .none : .lessOrEqual,
            threshold: threshold, isSeries: true)
    }

    /// An exact check: the count of cases that did not behave as specified must be 0. Each case
    /// is recorded as it is checked (`MetricCollector.check`); samples are the cases checked.
    public static func mismatches(_ name: String) -> MetricDefinition {
        MetricDefinition(name, kind: .count, unit: "count", comparator: .lessOrEqual, threshold: 0, aggregate: .sum)
    }

    /// A value that must be at most `threshold` (in `unit`).
    public static func atMost(_ name: String, _ threshold: Double, kind: MetricKind, unit: String) -> MetricDefinition {
        MetricDefinition(name, kind: kind, unit: unit, comparator: .lessOrEqual, threshold: threshold)
    }

    /// A value that must be at least `threshold` (in `unit`).
    public static func atLeast(_ name: String, _ threshold: Double, kind: MetricKind, unit: String) -> MetricDefinition
    {
        MetricDefinition(name, kind: kind, unit: unit, comparator: .greaterOrEqual, threshold: threshold)
    }

    /// An informational value (no threshold).
    public static func info(_ name: String, kind: MetricKind, unit: String) -> MetricDefinition {
        MetricDefinition(name, kind: kind, unit: unit)
    }
}

/// How a metric's samples, recorded one at a time while the app runs, become its row:
/// the collector keeps only what the aggregate needs (a count, a sum, an extreme; the samples
/// themselves only for a mean, a quantile or a correlation, whose intervals need them). The row's `samples` column is the number of
/// samples recorded (for a sum, the cases each amount stands for: `MetricCollector.add`).
public enum MetricAggregate: Sendable, Equatable {
    /// The sum: with samples of 1 (a case that failed, or an event) and 0, a count; amounts that
    /// stand for several cases each are added with `MetricCollector.add(_:_:_:samples:)`.
    case sum
    /// As `sum`, but the row appears only once the sum is not 0: a breakdown of another row
    /// (e.g. which field was missing).
    case nonZeroSum
    /// The arithmetic mean: with samples of 1 (hit) and 0 (miss), a rate.
    case mean
    /// The smallest sample.
    case min
    /// The largest sample.
    case max
    /// The linear-interpolated quantile at this probability (0…1; GSL's `Quantiles`, type 7).
    case quantile(Double)
    /// Pearson's r of the (x, y) pairs recorded with `MetricCollector.sample(_:_:pair:_:)`; 0 when
    /// fewer than two pairs or either side is constant.
    case correlation

    /// Whether the row needs the samples themselves, not only running totals.
    var keepsSamples: Bool {
        switch self {
        case .mean, .quantile, .correlation: true
        case .sum, .nonZeroSum, .min, .max: false
        }
    }
}

/// A measurable requirement of an app's source specification: what it asks,
/// how Fieldtest measures it, and the metrics it reports.
///
/// Every `requirement` column of a metric report names one of these IDs, so a
/// row can be traced back to a sentence of a spec.
public struct RequirementDefinition: Sendable, Equatable {
    /// Stable ID, e.g. `SKY-P2`.
    public var id: String
    /// Section of the source specification.
    public var source: String
    /// What the specification asks.
    public var summary: String
    /// How Fieldtest measures it.
    public var measuredAs: String
    /// The threshold as stated (a *default* marks Fieldtest's own number).
    public var threshold: String
    /// What in a scenario yields samples for the requirement (`validate` warns when a scenario
    /// that requests it holds none of it).
    public var exercisedBy: Exercise
    /// The metrics it reports whose unit, kind and threshold the app records through its
    /// `MetricKey`s (`MetricCollector.sample`/`check`/`expect`/`latency`); a requirement may also
    /// report exact counts whose names are made at run time (`MetricCollector.exact`).
    public var metrics: [MetricDefinition]

    public init(
        id: String, source: String, summary: String, measuredAs: String, threshold: String,
        exercisedBy: Exercise = .always, metrics: [MetricDefinition] = []
    ) {
        self.exercisedBy = exercisedBy
        self.id = id
        self.source = source
        self.summary = summary
        self.measuredAs = measuredAs
        self.threshold = threshold
        self.metrics = metrics
    }

    /// A requirement reporting the metrics `keys` declare, in their order. Every key must name this
    /// requirement (`id`): a key of another requirement here is a mistake in the app's definition.
    public init(
        id: String, source: String, summary: String, measuredAs: String, threshold: String,
        exercisedBy: Exercise = .always, metrics keys: [MetricKey]
    ) {
        for key in keys {
            precondition(
                key.requirement == id,
                "metric key '\(key.name)' of \(key.requirement) is listed under \(id); declare it with MetricKey(\"\(id)\", …)"
            )
        }
        self.init(
            id: id, source: source, summary: summary, measuredAs: measuredAs, threshold: threshold,
            exercisedBy: exercisedBy, metrics: keys.map(\.definition))
    }

    /// The metric called `name`, if declared.
    public func metric(_ name: String) -> MetricDefinition? { metrics.first { $0.name == name } }
}

/// One metric of one requirement, as a value: the requirement's ID with the metric's definition.
/// An app definition declares each of its metrics once as a key (a static member) and lists the keys
/// in its requirements; its driver records through the same keys (`MetricCollector.sample`, `check`,
/// `expect`, `latency`, …), so a misspelt metric does not compile, and a key its requirement does
/// not list is refused when recorded (`MetricCollector.declares`).
public struct MetricKey: Sendable, Equatable {
    /// The requirement the metric belongs to, e.g. `SKY-Q1`.
    public let requirement: String
    /// The metric: its name, unit, kind, comparator, default threshold and aggregate.
    public let definition: MetricDefinition

    /// The key of `definition` under `requirement`.
    public init(_ requirement: String, _ definition: MetricDefinition) {
        self.requirement = requirement
        self.definition = definition
    }

    /// The name in the `metric` column (for a latency series, the stem of its rows).
    public var name: String { definition.name }

    /// The keys of the same metrics under `requirement`: for a requirement that two apps report
    /// with the same metrics under different IDs.
    public static func keys(_ definitions: [MetricDefinition], of requirement: String) -> [MetricKey] {
        definitions.map { MetricKey(requirement, $0) }
    }
}
