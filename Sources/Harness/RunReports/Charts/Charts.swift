import FieldtestData
import Foundation

/// A named line of a line chart: its points in data units, in x order.
public struct ChartSeries: Sendable {
    /// The legend text.
    public var name: String
    /// The points.
    public var points: [(x: Double, y: Double)]

    /// A series; see the properties.
    public init(name: String, points: [(x: Double, y: Double)]) {
        self.name = name
        self.points = points
    }
}

/// The plotting area of a chart and its two scales: the geometry every chart shares, kept apart from
/// drawing so it can be tested.
public struct ChartFrame: Sendable, Equatable {
    /// The whole drawing, pixels (the SVG viewBox).
    public var width: Double, height: Double
    /// Space for the axes and their labels: left, right, top and bottom, pixels.
    public var left: Double, right: Double, top: Double, bottom: Double
    /// Data x → pixel x (left to right).
    public var x: LinearScale
    /// Data y → pixel y (bottom to top: SVG's y grows downwards).
    public var y: LinearScale

    /// A frame over `xDomain` × `yDomain`; the y domain is widened to round ticks (and to 0 when
    /// `yFromZero`).
    public init(
        xDomain: ClosedRange<Double>, yDomain: ClosedRange<Double>, width: Double = 480, height: Double = 240,
        yFromZero: Bool = false
    ) {
        self.width = width
        self.height = height
        left = 62
        right = 14
        top = 26
        bottom = 42
        let yLow = yFromZero ? min(0, yDomain.lowerBound) : yDomain.lowerBound
        let yHigh = yFromZero ? max(0, yDomain.upperBound) : yDomain.upperBound
        x = LinearScale(domain: xDomain, range: (left, width - right))
        y = LinearScale(domain: yLow...yHigh, range: (height - bottom, top)).nice(count: 5)
    }

    /// The x pixel of the plot area's left and right edges, and the y pixel of its bottom and top.
    public var plotLeft: Double { left }
    public var plotRight: Double { width - right }
    public var plotBottom: Double { height - bottom }
    public var plotTop: Double { top }
}

/// Line charts, histograms and maps drawn as inline SVG.
public enum Charts {
    /// Formats a value to a number of significant digits (the page passes unit-aware formatting).
    public typealias Format = @Sendable (_ value: Double, _ significantDigits: Int) -> String

    /// Labels for `ticks`: three significant digits, or as many more as it takes to tell them apart
    /// (ticks 299.99, 300, 300.01 would all read "300 s" at three).
    public static func tickLabels(_ ticks: [Double], _ format: Format) -> [String] {
        for digits in 3...12 {
            let labels = ticks.map { format($0, digits) }
            if Set(labels).count == labels.count { return labels }
        }
        return ticks.map { format($0, 12) }
    }

    /// Axes with ticks and grid lines; x ticks at `xTicks` (value, label); y ticks at whole numbers
    /// only when `wholeY` (counts of calls have no half).
    static func axes(
        _ f: ChartFrame, xTicks: [(Double, String)], yFormat: Format, xLabel: String, yLabel: String,
        wholeY: Bool = false
    ) -> [SVG.Node] {
        var nodes: [SVG.Node] = []
        let yTicks = f.y.ticks(count: 5).filter { !wholeY || $0 == $0.rounded() }
        for (t, label) in zip(yTicks, tickLabels(yTicks, yFormat)) {
            let py = f.y(t)
            nodes.append(SVG.line(f.plotLeft, py, f.plotRight, py, cls: "grid"))
            nodes.append(SVG.text(label, x: f.plotLeft - 6, y: py + 4, anchor: "end", cls: "tick"))
        }
        for (v, label) in xTicks {
            let px = f.x(v)
            nodes.append(SVG.line(px, f.plotBottom, px, f.plotBottom + 4, cls: "axis"))
            nodes.append(SVG.text(label, x: px, y: f.plotBottom + 17, anchor: "middle", cls: "tick"))
        }
        nodes.append(SVG.line(f.plotLeft, f.plotBottom, f.plotRight, f.plotBottom, cls: "axis"))
        nodes.append(SVG.line(f.plotLeft, f.plotTop, f.plotLeft, f.plotBottom, cls: "axis"))
        nodes.append(
            SVG.text(xLabel, x: (f.plotLeft + f.plotRight) / 2, y: f.height - 6, anchor: "middle", cls: "label"))
        nodes.append(SVG.text(yLabel, x: 4, y: 15, anchor: "start", cls: "label"))
        return nodes
    }

    /// A dashed horizontal threshold line across the plot, labelled at its right end.
    static func horizontalThreshold(_ f: ChartFrame, _ value: Double, label: String) -> [SVG.Node] {
        let py = f.y(value)
        return [
            SVG.line(f.plotLeft, py, f.plotRight, py, cls: "threshold"),
            SVG.text(
                label, x: f.plotRight - 2, y: py - 4 < f.plotTop + 10 ? py + 13 : py - 4, anchor: "end",
                cls: "threshold-label"),
        ]
    }

    /// Metric against a swept parameter: one line per series, x at `categories` (evenly spaced, as
    /// written) or numeric, with the threshold drawn when there is one.
    public static func lineChart(
        title: String, xLabel: String, categories: [String]?, yLabel: String, series: [ChartSeries],
        threshold: Double?, thresholdLabel: String, format: Format
    ) -> SVG.Node {
        let xs = series.flatMap { $0.points.map(\.x) }
        var ys = series.flatMap { $0.points.map(\.y) }.filter(\.isFinite)
        // A threshold far beyond the data would flatten every line: it is then named, not drawn.
        let lo = ys.min() ?? 0
        let hi = ys.max() ?? 1
        let reach = 3 * max(hi - lo, abs(hi) * 0.1)
        let drawn = threshold.flatMap { $0.isFinite && $0 >= lo - reach && $0 <= hi + reach ? $0 : nil }
        if let drawn { ys.append(drawn) }
        let xDomain: ClosedRange<Double>
        if let categories {
            xDomain = -0.5...(Double(max(1, categories.count)) - 0.5)
        } else {
            xDomain = (xs.min() ?? 0)...(xs.max() ?? 1)
        }
        let f = ChartFrame(xDomain: xDomain, yDomain: (ys.min() ?? 0)...(ys.max() ?? 1))
        let xTicks: [(Double, String)] =
            categories.map { $0.enumerated().map { (Double($0.offset), $0.element) } }
            ?? { ticks in Array(zip(ticks, tickLabels(ticks, format))) }(f.x.ticks(count: 6))
        var nodes = axes(f, xTicks: xTicks, yFormat: format, xLabel: xLabel, yLabel: yLabel)
        if let drawn {
            nodes += horizontalThreshold(f, drawn, label: thresholdLabel)
        } else if threshold != nil {
            nodes.append(
                SVG.text(
                    thresholdLabel + " (off the axis)", x: f.plotRight - 2, y: 15, anchor: "end", cls: "threshold-label"
                ))
        }
        for (i, s) in series.enumerated() {
            let pts = s.points.filter { $0.y.isFinite }.map { (x: f.x($0.x), y: f.y($0.y)) }
            nodes.append(SVG.polyline(pts, cls: "series s\(i % 8)"))
            for (p, d) in zip(pts, s.points.filter { $0.y.isFinite }) {
                nodes.append(
                    SVG.circle(x: p.x, y: p.y, r: 3, cls: "dot s\(i % 8)", tip: "\(s.name): \(format(d.y, 4))"))
            }
        }
        return SVG.root(width: f.width, height: f.height, label: title, nodes)
    }

    /// A histogram of `values` (each counting `weights[i]` times when given) with the threshold and the
    /// measured `marker` (e.g. p95) as vertical lines.
    public static func histogram(
        title: String, values: [Double], weights: [Int]? = nil, xLabel: String, threshold: Double?,
        thresholdLabel: String, marker: Double?, markerLabel: String, format: Format
    ) -> SVG.Node {
        let total = weights?.reduce(0, +) ?? values.count
        let h = Histogram(values, weights: weights, bins: Histogram.binCount(for: total))
        var lo = h.lower
        var hi = h.upper
        // A threshold far beyond the data would squeeze every bar into a sliver: it is then named, not drawn.
        let reach = 3 * max(h.upper - h.lower, abs(h.upper) * 0.1)
        func onScale(_ v: Double?) -> Double? {
            guard let v, v.isFinite, v >= h.lower - reach, v <= h.upper + reach else { return nil }
            return v
        }
        for v in [onScale(threshold), onScale(marker)].compactMap({ $0 }) {
            lo = min(lo, v)
            hi = max(hi, v)
        }
        let f = ChartFrame(
            xDomain: lo...(hi + (hi - lo) * 0.02), yDomain: 0...Double(h.counts.max() ?? 1), yFromZero: true)
        let ticks = f.x.ticks(count: 5)
        let xTicks = Array(zip(ticks, tickLabels(ticks, format)))
        var nodes = axes(
            f, xTicks: xTicks, yFormat: { v, _ in String(Int(v.rounded())) }, xLabel: xLabel, yLabel: "calls",
            wholeY: true)
        for (i, c) in h.counts.enumerated() where c > 0 {
            let e = h.edges(of: i)
            let x0 = f.x(e.lowerBound)
            let x1 = f.x(e.upperBound)
            nodes.append(
                SVG.rect(
                    x: x0 + 0.5, y: f.y(Double(c)), width: x1 - x0 - 1, height: f.plotBottom - f.y(Double(c)),
                    cls: "bar", tip: "\(format(e.lowerBound, 3))–\(format(e.upperBound, 3)): \(c)"))
        }
        if let marker = onScale(marker) {
            let px = f.x(marker)
            nodes.append(SVG.line(px, f.plotTop, px, f.plotBottom, cls: "marker"))
            // Labels go on the side of their line with more room, so they stay inside the chart.
            let leftSide = px - f.plotLeft > f.plotRight - px
            nodes.append(
                SVG.text(
                    markerLabel, x: leftSide ? px - 4 : px + 4, y: f.plotTop + 26, anchor: leftSide ? "end" : "start",
                    cls: "marker-label"))
        }
        if let threshold = onScale(threshold) {
            let px = f.x(threshold)
            nodes.append(SVG.line(px, f.plotTop, px, f.plotBottom, cls: "threshold"))
            let leftSide = px - f.plotLeft > f.plotRight - px
            nodes.append(
                SVG.text(
                    thresholdLabel, x: leftSide ? px - 4 : px + 4, y: f.plotTop + 10,
                    anchor: leftSide ? "end" : "start",
                    cls: "threshold-label"))
        } else if threshold != nil {
            nodes.append(
                SVG.text(
                    thresholdLabel + " (off the axis)", x: f.plotRight - 2, y: f.plotTop + 10, anchor: "end",
                    cls: "threshold-label"))
        }
        return SVG.root(width: f.width, height: f.height, label: title, nodes)
    }
}

extension Charts {
    /// A row's 95 % interval as a small inline error bar: the interval as a bar, the value as a dot and
    /// the threshold (if any) as a tick, on a scale spanning the three; `label` describes it in words
    /// for a screen reader (`aria-label`), since the drawing has no text.
    public static func errorBar(value: Double, low: Double, high: Double, threshold: Double?, label: String)
        -> SVG.Node
    {
        let width = 80.0
        let height = 14.0
        let points = [value, low, high] + (threshold.map { [$0] } ?? [])
        let finite = points.filter(\.isFinite)
        var lo = finite.min() ?? 0
        var hi = finite.max() ?? 1
        let pad = hi > lo ? (hi - lo) * 0.08 : max(abs(hi) * 0.05, 1e-9)
        lo -= pad
        hi += pad
        func x(_ v: Double) -> Double { 2 + (v - lo) / (hi - lo) * (width - 4) }
        var nodes: [SVG.Node] = [
            SVG.element("title", [], [.text(label)]),
            SVG.line(x(low), height / 2, x(high), height / 2, cls: "ci"),
            SVG.line(x(low), height / 2 - 3, x(low), height / 2 + 3, cls: "ci"),
            SVG.line(x(high), height / 2 - 3, x(high), height / 2 + 3, cls: "ci"),
        ]
        if let threshold, threshold.isFinite {
            nodes.append(SVG.line(x(threshold), 1, x(threshold), height - 1, cls: "ci-threshold"))
        }
        if value.isFinite { nodes.append(SVG.circle(x: x(value), y: height / 2, r: 2.5, cls: "ci-value")) }
        return SVG.element(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("viewBox", "0 0 \(SVG.number(width)) \(SVG.number(height))"),
                ("class", "errorbar"), ("role", "img"), ("aria-label", label),
            ], nodes)
    }
}
