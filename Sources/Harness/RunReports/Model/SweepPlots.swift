import MetricReports
import ScenarioEngine

/// The data of one sweep plot: a metric against the first swept parameter, one series per seed (and
/// per combination of the other swept parameters).
public struct SweepPlot: Sendable {
    /// Requirement ID and metric name.
    public var requirement: String, metric: String
    /// Unit of the values.
    public var unit: String
    /// The swept parameter on the x axis.
    public var parameter: String
    /// Its values as written, when they are not all numbers (the x of a point is then its index here).
    public var categories: [String]?
    /// One line per seed (or per seed and other parameters).
    public var series: [ChartSeries]
    /// The threshold and its comparator, when the metric is checked.
    public var threshold: Double?, comparator: ThresholdComparator
    /// Whether the values differ between cases (a flat metric is plotted after those that move).
    public var varies: Bool
    /// The metric's kind (latency rows are wall-clock and move in every sweep).
    public var kind: MetricKind

    /// The plots of a sweep's rows, at most `limit`: non-latency metrics that vary between cases, then
    /// checked latency percentiles, then checked metrics that do not vary; each group in row order.
    public static func plots(rows: [MetricRow], sweep: SweepRecord, limit: Int = 12) -> [SweepPlot] {
        guard let first = sweep.parameters.first, !first.values.isEmpty else { return [] }
        let numeric = first.values.compactMap(Double.init)
        let categories = numeric.count == first.values.count ? nil : first.values
        var order: [String] = []
        var byMetric: [String: [MetricRow]] = [:]
        for r in rows {
            let key = r.requirement + "|" + r.metric
            if byMetric[key] == nil { order.append(key) }
            byMetric[key, default: []].append(r)
        }
        var out: [SweepPlot] = []
        for key in order {
            guard let group = byMetric[key], let head = group.first, group.count > 1 else { continue }
            var lines: [String: [(x: Double, y: Double)]] = [:]
            var lineOrder: [String] = []
            for r in group {
                let params = caseParameters(r.scenario)
                guard let xText = params.first(where: { $0.name == first.name })?.value,
                    let xIndex = first.values.firstIndex(of: xText)
                else { continue }
                let x = categories == nil ? numeric[xIndex] : Double(xIndex)
                let others = params.filter { $0.name != first.name && $0.name != "seed" }.map {
                    "\($0.name)=\($0.value)"
                }
                let name = (others + ["seed \(r.seed)"]).joined(separator: ", ")
                if lines[name] == nil { lineOrder.append(name) }
                lines[name, default: []].append((x, r.value))
            }
            guard !lines.isEmpty else { continue }
            let values = group.map(\.value)
            let varies = values.contains { $0 != values[0] && !($0.isNaN && values[0].isNaN) }
            out.append(
                SweepPlot(
                    requirement: head.requirement, metric: head.metric, unit: head.unit, parameter: first.name,
                    categories: categories,
                    series: lineOrder.map { ChartSeries(name: $0, points: lines[$0]!.sorted { $0.x < $1.x }) },
                    threshold: head.threshold, comparator: head.comparator, varies: varies, kind: head.kind))
        }
        // What the swept parameter changes comes first; latency moves in every sweep (it is wall-clock
        // time), so only its checked percentile is drawn, after those; flat checked metrics last.
        let ranked =
            out.filter { $0.varies && $0.kind != .latency }
            + out.filter { $0.varies && $0.kind == .latency && $0.threshold != nil }
            + out.filter { !$0.varies && $0.kind != .latency && $0.threshold != nil }
        return Array(ranked.prefix(limit))
    }

    /// The parameters of a case label `name[p=v,…,seed=s]`, in order (empty for a plain scenario).
    public static func caseParameters(_ label: String) -> [(name: String, value: String)] {
        guard let open = label.firstIndex(of: "["), label.hasSuffix("]") else { return [] }
        let inner = label[label.index(after: open)..<label.index(before: label.endIndex)]
        return inner.split(separator: ",").compactMap { part -> (name: String, value: String)? in
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return pair.count == 2 ? (String(pair[0]), String(pair[1])) : nil
        }
    }
}
