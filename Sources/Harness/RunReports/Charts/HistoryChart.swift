import Foundation

/// One point of a history chart: a value at a commit, with its 95 % interval when there is one.
public struct HistoryPoint: Sendable, Equatable {
    /// Position on the x axis (the commit's index).
    public var index: Int
    /// The value, in the chart's unit.
    public var value: Double
    /// The interval's ends (nil: the point alone is drawn).
    public var low: Double?, high: Double?
    /// Whether the row failed its threshold at this commit (drawn in the failure colour).
    public var failed: Bool
    /// The tooltip text.
    public var tip: String

    /// A point; see the properties.
    public init(index: Int, value: Double, low: Double?, high: Double?, failed: Bool, tip: String) {
        self.index = index
        self.value = value
        self.low = low
        self.high = high
        self.failed = failed
        self.tip = tip
    }
}

extension Charts {
    /// Commit labels drawn at most under a history chart (the others are in each point's tooltip).
    static let historyLabels = 6

    /// A metric over commits: the commits evenly spaced left to right in order, each value a dot on a
    /// line joining them, its 95 % interval a vertical error bar, and the threshold a dashed line.
    /// `commits` are the x labels (short commits); at most `historyLabels` of them are written.
    public static func historyChart(
        title: String, commits: [String], yLabel: String, points: [HistoryPoint], threshold: Double?,
        thresholdLabel: String, format: Format
    ) -> SVG.Node {
        let finite = points.filter(\.value.isFinite)
        var ys = finite.flatMap { [$0.value, $0.low, $0.high].compactMap { $0 } }.filter(\.isFinite)
        let lo = ys.min() ?? 0
        let hi = ys.max() ?? 1
        // A threshold far beyond the data would flatten the line: it is then named, not drawn.
        let reach = 3 * max(hi - lo, abs(hi) * 0.1)
        let drawn = threshold.flatMap { $0.isFinite && $0 >= lo - reach && $0 <= hi + reach ? $0 : nil }
        if let drawn { ys.append(drawn) }
        var yLow = ys.min() ?? 0
        var yHigh = ys.max() ?? 1
        // A flat line sits mid-chart; at 0 (a count of faults) the axis runs from 0 up, not below it.
        if yLow == yHigh { (yLow, yHigh) = yLow == 0 ? (0, 1) : (yLow - abs(yLow) * 0.1, yHigh + abs(yHigh) * 0.1) }
        let xDomain = -0.5...(Double(max(1, commits.count)) - 0.5)
        var f = ChartFrame(xDomain: xDomain, yDomain: yLow...yHigh)
        // Room for the longest y label at the phone's 13-unit font (about 7.6 units a character): values
        // that barely move need many digits (299.998 s).
        let longest = tickLabels(f.y.ticks(count: 5), format).map(\.count).max() ?? 0
        f.left = max(f.left, 10 + 7.6 * Double(longest))
        // The latest commit's label is centred half a step from the plot's right edge: room for its
        // half (7 characters) past that edge.
        let halfStep = (f.width - f.left - 28) / Double(2 * max(1, commits.count))
        f.right = max(f.right, 28 - halfStep)
        f.x = LinearScale(domain: xDomain, range: (f.left, f.width - f.right))
        let step = max(1, Int((Double(commits.count) / Double(historyLabels)).rounded(.up)))
        // Every step-th commit from the last one, so the latest is always named.
        let labelled = stride(from: commits.count - 1, through: 0, by: -step).reversed()
        let xTicks = labelled.map { (Double($0), commits[$0]) }
        var nodes = axes(f, xTicks: xTicks, yFormat: format, xLabel: "commit (oldest first)", yLabel: yLabel)
        if let drawn {
            nodes += horizontalThreshold(f, drawn, label: thresholdLabel)
        } else if threshold != nil {
            nodes.append(
                SVG.text(
                    thresholdLabel + " (off the axis)", x: f.plotRight - 2, y: 15, anchor: "end", cls: "threshold-label"
                ))
        }
        let line = finite.map { (x: f.x(Double($0.index)), y: f.y($0.value)) }
        if line.count > 1 { nodes.append(SVG.polyline(line, cls: "series s0")) }
        for p in finite {
            let x = f.x(Double(p.index))
            let cls = p.failed ? "worse" : "same"
            if let low = p.low, let high = p.high, low.isFinite, high.isFinite {
                nodes.append(SVG.line(x, f.y(low), x, f.y(high), cls: "ci " + cls))
                nodes.append(SVG.line(x - 4, f.y(low), x + 4, f.y(low), cls: "ci " + cls))
                nodes.append(SVG.line(x - 4, f.y(high), x + 4, f.y(high), cls: "ci " + cls))
            }
            nodes.append(SVG.circle(x: x, y: f.y(p.value), r: 3.5, cls: "point " + cls, tip: p.tip))
        }
        return SVG.root(width: f.width, height: f.height, label: title, nodes)
    }
}
