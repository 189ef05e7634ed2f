import FieldtestGSL
import Foundation
import MetricReports

/// Gathers what an app driver measures during a run and turns it into metric
/// rows for the requirements the scenario lists, applying threshold overrides.
public final class MetricCollector {
    struct Entry {
        var requirement: String
        var metric: String
        var kind: MetricKind
        var value: Double
        var unit: String
        var threshold: Double?
        var comparator: ThresholdComparator
        var samples: Int
        var status: MetricStatus?
        /// The values a core summarised into `value` and how (`expect(_:_:_:of:over:)`), for the
        /// row's bootstrap interval.
        var summarised: (statistic: Bootstrap.Statistic, values: [Double])? = nil
    }

    struct LatencySeries {
        var requirement: String
        var metric: String
        var recorder = LatencyRecorder()
        var threshold: Double?
    }

    /// What is kept of a metric whose samples are recorded as the app runs (`sample`, `add`,
    /// `check`): only what its `MetricAggregate` needs.
    struct SampleSeries {
        var requirement: String
        var definition: MetricDefinition
        var count = 0
        var sum = 0.0
        var min = Double.infinity
        var max = -Double.infinity
        /// The samples (the x of each pair for `correlation`), kept only when the aggregate needs them
        /// (a mean or quantile for its bootstrap interval).
        var values: [Double] = []
        /// Whether every sample is 0 or 1 (a mean is then a share: Wilson interval).
        var binary = true
        /// Whether every sample is finite (no interval otherwise).
        var finite = true
        /// The y of each pair (`correlation` only).
        var paired: [Double] = []
        /// Whether anything was recorded, even an amount of 0 over 0 cases (`add`).
        var touched = false
        /// Reported even without a sample (then failing as not measured when checked).
        var declared = false
        /// A threshold derived from the run, replacing the definition's (`add(threshold:)`).
        var threshold: Double?

        var aggregate: MetricAggregate { definition.aggregate ?? .sum }

        mutating func add(_ value: Double, samples: Int = 1) {
            touched = true
            count += samples
            sum += value
            min = Swift.min(min, value)
            max = Swift.max(max, value)
            if value != 0 && value != 1 { binary = false }
            if !value.isFinite { finite = false }
            if aggregate.keepsSamples { values.append(value) }
        }

        /// The row's 95 % interval in its unit, nil where none is defined: Wilson for the mean of 0/1
        /// samples (a share), a percentile bootstrap for another mean or a quantile (stream
        /// `bootstrap/<requirement>/<metric>` of `seed`), Fisher's z for a correlation; none for sums,
        /// extremes, no sample or a non-finite one.
        func interval(seed: UInt64) -> ConfidenceInterval? {
            guard definition.hasInterval, count > 0, finite else { return nil }
            let stream = { RandomStream(seed: seed).substream(named: "bootstrap/\(requirement)/\(definition.name)") }
            switch aggregate {
            case .mean:
                if binary { return Intervals.wilson(successes: Int(sum), trials: count) }
                return Bootstrap.interval(.mean, of: values, stream: stream())
            case .quantile(let p): return Bootstrap.interval(.quantile(p), of: values, stream: stream())
            case .correlation: return Self.fisherInterval(r: value, pairs: values.count)
            case .sum, .nonZeroSum, .min, .max: return nil
            }
        }

        /// Fisher's z interval of Pearson's `r` over `pairs` pairs: tanh(atanh r ± z₀.₉₇₅/√(n − 3));
        /// nil for 3 pairs or fewer or |r| = 1 (the interval is then undefined).
        static func fisherInterval(r: Double, pairs: Int) -> ConfidenceInterval? {
            guard pairs > 3, r.isFinite, abs(r) < 1 else { return nil }
            let z = atanh(r)
            let half = normalQuantile975 / Double(pairs - 3).squareRoot()
            return ConfidenceInterval(low: tanh(z - half), high: tanh(z + half))
        }

        /// The standard normal 0.975 quantile (two-sided 95 %).
        static let normalQuantile975 = 1.959963984540054

        /// Whether the series gives a row.
        var reported: Bool {
            aggregate == .nonZeroSum ? sum != 0 : touched || declared
        }

        /// The row's value (NaN for an average, extreme or quantile of no sample). O(n log n) for a
        /// quantile, O(n) for a correlation, O(1) otherwise.
        var value: Double {
            switch aggregate {
            case .sum, .nonZeroSum: return sum
            case .mean: return count == 0 ? .nan : sum / Double(count)
            case .min: return count == 0 ? .nan : min
            case .max: return count == 0 ? .nan : max
            case .quantile(let p): return Quantiles.quantile(sorted: values.sorted(), probability: p) ?? .nan
            case .correlation: return Self.correlation(values, paired)
            }
        }

        /// Pearson correlation of `x` with `y` (two passes: means, then co-moments); 0 when fewer
        /// than two pairs or either side is constant.
        static func correlation(_ x: [Double], _ y: [Double]) -> Double {
            let n = Double(x.count)
            guard n >= 2 else { return 0 }
            let mx = x.reduce(0, +) / n
            let my = y.reduce(0, +) / n
            var sxy = 0.0
            var sxx = 0.0
            var syy = 0.0
            for (a, b) in zip(x, y) {
                sxy += (a - mx) * (b - my)
                sxx += (a - mx) * (a - mx)
                syy += (b - my) * (b - my)
            }
            return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
        }
    }

    private var entries: [Entry] = []

    /// The 95 % interval of a recorded value: the percentile bootstrap of its statistic over the
    /// values a core summarised (stream `bootstrap/<requirement>/<metric>` of `seed`), else Wilson's
    /// for a share (unit `ratio`, value 0…1, over at least one sample); none where the definition
    /// leaves intervals out.
    func interval(of e: Entry, seed: UInt64) -> ConfidenceInterval? {
        guard definition(e.requirement, e.metric)?.hasInterval ?? true else { return nil }
        if let summarised = e.summarised {
            guard summarised.values.allSatisfy(\.isFinite) else { return nil }
            return Bootstrap.interval(
                summarised.statistic, of: summarised.values,
                stream: RandomStream(seed: seed).substream(named: "bootstrap/\(e.requirement)/\(e.metric)"))
        }
        guard e.unit == "ratio", e.samples > 0, e.value >= 0, e.value <= 1 else { return nil }
        return Intervals.wilson(proportion: e.value, trials: e.samples)
    }
    private var latencies: [LatencySeries] = []
    private var latencyIndex: [String: Int] = [:]
    /// The sampled metrics the app declares, in declaration order (requirement by requirement).
    private var series: [SampleSeries] = []
    private var seriesIndex: [String: Int] = [:]
    /// What the run should say about how it measured (e.g. which share of a stream was scored and
    /// why), each once, in the order said; `run.json` lists them.
    public private(set) var notes: [String] = []

    /// Records `text` for `run.json`'s notes (once, however often it is said).
    public func note(_ text: String) {
        if !notes.contains(text) { notes.append(text) }
    }

    /// The scored items, in the order scored (`items.csv`), at most `itemLimit` per metric.
    public private(set) var items: [ItemRecord] = []
    /// Items not kept because their metric reached `itemLimit`, per `requirement|metric`.
    public private(set) var itemsOmitted: [String: Int] = [:]
    private var itemCounts: [String: Int] = [:]
    /// The most items kept per metric of one case (memory stays bounded on endless streams).
    public static let itemLimit = 100_000
    /// Called with every latency sample (requirement, metric, seconds), e.g. to trace it.
    public var latencySampled: ((String, String, Double) -> Void)?
    /// Called with every exact check as it is made (requirement, metric, whether it held), e.g. to trace it.
    public var checked: ((String, String, Bool) -> Void)?
    /// The app's requirement definitions, by ID.
    let definitions: [String: RequirementDefinition]

    /// A collector for an app reporting `requirements` (their metric definitions
    /// give `expect`, `sample`, `check` and `latency` their units, kinds, aggregates and
    /// default thresholds).
    public init(requirements: [RequirementDefinition] = []) {
        definitions = Dictionary(requirements.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for r in requirements {
            for m in r.metrics where m.aggregate != nil && !m.isSeries {
                let key = r.id + "|" + m.name
                guard seriesIndex[key] == nil else { continue }
                seriesIndex[key] = series.count
                series.append(SampleSeries(requirement: r.id, definition: m))
            }
        }
    }

    // The recording API by requirement ID and metric name is internal: the engine and its tests use
    // it; apps record through `MetricKey`s (the typed overloads below), so a misspelt metric does not
    // compile.

    /// Records one sample of a metric the app declares with an aggregate
    /// (`MetricDefinition.aggregate`), at the moment it is measured; the row is made from the
    /// samples when the run ends.
    func sample(_ requirement: String, _ metric: String, _ value: Double) {
        let i = seriesPosition(requirement, metric)
        precondition(
            series[i].aggregate != .correlation, "\(requirement) \(metric) is a correlation: record pairs")
        series[i].add(value)
    }

    /// Records one (x, y) pair of a metric declared `.over(.correlation)`.
    func sample(_ requirement: String, _ metric: String, pair x: Double, _ y: Double) {
        let i = seriesPosition(requirement, metric)
        precondition(series[i].aggregate == .correlation, "\(requirement) \(metric) is not a correlation")
        series[i].add(x)
        series[i].paired.append(y)
    }

    /// Adds `amount` to a summed metric (`.sum`, `.nonZeroSum`) as `samples` cases: e.g. the errors
    /// found in a recount of `samples` periods. The row appears once anything was added, even an
    /// amount of 0 over 0 cases (a metric that belongs with others measured at the same moment).
    /// `threshold` replaces the definition's only where the threshold is derived from the run (the
    /// last one given applies).
    func add(
        _ requirement: String, _ metric: String, _ amount: Double = 1, samples: Int = 1, threshold: Double? = nil
    ) {
        let i = seriesPosition(requirement, metric)
        precondition(
            series[i].aggregate == .sum || series[i].aggregate == .nonZeroSum,
            "\(requirement) \(metric) is not a sum: record samples")
        series[i].add(amount, samples: samples)
        if let threshold { series[i].threshold = threshold }
    }

    /// Records one exact check of `requirement` as it is made: a case that behaved as specified
    /// (`ok`) or not. The row (a `MetricDefinition.mismatches` metric) counts the cases that did
    /// not, out of those checked.
    func check(_ requirement: String, _ metric: String, _ ok: Bool) {
        sample(requirement, metric, ok ? 0 : 1)
        checked?(requirement, metric, ok)
    }

    /// Records one scored item behind `requirement`'s `metric` (a row of `items.csv`).
    func item(_ requirement: String, _ metric: String, _ outcome: ItemOutcome) {
        let key = requirement + "|" + metric
        let n = itemCounts[key, default: 0]
        guard n < Self.itemLimit else {
            itemsOmitted[key, default: 0] += 1
            return
        }
        itemCounts[key] = n + 1
        items.append(ItemRecord(requirement: requirement, metric: metric, outcome: outcome))
    }

    /// Records one exact check of `requirement` with the item it checked (`items.csv`).
    func check(_ requirement: String, _ metric: String, _ ok: Bool, item outcome: ItemOutcome) {
        check(requirement, metric, ok)
        var o = outcome
        o.correct = ok
        item(requirement, metric, o)
    }

    /// Records one sample with the item it measured (`items.csv`; the sample is the item's error).
    func sample(_ requirement: String, _ metric: String, _ value: Double, item outcome: ItemOutcome) {
        sample(requirement, metric, value)
        var o = outcome
        if o.error == nil { o.error = value }
        item(requirement, metric, o)
    }

    /// The items of `requirements` (their `items.csv` rows), in the order scored.
    public func items(for requirements: [RequirementSpec]) -> [ItemRecord] {
        let wanted = Set(requirements.map(\.id))
        return items.filter { wanted.contains($0.requirement) }
    }

    /// The full histogram of each latency series of `requirements` (`latency-histogram.csv`), in the
    /// order the series were first recorded.
    public func latencyHistograms(for requirements: [RequirementSpec]) -> [LatencyHistogramRecord] {
        let wanted = Set(requirements.map(\.id))
        return latencies.filter { wanted.contains($0.requirement) }.map {
            let b = $0.recorder.buckets
            return LatencyHistogramRecord(
                requirement: $0.requirement, metric: $0.metric, seconds: b.seconds, counts: b.counts)
        }
    }

    /// Records one exact check of `requirement`'s `behaviour_mismatches` as it is made.
    func check(_ requirement: String, _ ok: Bool) { check(requirement, "behaviour_mismatches", ok) }

    /// The samples kept of a metric whose aggregate keeps them (a quantile or a correlation's x).
    func recordedSamples(_ requirement: String, _ metric: String) -> [Double] {
        seriesIndex[requirement + "|" + metric].map { series[$0].values } ?? []
    }

    private func seriesPosition(_ requirement: String, _ metric: String) -> Int {
        guard let i = seriesIndex[requirement + "|" + metric] else {
            preconditionFailure(
                "\(requirement) declares no sampled metric '\(metric)'; declare it with an aggregate in the app's requirement definition"
            )
        }
        return i
    }

    /// Makes a sampled metric give its row even if no sample is recorded (a checked row of no
    /// sample then fails as not measured).
    func declare(_ requirement: String, _ metric: String) {
        series[seriesPosition(requirement, metric)].declared = true
    }

    /// The definition of `requirement`'s `metric`, if the app declares it.
    public func definition(_ requirement: String, _ metric: String) -> MetricDefinition? {
        definitions[requirement]?.metric(metric)
    }

    /// Records one measured value of a metric the app declares (`RequirementDefinition.metrics`):
    /// kind, unit, comparator and threshold come from the definition, so every row of the
    /// metric follows one rule. `threshold` replaces the default only where the threshold is
    /// derived from the run (e.g. a feed period); a scenario override still replaces either.
    func expect(
        _ requirement: String, _ metric: String, _ value: Double, samples: Int,
        threshold: Double? = nil, status: MetricStatus? = nil
    ) {
        guard let d = definition(requirement, metric) else {
            preconditionFailure(
                "\(requirement) declares no metric '\(metric)'; add it to the app's requirement definition")
        }
        entries.append(
            Entry(
                requirement: requirement, metric: metric, kind: d.kind, value: value, unit: d.unit,
                threshold: threshold ?? d.threshold, comparator: d.comparator, samples: samples, status: status))
    }

    /// Records a value a core computed as `statistic` of `values` (e.g. a positioning evaluation's
    /// mean or 95th-percentile error): as `expect` over `values.count` samples, and the row gets the
    /// bootstrap interval of that statistic over the values.
    func expect(
        _ requirement: String, _ metric: String, _ value: Double, of statistic: Bootstrap.Statistic,
        over values: [Double]
    ) {
        expect(requirement, metric, value, samples: values.count)
        entries[entries.count - 1].summarised = (statistic, values)
    }

    /// Records one latency sample, seconds, for `requirement`'s `metric`
    /// (reported as `<metric>_p50/_p95/_p99/_max`; the threshold applies to p95).
    /// Without `threshold`, the series has the metric definition's default, if any.
    func latency(_ requirement: String, _ metric: String, seconds: Double, threshold: Double? = nil) {
        latencySampled?(requirement, metric, seconds)
        let key = requirement + "|" + metric
        if let i = latencyIndex[key] {
            latencies[i].recorder.record(seconds: seconds)
            if let threshold { latencies[i].threshold = threshold }
        } else {
            var s = LatencySeries(
                requirement: requirement, metric: metric,
                threshold: threshold ?? definition(requirement, metric)?.threshold)
            s.recorder.record(seconds: seconds)
            latencyIndex[key] = latencies.count
            latencies.append(s)
        }
    }

    /// Declares a latency series even before any sample, with `threshold` or, without
    /// one, the metric definition's default.
    func declareLatency(_ requirement: String, _ metric: String, threshold: Double? = nil) {
        let threshold = threshold ?? definition(requirement, metric)?.threshold
        let key = requirement + "|" + metric
        if let i = latencyIndex[key] {
            latencies[i].threshold = threshold
            return
        }
        latencyIndex[key] = latencies.count
        latencies.append(LatencySeries(requirement: requirement, metric: metric, threshold: threshold))
    }

    /// Records a single measured value.
    func value(
        _ requirement: String, _ metric: String, kind: MetricKind, _ value: Double, unit: String,
        threshold: Double? = nil, comparator: ThresholdComparator = .none, samples: Int, status: MetricStatus? = nil
    ) {
        entries.append(
            Entry(
                requirement: requirement, metric: metric, kind: kind, value: value, unit: unit,
                threshold: threshold, comparator: comparator, samples: samples, status: status))
    }

    /// Records an exact check: `failures` out of `checks` cases did not behave as specified (threshold 0).
    func exact(_ requirement: String, _ metric: String, failures: Int, checks: Int) {
        value(
            requirement, metric, kind: .count, Double(failures), unit: "count", threshold: 0, comparator: .lessOrEqual,
            samples: checks)
    }

    /// The rows for `requirements`, in their order; each requirement's rows in
    /// the order recorded. A checked row of no sample is `not_measured` with a note saying why, and
    /// a listed requirement with nothing recorded gets one `not_measured` row
    /// (`withoutVacuousPasses`). A threshold override replaces the threshold
    /// of the named metric (none when the requirement reports no such metric:
    /// `checkThresholdOverrides` reports that as an error), or, when it names no
    /// metric, of the requirement's first checked row.
    public func rows(template: MetricRow.Template, requirements: [RequirementSpec]) -> [MetricRow] {
        var out: [MetricRow] = []
        var done = Set<String>()
        for spec in requirements where done.insert(spec.id).inserted {
            let t = template.requirement(spec.id)
            var rows = recordedRows(spec.id, template: t, intervals: true)
            for o in requirements where o.id == spec.id {
                guard let threshold = o.threshold else { continue }
                let target: Int?
                if let metric = o.metric {
                    target = rows.firstIndex { $0.metric == metric }
                } else {
                    target = rows.firstIndex { $0.comparator != .none }
                }
                if let i = target {
                    let r = rows[i]
                    rows[i] = MetricRow(
                        scenario: r.scenario, runID: r.runID, seed: r.seed, requirement: r.requirement,
                        metric: r.metric, kind: r.kind, value: r.value, unit: r.unit, threshold: threshold,
                        comparator: r.comparator == .none ? .lessOrEqual : r.comparator, samples: r.samples,
                        ci: r.ci)
                }
            }
            out += Self.withoutVacuousPasses(rows, template: t, definition: definitions[spec.id])
        }
        return out
    }

    /// The one rule for evidence, applied to every app's rows: a checked row (one with a
    /// threshold) summarising no samples is `not_measured`, whatever its value, because nothing was
    /// measured to pass or fail it, and its `note` says why (the metric's `unmeasuredNote`, else
    /// what in a scenario exercises the requirement). A requirement that recorded nothing at all
    /// gets one `not_measured` row saying what would exercise it; its value is the number of
    /// checked metrics the requirement declares.
    public static func withoutVacuousPasses(
        _ rows: [MetricRow], template t: MetricRow.Template, definition: RequirementDefinition? = nil
    ) -> [MetricRow] {
        let needs = definition.map { needsText($0) } ?? "nothing exercised it"
        guard !rows.isEmpty else {
            let declared = definition?.metrics.filter { $0.comparator != .none }.count ?? 0
            var row = t.row(
                metric: "not_measured", kind: .count, value: Double(max(1, declared)), unit: "count", threshold: 0,
                comparator: .lessOrEqual, samples: 0)
            row.status = .notMeasured
            row.note = "the run recorded nothing for \(t.requirement); \(needs)"
            return [row]
        }
        return rows.map { row -> MetricRow in
            guard row.samples == 0, row.isChecked else { return row }
            var unmeasured = row
            unmeasured.status = .notMeasured
            let stem = definition?.metrics.first { row.metric == $0.name || row.metric.hasPrefix($0.name + "_p") }
            unmeasured.note = stem?.unmeasuredNote ?? "no sample; \(needs)"
            return unmeasured
        }
    }

    /// `it needs …` in the words of the scenario, or what to look at when the requirement is
    /// measured by any scenario of its app.
    static func needsText(_ d: RequirementDefinition) -> String {
        d.exercisedBy == .always
            ? "nothing in the scenario produced a case to check"
            : "it needs \(d.exercisedBy)"
    }

    /// Checks that every threshold override naming a metric names one its
    /// requirement reports (call once the driver has recorded everything), so
    /// a misspelt metric never leaves the intended threshold unchanged.
    /// A requirement that reports nothing is left to its failing `not_measured` row.
    ///
    /// - Parameter file: the scenario file, for the message.
    public func checkThresholdOverrides(_ requirements: [RequirementSpec], file: String) throws(ThresholdOverrideError)
    {
        for o in requirements where o.threshold != nil {
            guard let metric = o.metric else { continue }
            let reported = recordedRows(
                o.id, template: MetricRow.Template(scenario: "", runID: "", seed: 0, requirement: o.id),
                intervals: false
            )
            .map(\.metric)
            if !reported.isEmpty && !reported.contains(metric) {
                throw ThresholdOverrideError(file: file, requirement: o.id, metric: metric, reported: reported)
            }
        }
    }

    /// The rows recorded for `requirement`: its metrics aggregated from samples (declared with a
    /// `MetricAggregate`) in declaration order, then values in the order recorded, then latency series;
    /// with their 95 % intervals when `intervals` (a bootstrap costs 2,000 resamples: not for a
    /// look at the names only).
    private func recordedRows(_ requirement: String, template t: MetricRow.Template, intervals: Bool)
        -> [MetricRow]
    {
        var rows: [MetricRow] = []
        for s in series where s.requirement == requirement && s.reported {
            let d = s.definition
            rows.append(
                MetricRow(
                    scenario: t.scenario, runID: t.runID, seed: t.seed, requirement: requirement, metric: d.name,
                    kind: d.kind, value: s.value, unit: d.unit, threshold: s.threshold ?? d.threshold,
                    comparator: d.comparator, samples: s.count, ci: intervals ? s.interval(seed: t.seed) : nil))
        }
        for e in entries where e.requirement == requirement {
            rows.append(
                MetricRow(
                    scenario: t.scenario, runID: t.runID, seed: t.seed, requirement: requirement,
                    metric: e.metric, kind: e.kind, value: e.value, unit: e.unit, threshold: e.threshold,
                    comparator: e.comparator, status: e.status, samples: e.samples,
                    ci: intervals ? interval(of: e, seed: t.seed) : nil))
        }
        for s in latencies where s.requirement == requirement {
            rows += s.recorder.rows(base: t, metric: s.metric, threshold: s.threshold, intervals: intervals)
        }
        return rows
    }
}

/// A scenario's threshold override names a metric its requirement does not report.
public struct ThresholdOverrideError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The scenario file.
    public var file: String
    /// The requirement whose override is wrong.
    public var requirement: String
    /// The metric the override names.
    public var metric: String
    /// The metrics the requirement does report, in report order.
    public var reported: [String]

    public var description: String {
        "\(file): error: requirement \(requirement): threshold override names metric '\(metric)', which \(requirement) "
            + "does not report; use one of \(reported.joined(separator: ", ")) (or leave out 'metric' to set the first checked one)"
    }
}
