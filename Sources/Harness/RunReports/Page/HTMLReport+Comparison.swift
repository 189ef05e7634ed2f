import FieldtestData
import Foundation
import MetricReports
import Plot
import ScenarioEngine

extension HTMLReport {
    /// Forest plots drawn at most per scenario; the CSV holds every metric.
    static let maximumForestPlots = 60

    /// `compare`'s differences as forest plots, one per metric: each system's difference from the
    /// reference with its 95 % interval around a zero line (empty without `comparison`).
    func forestPlots(_ rs: [ReportRun]) -> Body {
        guard let comparison, let reference = comparison.systems.first else { return .empty }
        let names = Set(rs.map(\.scenario))
        var order: [String] = []
        var groups: [String: [ComparedRow]] = [:]
        for r in comparison.rows where r.verdict != .reference && r.delta != nil {
            guard names.contains(String(r.scenario.prefix { $0 != "[" })) else { continue }
            guard r.deltaCI != nil || r.pValue != nil else { continue }
            let k = "\(r.scenario)|\(r.requirement)|\(r.metric)"
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(r)
        }
        guard !order.isEmpty else { return .empty }
        let severalCases = Set(order.map { groups[$0]![0].scenario }).count > 1
        let figures: [Body] = order.prefix(Self.maximumForestPlots).map { k in
            let g = groups[k]!
            let head = g[0]
            let unit = head.unit
            let what = (severalCases ? head.scenario + " " : "") + "\(head.requirement) \(head.metric)"
            let lines = g.map { r in
                ForestLine(
                    label: r.system, delta: r.delta!, low: r.deltaCI?.low, high: r.deltaCI?.high,
                    cls: r.verdict == .better ? "better" : r.verdict == .worse ? "worse" : "same",
                    tip: "\(r.system) − \(reference): " + forestText(r))
            }
            let chart = Charts.forestPlot(
                title: "forest plot of \(what): each system minus \(reference), with its 95 % interval",
                xLabel: "difference from \(reference) (\(unit))", lines: lines,
                format: { ReportFormat.value($0, unit: unit, digits: $1) })
            return figure(
                chart, caption: "\(what) · " + g.map { "\($0.system): \(forestText($0))" }.joined(separator: "; "))
        }
        return .group(
            .h3(.text("Differences from \(reference) (95 % intervals, paired by item where items exist)")),
            .div(.class("figures"), .group(figures)),
            .if(
                order.count > figures.count,
                .p(
                    .class("muted"),
                    .text("\(order.count - figures.count) more metrics not drawn; the CSV holds them all."))))
    }

    /// A difference in words: Δ, its interval, p and the verdict.
    func forestText(_ r: ComparedRow) -> String {
        var text = "Δ " + ReportFormat.value(r.delta ?? 0, unit: r.unit)
        if let ci = r.deltaCI {
            text += " [\(ReportFormat.value(ci.low, unit: r.unit)), \(ReportFormat.value(ci.high, unit: r.unit))]"
        }
        if let p = r.pValue { text += ", p = \(ValueText.significant(p, digits: 2))" }
        return text + ", " + r.verdict.rawValue.replacingOccurrences(of: "_", with: " ")
    }

    /// A sweep's figures across its seeds (`SeedSummary`): per metric, the mean over the seeds with
    /// its Student-t 95 % interval and the standard deviation (empty unless it sweeps several seeds).
    func seedTable(_ rs: [ReportRun]) -> Body {
        let summary = rs.count == 1 ? SeedSummary.summarise(rs[0].rows) : []
        guard !summary.isEmpty else { return .empty }
        let body: [Node<HTML.TableContext>] = summary.prefix(Self.maximumTableRows).map { s in
            .tr(
                .td(.class("req"), requirementLink(s.requirement)), .td(.class("metric"), metricName(s.metric)),
                .td(.text(s.scenario)),
                .td(.class("num value"), .text(ReportFormat.value(s.mean, unit: s.unit))),
                .td(
                    .class("num thr"),
                    .text(
                        s.ci.map {
                            "\(ReportFormat.value($0.low, unit: s.unit)) – \(ReportFormat.value($0.high, unit: s.unit))"
                        }
                            ?? "—")),
                .td(.class("num extra"), .text(s.sd.map { "sd " + ReportFormat.value($0, unit: s.unit) } ?? "")),
                .td(.class("num samples"), .text(String(s.seeds))))
        }
        return .group(
            .h3(.text("Across seeds: mean with its 95 % t-interval")),
            .div(
                .class("scroll"),
                .table(
                    .class("requirements cards"),
                    .thead(
                        .tr(
                            .th("Requirement"), .th("Metric"), .th("Case"), .th(.class("num"), .text("Mean")),
                            .th(.class("num"), .text("95 % interval")), .th(.class("num"), .text("Std. dev.")),
                            .th(.class("num"), .text("Seeds")))),
                    .tbody(.group(body)))),
            moreRowsNote(shown: body.count, total: summary.count))
    }
}
