import Foundation

/// One line of a forest plot: a system's difference from the reference with its 95 % interval.
public struct ForestLine: Sendable {
    /// The line's label (the system's name).
    public var label: String
    /// The difference, in the metric's unit.
    public var delta: Double
    /// The interval of the difference (nil: the point alone is drawn).
    public var low: Double?, high: Double?
    /// The CSS class of its colour: `better`, `worse` or `same`.
    public var cls: String
    /// The tooltip text.
    public var tip: String

    /// A line; see the properties.
    public init(label: String, delta: Double, low: Double?, high: Double?, cls: String, tip: String) {
        self.label = label
        self.delta = delta
        self.low = low
        self.high = high
        self.cls = cls
        self.tip = tip
    }
}

extension Charts {
    /// Characters of a line's label drawn at most (the rest is in its tooltip).
    static let forestLabelLength = 14

    /// A forest plot: one horizontal bar per line from its interval's low to high end, a dot at the
    /// difference, and a vertical zero line (no difference from the reference).
    public static func forestPlot(title: String, xLabel: String, lines: [ForestLine], format: Format) -> SVG.Node {
        let values = lines.flatMap { [$0.delta, $0.low, $0.high].compactMap { $0 } }.filter(\.isFinite) + [0]
        let (lo, hi) = (values.min()!, values.max()!)
        let pad = max(hi - lo, max(abs(hi), abs(lo)) * 0.1, 1e-12) * 0.08
        let rowHeight = 26.0
        var f = ChartFrame(
            xDomain: (lo - pad)...(hi + pad), yDomain: 0...1, width: 480,
            height: 26 + 42 + rowHeight * Double(lines.count))
        f.left = 116
        f.x = LinearScale(domain: (lo - pad)...(hi + pad), range: (f.left, f.width - f.right)).nice(count: 5)
        var nodes: [SVG.Node] = []
        let ticks = f.x.ticks(count: 5)
        for (t, label) in zip(ticks, tickLabels(ticks, format)) {
            let px = f.x(t)
            nodes.append(SVG.line(px, f.plotTop, px, f.plotBottom, cls: "grid"))
            nodes.append(SVG.text(label, x: px, y: f.plotBottom + 17, anchor: "middle", cls: "tick"))
        }
        nodes.append(SVG.line(f.plotLeft, f.plotBottom, f.plotRight, f.plotBottom, cls: "axis"))
        nodes.append(SVG.line(f.x(0), f.plotTop - 6, f.x(0), f.plotBottom, cls: "zero"))
        nodes.append(SVG.text("0", x: f.x(0), y: f.plotTop - 9, anchor: "middle", cls: "tick"))
        nodes.append(
            SVG.text(xLabel, x: (f.plotLeft + f.plotRight) / 2, y: f.height - 6, anchor: "middle", cls: "label"))
        for (i, line) in lines.enumerated() {
            let y = f.plotTop + rowHeight * (Double(i) + 0.5)
            let name =
                line.label.count > forestLabelLength ? line.label.prefix(forestLabelLength - 1) + "…" : line.label
            nodes.append(SVG.text(String(name), x: f.plotLeft - 8, y: y + 4, anchor: "end", cls: "tick"))
            if let low = line.low, let high = line.high, low.isFinite, high.isFinite {
                nodes.append(SVG.line(f.x(low), y, f.x(high), y, cls: "ci " + line.cls))
                nodes.append(SVG.line(f.x(low), y - 5, f.x(low), y + 5, cls: "ci " + line.cls))
                nodes.append(SVG.line(f.x(high), y - 5, f.x(high), y + 5, cls: "ci " + line.cls))
            }
            if line.delta.isFinite {
                nodes.append(SVG.circle(x: f.x(line.delta), y: y, r: 4, cls: "point " + line.cls, tip: line.tip))
            }
        }
        return SVG.root(width: f.width, height: f.height, label: title, nodes)
    }
}
