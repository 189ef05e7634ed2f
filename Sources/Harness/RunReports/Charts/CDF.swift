import Foundation

extension Charts {
    /// Points a CDF's step line holds at most: a longer sample is drawn at evenly spaced ranks.
    static let maximumCDFPoints = 400

    /// The empirical cumulative distribution of `values` (ascending) as a step line from 0 to 1, with
    /// labelled vertical `markers` (e.g. the median and the 95th percentile).
    public static func cdf(
        title: String, values: [Double], xLabel: String, markers: [(value: Double, label: String)], format: Format
    ) -> SVG.Node {
        let n = values.count
        let f = ChartFrame(xDomain: min(0, values.first ?? 0)...(values.last ?? 1), yDomain: 0...1)
        // Room on the right for half the last tick's label, which sits on the plot's edge.
        let xScale = LinearScale(domain: f.x.nice(count: 6).domain, range: (f.plotLeft, f.plotRight - 18))
        var frame = f
        frame.x = xScale
        let xTicks = xScale.ticks(count: 6)
        var nodes = axes(
            frame, xTicks: Array(zip(xTicks, tickLabels(xTicks, format))),
            yFormat: { ReportFormat.significant($0 * 100, $1) + " %" }, xLabel: xLabel, yLabel: "share of items ≤ x")
        let step = max(1, n / maximumCDFPoints)
        var points: [(x: Double, y: Double)] = [(frame.x(values.first ?? 0), frame.y(0))]
        var i = 0
        while i < n {
            let j = min(n - 1, i + step - 1)
            points.append((frame.x(values[j]), frame.y(Double(i) / Double(n))))
            points.append((frame.x(values[j]), frame.y(Double(j + 1) / Double(n))))
            i = j + 1
        }
        for (k, m) in markers.enumerated() where m.value.isFinite {
            let px = frame.x(m.value)
            nodes.append(SVG.line(px, frame.plotTop, px, frame.plotBottom, cls: "marker"))
            nodes.append(
                SVG.text(
                    m.label, x: px > (frame.plotLeft + frame.plotRight) / 2 ? px - 4 : px + 4,
                    y: frame.plotTop + 12 + 14 * Double(k),
                    anchor: px > (frame.plotLeft + frame.plotRight) / 2 ? "end" : "start", cls: "marker-label"))
        }
        nodes.append(SVG.polyline(points, cls: "series s0"))
        return SVG.root(width: f.width, height: f.height, label: title, nodes)
    }
}
