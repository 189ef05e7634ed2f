import FieldtestGSL
import MetricReports

/// How the samples of a metric recorded as the run goes (`MetricCollector.add`, `check`, `sample`)
/// become the value of its row when the run ends.
public enum SampleSummary: Sendable, Equatable {
    /// The sum of the amounts added (`add`, `check`); the row's samples are the checks added.
    case total
    /// The arithmetic mean, summed in recording order (a rate when each sample is 0 or 1).
    case mean
    /// The largest sample.
    case maximum
    /// The linear-interpolated quantile at this probability (0…1; GSL's `Quantiles`, type 7).
    case quantile(Double)
    /// Pearson's r of the (x, y) pairs (`sample(_:_:pair:_:)`); 0 when it is undefined.
    case correlation
}

/// The samples of one metric, kept until the rows are made.
struct SampledMetric {
    var summary: SampleSummary
    /// Sum of the amounts added (`total`).
    var total = 0.0
    /// Checks added (`total`), or the number of samples otherwise.
    var samples = 0
    /// The samples (the x of each pair for `correlation`).
    var values: [Double] = []
    /// The y of each pair (`correlation` only).
    var paired: [Double] = []
    /// A threshold derived from the run, replacing the definition's.
    var threshold: Double?

    /// The row's value. O(n log n) for a quantile, O(n) otherwise.
    var value: Double {
        switch summary {
        case .total: total
        case .mean: values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        case .maximum: values.max() ?? 0
        case .quantile(let p): Quantiles.quantile(sorted: values.sorted(), probability: p) ?? 0
        case .correlation: Self.correlation(values, paired)
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

extension MetricCollector {
    /// Adds `amount` to a summed metric the app declares (e.g. 1 per event counted), as `samples`
    /// checks. The row appears once anything was added, even an amount of 0 over 0 checks (a
    /// metric that belongs with others measured at the same moment). `threshold` replaces the
    /// definition's only where the threshold is derived from the run (the last one given applies).
    public func add(
        _ requirement: String, _ metric: String, _ amount: Double = 1, samples: Int = 1, threshold: Double? = nil
    ) {
        update(requirement, metric, .total) {
            $0.total += amount
            $0.samples += samples
            if let threshold { $0.threshold = threshold }
        }
    }

    /// One exact check of a declared mismatch count (`MetricDefinition.mismatches`): a failure
    /// unless `passed`.
    public func check(_ requirement: String, _ metric: String, passed: Bool) {
        add(requirement, metric, passed ? 0 : 1)
    }

    /// One sample of a declared metric whose value is `summary` of its samples.
    public func sample(_ requirement: String, _ metric: String, _ value: Double, _ summary: SampleSummary) {
        update(requirement, metric, summary) {
            $0.values.append(value)
            $0.samples += 1
        }
    }

    /// One (x, y) pair of a declared metric whose value is the pairs' correlation.
    public func sample(_ requirement: String, _ metric: String, pair x: Double, _ y: Double) {
        update(requirement, metric, .correlation) {
            $0.values.append(x)
            $0.paired.append(y)
            $0.samples += 1
        }
    }

    private func update(
        _ requirement: String, _ metric: String, _ summary: SampleSummary, _ change: (inout SampledMetric) -> Void
    ) {
        guard let d = definition(requirement, metric), !d.isSeries else {
            preconditionFailure(
                "\(requirement) declares no metric '\(metric)'; add it to the app's requirement definition")
        }
        var m = sampled[requirement, default: [:]][metric] ?? SampledMetric(summary: summary)
        precondition(m.summary == summary, "\(requirement) \(metric) is summarised as \(m.summary), not \(summary)")
        change(&m)
        sampled[requirement, default: [:]][metric] = m
    }

    /// The rows of `requirement`'s sampled metrics, in the order its definition declares them.
    func sampledRows(_ requirement: String, template t: MetricRow.Template) -> [MetricRow] {
        guard let metrics = sampled[requirement], let declared = definitions[requirement]?.metrics else { return [] }
        return declared.compactMap { d -> MetricRow? in
            guard let m = metrics[d.name] else { return nil }
            return MetricRow(
                scenario: t.scenario, runID: t.runID, seed: t.seed, requirement: requirement, metric: d.name,
                kind: d.kind, value: m.value, unit: d.unit, threshold: m.threshold ?? d.threshold,
                comparator: d.comparator, samples: m.samples)
        }
    }
}
