import FieldtestGSL
import MetricReports

/// The recording API apps use: each metric by its `MetricKey`, declared once in the app's definition.
/// A key whose requirement does not list it (`RequirementDefinition.metrics`) is a programming error,
/// stopped with a message naming the key at the first recording, before any row is made of it.
extension MetricCollector {
    /// Whether the app's requirement `key.requirement` lists `key`'s metric, with the same definition.
    public func declares(_ key: MetricKey) -> Bool {
        definitions[key.requirement]?.metrics.contains { $0.name == key.name && $0 == key.definition } ?? false
    }

    /// The problem with recording `key`, in words, or nil when its requirement lists it.
    public func undeclaredProblem(_ key: MetricKey) -> String? {
        guard !declares(key) else { return nil }
        guard let requirement = definitions[key.requirement] else {
            return "metric '\(key.name)' names requirement \(key.requirement), which the app does not define; "
                + "add the requirement to the app's definition"
        }
        if requirement.metric(key.name) != nil {
            return "metric '\(key.name)' of \(key.requirement) differs from the definition its requirement lists; "
                + "record through the key the requirement lists"
        }
        return "\(key.requirement) does not list metric '\(key.name)'; "
            + "add its key to the requirement's metrics in the app's definition"
    }

    /// Stops on a key its requirement does not list (see `undeclaredProblem`).
    private func requireDeclared(_ key: MetricKey) {
        if let problem = undeclaredProblem(key) { preconditionFailure(problem) }
    }

    /// Records one sample of `key`, a metric declared with an aggregate (`MetricDefinition.aggregate`),
    /// as it is measured; the row is made from the samples when the run ends.
    public func sample(_ key: MetricKey, _ value: Double) {
        requireDeclared(key)
        sample(key.requirement, key.name, value)
    }

    /// Records one (x, y) pair of `key`, a metric declared `.over(.correlation)`.
    public func sample(_ key: MetricKey, pair x: Double, _ y: Double) {
        requireDeclared(key)
        sample(key.requirement, key.name, pair: x, y)
    }

    /// Records one sample of `key` with the item it measured (`items.csv`; the sample is the item's error).
    public func sample(_ key: MetricKey, _ value: Double, item outcome: ItemOutcome) {
        requireDeclared(key)
        sample(key.requirement, key.name, value, item: outcome)
    }

    /// Adds `amount` to `key`, a summed metric (`.sum`, `.nonZeroSum`), as `samples` cases; `threshold`
    /// replaces the definition's only where it is derived from the run (`add(_:_:_:samples:threshold:)`).
    public func add(_ key: MetricKey, _ amount: Double = 1, samples: Int = 1, threshold: Double? = nil) {
        requireDeclared(key)
        add(key.requirement, key.name, amount, samples: samples, threshold: threshold)
    }

    /// Records one exact check of `key` (a `MetricDefinition.mismatches` metric) as it is made:
    /// a case that behaved as specified (`ok`) or not.
    public func check(_ key: MetricKey, _ ok: Bool) {
        requireDeclared(key)
        check(key.requirement, key.name, ok)
    }

    /// Records one exact check of `key` with the item it checked (`items.csv`).
    public func check(_ key: MetricKey, _ ok: Bool, item outcome: ItemOutcome) {
        requireDeclared(key)
        check(key.requirement, key.name, ok, item: outcome)
    }

    /// Records one scored item behind `key` (a row of `items.csv`).
    public func item(_ key: MetricKey, _ outcome: ItemOutcome) {
        requireDeclared(key)
        item(key.requirement, key.name, outcome)
    }

    /// Makes `key`, a sampled metric, give its row even if no sample is recorded (a checked row of no
    /// sample then fails as not measured).
    public func declare(_ key: MetricKey) {
        requireDeclared(key)
        declare(key.requirement, key.name)
    }

    /// Records one measured value of `key`: kind, unit, comparator and threshold come from its
    /// definition; `threshold` replaces the default only where it is derived from the run.
    public func expect(
        _ key: MetricKey, _ value: Double, samples: Int, threshold: Double? = nil, status: MetricStatus? = nil
    ) {
        requireDeclared(key)
        expect(key.requirement, key.name, value, samples: samples, threshold: threshold, status: status)
    }

    /// Records a value of `key` a core computed as `statistic` of `values`; the row gets the bootstrap
    /// interval of that statistic over the values.
    public func expect(_ key: MetricKey, _ value: Double, of statistic: Bootstrap.Statistic, over values: [Double]) {
        requireDeclared(key)
        expect(key.requirement, key.name, value, of: statistic, over: values)
    }

    /// Records one latency sample of `key`, seconds (rows `<metric>_p50/_p95/_p99/_max`; the threshold
    /// applies to p95): without `threshold`, the definition's.
    public func latency(_ key: MetricKey, seconds: Double, threshold: Double? = nil) {
        requireDeclared(key)
        latency(key.requirement, key.name, seconds: seconds, threshold: threshold)
    }

    /// Declares the latency series `key` even before any sample, with `threshold` or the definition's.
    public func declareLatency(_ key: MetricKey, threshold: Double? = nil) {
        requireDeclared(key)
        declareLatency(key.requirement, key.name, threshold: threshold)
    }

    /// Records an exact check counted at the end of the run: `failures` out of `checks` cases did not
    /// behave as specified, with the kind, unit, comparator and threshold of `key`'s definition (a
    /// `MetricDefinition.mismatches`). The one recording that needs no listed key: its metric's name
    /// may be made at run time (e.g. `batches_not_<size>`), so the catalogue cannot list it; its
    /// requirement must still be the app's.
    public func exact(_ key: MetricKey, failures: Int, checks: Int) {
        precondition(
            definitions[key.requirement] != nil,
            "metric '\(key.name)' names requirement \(key.requirement), which the app does not define")
        let d = key.definition
        value(
            key.requirement, key.name, kind: d.kind, Double(failures), unit: d.unit, threshold: d.threshold,
            comparator: d.comparator, samples: checks)
    }
}
