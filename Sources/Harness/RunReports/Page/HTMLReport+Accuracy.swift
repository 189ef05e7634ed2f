import Foundation
import MetricReports
import Plot

/// Accuracy figures from `items.csv`: a confusion matrix per classifier series and the distribution
/// (CDF) of absolute errors per series of numeric errors.
extension HTMLReport {
    /// Figures a run shows at most of each kind.
    static let maximumAccuracyFigures = 8

    /// The accuracy figures of a scenario's runs.
    func accuracyFigures(_ rs: [ReportRun]) -> Body {
        var nodes: [Body] = []
        for r in rs {
            let suffix = rs.count > 1 ? " (\(r.label))" : ""
            for c in r.items.confusions.prefix(Self.maximumAccuracyFigures) { nodes.append(confusionMatrix(c, suffix)) }
            for e in r.items.errors.prefix(Self.maximumAccuracyFigures) where !e.values.isEmpty {
                nodes.append(errorDistribution(e, unit: Self.unit(of: e, in: r), suffix))
            }
        }
        guard !nodes.isEmpty else { return .empty }
        return .group(.h3("Accuracy"), .div(.class("figures"), .group(nodes)))
    }

    /// The unit of a series' errors: that of its metric row, else of a row of its requirement named after it.
    static func unit(of e: ItemDigest.Errors, in r: ReportRun) -> String {
        let rows = r.rows.filter { $0.requirement == e.requirement }
        return (rows.first { $0.metric == e.metric } ?? rows.first { $0.metric.hasPrefix(e.metric) })?.unit ?? ""
    }

    /// A confusion matrix as a table: expected labels down, answers across, the diagonal right.
    func confusionMatrix(_ c: ItemDigest.Confusion, _ suffix: String) -> Body {
        let answers = c.labels + (c.counts.values.contains { $0[""] != nil } ? [""] : [])
        let right = c.labels.reduce(0) { $0 + (c.counts[$1]?[$1] ?? 0) }
        let label =
            "confusion matrix of \(c.requirement) \(c.metric)\(suffix): \(right) of \(c.total) items answered as expected"
        let body: [Node<HTML.TableContext>] = c.labels.filter { c.counts[$0] != nil }.map { expected in
            .tr(
                .th(.attribute(named: "scope", value: "row"), .text(expected)),
                .group(
                    answers.map { answer in
                        let n = c.counts[expected]?[answer] ?? 0
                        let cls = n == 0 ? "num" : answer == expected ? "num right" : "num wrong"
                        return .td(.class(cls), .text(String(n)))
                    }))
        }
        return .element(
            named: "figure",
            nodes: [
                .div(
                    .class("scroll"),
                    .table(
                        .class("confusion"), .attribute(named: "aria-label", value: SVG.escape(label)),
                        .thead(
                            .tr(
                                .th(.text("expected ↓ / answer →")),
                                .group(answers.map { .th(.class("num"), .text($0.isEmpty ? "none" : $0)) }))),
                        .tbody(.group(body)))),
                .element(
                    named: "figcaption",
                    nodes: [.text("\(c.requirement) · \(c.metric)\(suffix): \(right) of \(c.total) items as expected")]),
            ])
    }

    /// The empirical CDF of a series' absolute errors, with its median and 95th percentile marked.
    func errorDistribution(_ e: ItemDigest.Errors, unit: String, _ suffix: String) -> Body {
        let v = e.values
        // Type 7, as every quantile of the page.
        func quantile(_ p: Double) -> Double {
            let h = p * Double(v.count - 1)
            let i = Int(h.rounded(.down))
            return i + 1 < v.count ? v[i] + (h - Double(i)) * (v[i + 1] - v[i]) : v[i]
        }
        let format: Charts.Format = { ReportFormat.value($0, unit: unit, digits: $1) }
        let p50 = quantile(0.5)
        let p95 = quantile(0.95)
        let label =
            "error distribution of \(e.requirement) \(e.metric)\(suffix): \(v.count) items, median "
            + "\(format(p50, 3)), 95th percentile \(format(p95, 3)), largest \(format(v.last ?? 0, 3))"
        let chart = Charts.cdf(
            title: label, values: v, xLabel: "absolute error" + (unit.isEmpty || unit == "ratio" ? "" : " (\(unit))"),
            markers: [(p50, "median " + format(p50, 3)), (p95, "p95 " + format(p95, 3))], format: format)
        var caption = "\(e.requirement) · \(e.metric)\(suffix): absolute error of "
        caption +=
            e.total > v.count ? "the first \(v.count) of \(e.total) items" : "\(v.count) item\(v.count == 1 ? "" : "s")"
        return figure(chart, caption: caption)
    }
}
