import Foundation
import MetricReports
import Plot

extension HTMLReport {
    /// Commits a history chart and its table show at most: the latest ones.
    static let maximumHistoryCommits = 60

    /// The history of a scenario's runs from two or more tool commits (`RunHistory.of`): per metric a
    /// chart of its value at each commit with its 95 % interval and threshold, then a table of every
    /// metric at every commit (empty without a history).
    func historySection(_ name: String, _ history: RunHistory?) -> Body {
        guard var history else { return .empty }
        let cut = max(0, history.commits.count - Self.maximumHistoryCommits)
        if cut > 0 {
            history.commits.removeFirst(cut)
            for i in history.series.indices {
                history.series[i].points = history.series[i].points.filter { $0.commit >= cut }.map {
                    var p = $0
                    p.commit -= cut
                    return p
                }
            }
        }
        let several = Set(history.series.map(\.caseLabel)).count > 1
        let (accuracy, latency) = history.drawn()
        var notes = [
            "\(history.commits.count) commits, oldest first (by when each was first run); a commit run "
                + "several times shows its latest run. Bars: 95 % intervals; dashed line: the threshold."
        ]
        if cut > 0 { notes.append("The \(cut) oldest commits are not shown.") }
        let flat = history.series.filter { $0.kind != .latency && $0.kind != .accuracy && !$0.varies }.count
        if flat > 0 {
            notes.append(
                "\(flat) count or rate metric\(flat == 1 ? " is" : "s are") the same at every commit and not drawn "
                    + "(see the table).")
        }
        if history.withoutCommit > 0 {
            notes.append("\(history.withoutCommit) run(s) without a recorded tool commit are left out.")
        }
        let anchor = "h-" + ReportFormat.anchor(name)
        return .section(
            .id(anchor), .class("history"),
            .h3(.text("History: \(name) over commits")),
            .p(.class("muted"), .text(notes.joined(separator: " "))),
            .if(
                !accuracy.isEmpty,
                .div(.class("figures"), .group(accuracy.map { historyFigure($0, history, several: several) }))),
            .if(
                !latency.isEmpty,
                .group(
                    .h4(.text("Latency over commits")),
                    .p(
                        .class("muted"),
                        .text(
                            "Wall-clock time: it moves with the machine and its load, so compare commits run on one "
                                + "machine (these runs ran on \(history.machines) machine"
                                + "\(history.machines == 1 ? "" : "s"))."
                        )),
                    .div(.class("figures"), .group(latency.map { historyFigure($0, history, several: several) })))),
            historyTable(history, several: several))
    }

    /// One metric's chart over the commits, with a caption giving its first and latest values.
    func historyFigure(_ s: RunHistory.Series, _ h: RunHistory, several: Bool) -> Body {
        let unit = s.unit
        let what = (several ? s.caseLabel + " " : "") + "\(s.requirement) \(s.metric)"
        let shown = s.points.filter { $0.status != .notMeasured && $0.value.isFinite }
        let points = shown.map { p in
            HistoryPoint(
                index: p.commit, value: p.value, low: p.low, high: p.high, failed: p.status == .fail,
                tip: "\(h.commits[p.commit].short): " + historyValue(p, unit: unit))
        }
        let ends = [shown.first, shown.count > 1 ? shown.last : nil].compactMap { $0 }.map {
            "\(h.commits[$0.commit].short) \(historyValue($0, unit: unit))"
        }
        let threshold = ReportFormat.threshold(s.comparator.rawValue, s.threshold, unit: unit)
        let label =
            "history of \(what) over \(h.commits.count) commits: " + ends.joined(separator: " … ")
            + (threshold.isEmpty ? "" : ", threshold \(threshold)")
        let chart = Charts.historyChart(
            title: label, commits: h.commits.map(\.short), yLabel: "\(s.metric) (\(unit))", points: points,
            threshold: s.threshold, thresholdLabel: "threshold " + threshold,
            format: { ReportFormat.value($0, unit: unit, digits: $1) })
        return figure(chart, caption: "\(what) · " + ends.joined(separator: " → "))
    }

    /// A point's value with its interval and its status when it failed.
    func historyValue(_ p: RunHistory.Point, unit: String) -> String {
        var text = ReportFormat.value(p.value, unit: unit)
        if let low = p.low, let high = p.high {
            text += " [\(ReportFormat.value(low, unit: unit)), \(ReportFormat.value(high, unit: unit))]"
        }
        return text + (p.status == .fail ? " FAIL" : p.status == .notMeasured ? " not measured" : "")
    }

    /// Every metric at every commit: the table the charts stand for (and what a screen reader reads).
    func historyTable(_ h: RunHistory, several: Bool) -> Body {
        let rows: [Node<HTML.TableContext>] = h.series.prefix(Self.maximumTableRows).map { s in
            var cells = [String](repeating: "—", count: h.commits.count)
            for p in s.points { cells[p.commit] = historyValue(p, unit: s.unit) }
            return .tr(
                .if(several, .td(.text(s.caseLabel))), .td(.class("req"), requirementLink(s.requirement)),
                .td(.class("metric"), metricName(s.metric)),
                .group(cells.map { .td(.class("num"), .text($0)) }))
        }
        let heads: [Node<HTML.TableRowContext>] = h.commits.map { c in
            .th(
                .class("num"), .text(c.short),
                .attribute(
                    named: "title",
                    value: SVG.escape(
                        ([c.commit] + [c.time, c.runID].compactMap { $0 } + (c.runs > 1 ? ["\(c.runs) runs"] : []))
                            .joined(separator: " · "))))
        }
        return .element(
            named: "details",
            nodes: [
                .element(named: "summary", nodes: [.text("Every metric at every commit (table)")]),
                .div(
                    .class("scroll"),
                    .table(
                        .class("history-table"),
                        .thead(.tr(.if(several, .th("Case")), .th("Requirement"), .th("Metric"), .group(heads))),
                        .tbody(.group(rows)))),
                moreRowsNote(shown: rows.count, total: h.series.count),
            ])
    }
}
