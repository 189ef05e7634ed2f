import FieldtestData
import Foundation
import MetricReports
import Plot
import ScenarioEngine

/// A run report as one self-contained HTML page: inline CSS, inline SVG charts drawn here, no script
/// and nothing fetched. Built with Plot's typed HTML DSL, which escapes text (attribute values go
/// through `SVG.attribute` or are anchors made safe by `ReportFormat.anchor`).
///
/// The page holds a summary, then per scenario its requirement table (side-by-side columns when
/// several runs of the scenario are given, e.g. one per system under test), baseline deltas, sweep
/// plots, latency histograms and a map of the traces, and last the text of every requirement named.
public struct HTMLReport {
    /// Body nodes.
    typealias Body = Node<HTML.BodyContext>

    /// Rows a requirement table shows at most; the rest are counted under it. A page node costs a few
    /// KB, so a metrics file of a million distinct rows once took 6 GB to render; the counts in the
    /// summary still cover every row, and metrics.csv holds them all.
    public static let maximumTableRows = 2_000

    /// The note under a table that shows `shown` of `total` rows.
    func moreRowsNote(shown: Int, total: Int) -> Body {
        .if(
            total > shown,
            .p(
                .class("muted"),
                .text(
                    "\(total - shown) more rows not shown (a table shows at most \(Self.maximumTableRows)); "
                        + "metrics.csv holds them all.")))
    }

    /// The runs, in the order given.
    public var runs: [ReportRun]
    /// Requirement definitions by ID (their text, measure and threshold as the app states them).
    public var requirements: [String: RequirementDefinition]
    /// The page title.
    public var title: String
    /// `compare`'s statistics of the runs, one run per system: drawn as a forest plot of the differences.
    public var comparison: SystemComparison?

    /// A report of `runs`.
    public init(runs: [ReportRun], requirements: [String: RequirementDefinition], title: String = "Fieldtest report") {
        self.runs = runs
        self.requirements = requirements
        self.title = title
    }

    /// The scenarios in order of first appearance, each with its runs.
    var scenarios: [(name: String, runs: [ReportRun])] {
        var order: [String] = []
        var by: [String: [ReportRun]] = [:]
        for r in runs {
            if by[r.scenario] == nil { order.append(r.scenario) }
            by[r.scenario, default: []].append(r)
        }
        return order.map { ($0, by[$0]!) }
    }

    /// The page.
    public func render() -> String {
        let html = HTML(
            .lang(.english),
            .head(
                .encoding(.utf8), .title(title),
                .meta(.name("viewport"), .content("width=device-width, initial-scale=1")),
                .style(ReportStyle.css)),
            .body(
                .header(.h1(.text(title)), .p(.class("lead"), .text(headline))),
                .element(
                    named: "main",
                    nodes: [summary(), failures()] + scenarios.map { scenarioSection($0.name, $0.runs) } + [
                        requirementSection()
                    ]),
                .footer(
                    .p(
                        .text(
                            "Written by fieldtest\(runs.compactMap(\.toolVersion).first.map { " " + $0 } ?? "") from "
                                + "\(runs.count) run folder\(runs.count == 1 ? "" : "s"). The page needs no script and fetches nothing."
                        )))
            ))
        return html.render() + "\n"
    }

    // MARK: Summary

    /// Totals over every run.
    var totals: (rows: Int, passed: Int, failed: Int, notMeasured: Int, info: Int, regressions: Int) {
        var t = (rows: 0, passed: 0, failed: 0, notMeasured: 0, info: 0, regressions: 0)
        for r in runs {
            t.rows += r.rows.count
            t.passed += r.rows.filter { $0.status == .pass }.count
            t.failed += r.rows.filter { $0.status == .fail }.count
            t.notMeasured += r.rows.filter { $0.status == .notMeasured }.count
            t.info += r.rows.filter { $0.status == .info }.count
            t.regressions += r.check.filter { $0.verdict == .regression }.count
        }
        return t
    }

    /// One sentence: does everything pass?
    var headline: String {
        let t = totals
        let s = scenarios.count
        let what = "\(s) scenario\(s == 1 ? "" : "s"), \(t.rows) rows"
        if t.failed == 0 && t.regressions == 0 && t.notMeasured == 0 {
            return "\(what): every checked row passes, no regression."
        }
        return
            "\(what): \(t.failed) failed row\(t.failed == 1 ? "" : "s"), \(t.notMeasured) not measured (no sample), "
            + "\(t.regressions) regression\(t.regressions == 1 ? "" : "s")."
    }

    func summary() -> Body {
        let t = totals
        let durations = runs.compactMap(\.durationSeconds)
        let duration =
            durations.count == runs.count && !durations.isEmpty
            ? ReportFormat.duration(durations.reduce(0, +)) : "n/a"
        let m = runs.first?.machine ?? [:]
        let machine = [
            m["cpu"], m["cores"].map { "\($0) cores" }, m["os"], m["host"].map { "host \($0)" },
        ].compactMap { $0 }.joined(separator: ", ")
        let tiles: [(String, String, String)] = [
            ("Scenarios", String(scenarios.count), ""), ("Passed", String(t.passed), "pass"),
            ("Failed", String(t.failed), t.failed > 0 ? "fail" : ""),
            ("Not measured", String(t.notMeasured), t.notMeasured > 0 ? "fail" : ""), ("Info", String(t.info), "info"),
            ("Regressions", String(t.regressions), t.regressions > 0 ? "fail" : ""), ("Duration", duration, ""),
        ]
        let overview: [Node<HTML.TableContext>] = scenarios.map { name, rs in
            let rows = rs.flatMap(\.rows)
            let failed = rows.filter { $0.status == .fail }.count
            let unmeasured = rows.filter { $0.status == .notMeasured }.count
            let regressions = rs.flatMap(\.check).filter { $0.verdict == .regression }.count
            let cases = Set(rows.map(\.scenario)).count
            return .tr(
                .td(.a(.href("#s-" + ReportFormat.anchor(name)), .text(name))),
                .td(.class("num wide"), .text(String(cases))),
                .td(.class("num"), .text(String(rows.filter { $0.status == .pass }.count))),
                .td(.class("num"), .text(String(failed))),
                .td(.class("num wide"), .text(String(unmeasured))),
                .td(.class("num wide"), .text(String(rows.filter { $0.status == .info }.count))),
                .td(.class("num"), .text(String(regressions))),
                .td(
                    badge(
                        failed > 0
                            ? "fail" : regressions > 0 ? "regression" : unmeasured > 0 ? "not_measured" : "pass")))
        }
        return .section(
            .id("summary"), .h2("Summary"),
            .div(
                .class("tiles"),
                .group(
                    tiles.map { label, value, cls in
                        .div(.class("tile " + cls), .span(.class("tile-value"), .text(value)), .span(.text(label)))
                    })),
            .p(.class("muted"), .text("Machine: " + (machine.isEmpty ? "not recorded" : machine))),
            .div(
                .class("scroll"),
                .table(
                    .thead(
                        .tr(
                            .th("Scenario"), .th(.class("num wide"), .text("Cases")),
                            .th(.class("num"), .text("Passed")), .th(.class("num"), .text("Failed")),
                            .th(.class("num wide"), .text("Not measured")), .th(.class("num wide"), .text("Info")),
                            .th(.class("num"), .text("Regressions")), .th("Status"))),
                    .tbody(.group(overview)))))
    }

    /// A pass/fail/info badge.
    func badge(_ status: String) -> Body {
        .span(
            .class("badge " + ReportFormat.anchor(status)),
            .text(status.replacingOccurrences(of: "_", with: " ").uppercased()))
    }

    /// A metric name that may break after its underscores on a narrow screen (rather than mid-word).
    func metricName(_ name: String) -> Body {
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        return .group(
            parts.enumerated().map { i, part in
                i == parts.count - 1 ? .text(String(part)) : .group(.text(part + "_"), .selfClosedElement(named: "wbr"))
            })
    }

    /// A link to a requirement's text.
    func requirementLink(_ id: String) -> Body {
        .a(
            .href("#req-" + ReportFormat.anchor(id)), .text(id),
            .attribute(named: "title", value: SVG.escape(requirements[id]?.summary ?? "")))
    }

    // MARK: Scenarios

    func scenarioSection(_ name: String, _ rs: [ReportRun]) -> Body {
        let rows = rs.flatMap(\.rows)
        let regressed = rs.flatMap(\.check).filter { $0.verdict == .regression }.count
        let verdict =
            rows.contains { $0.status == .fail }
            ? "fail"
            : regressed > 0 ? "regression" : rows.contains { $0.status == .notMeasured } ? "not_measured" : "pass"
        let first = rs[0]
        let cases = Set(first.rows.map(\.scenario)).count
        var facts = ["\(cases) case\(cases == 1 ? "" : "s")"]
        if let s = first.rows.first?.seed, first.sweep?.seedList.count ?? 1 <= 1 { facts.append("seed \(s)") }
        if let p = first.sweep?.parameters, !p.isEmpty {
            facts.append(
                "swept: " + p.map { "\($0.name) ∈ {\($0.values.joined(separator: ", "))}" }.joined(separator: "; "))
            if let seeds = first.sweep?.seedList, seeds.count > 1 { facts.append("\(seeds.count) seeds") }
        }
        if let started = first.startedAt { facts.append("started \(started)") }
        if let d = first.durationSeconds { facts.append("took \(ReportFormat.duration(d))") }
        var nodes: [Body] = [
            .p(.class("muted"), .text(facts.joined(separator: " · "))),
            provenance(rs),
        ]
        // Runs of several commits: the history leads, and the scenario opens to show it.
        let history = rs.count > 1 ? RunHistory.of(rs) : nil
        if rs.count > 1 {
            nodes.append(historySection(name, history))
            nodes.append(sideBySide(rs))
            nodes.append(forestPlots(rs))
        } else if cases > 1 {
            nodes.append(sweepTable(first))
        } else {
            nodes.append(requirementTable(first))
        }
        if cases > 1 { nodes.append(seedTable(rs)) }
        if cases > 1 { nodes.append(baselineChanges(rs)) }
        if cases > 1 { nodes.append(sweepPlots(rs)) }
        nodes.append(latencyFigures(rs))
        nodes.append(accuracyFigures(rs))
        nodes.append(mapFigure(rs))
        nodes.append(eventsDigest(rs))
        let counts = [
            "\(cases) case\(cases == 1 ? "" : "s")", "\(rows.filter { $0.status == .pass }.count) passed",
            "\(rows.filter { $0.status == .fail }.count) failed",
            "\(rows.filter { $0.status == .notMeasured }.count) not measured", "\(regressed) regressed",
            "\(rows.filter { $0.status == .info }.count) info",
        ]
        // A scenario with anything to look at opens; one that passes folds to its summary line.
        let fold: Body = .element(
            named: "details",
            nodes: [
                .class("fold"), .if(verdict != "pass" || history != nil, .attribute(named: "open")),
                .element(
                    named: "summary",
                    nodes: [
                        .h2(.text(name + " "), badge(verdict)),
                        .span(.class("fold-counts"), .text(counts.joined(separator: " · "))),
                    ]),
            ] + nodes)
        return .section(.id("s-" + ReportFormat.anchor(name)), .class("scenario"), fold)
    }

    /// The delta of a row against the baseline, coloured by direction (better, worse, unchanged).
    func delta(_ c: BaselineCheckCSV.Row?) -> Body {
        guard let c else { return .text("") }
        let cls: String
        switch c.verdict {
        case .regression: cls = "worse"
        case .improvement: cls = "better"
        case .added, .removed: cls = "moved"
        case .unchanged: cls = "same"
        }
        let text: String
        if let d = c.delta {
            text = d == 0 ? "=" : (d > 0 ? "▲ +" : "▼ −") + ReportFormat.value(abs(d), unit: c.unit)
        } else {
            text = c.verdict.rawValue
        }
        return .span(.class("delta " + cls), .text(text), .attribute(named: "title", value: SVG.escape(c.reason)))
    }

    /// What a row whose threshold lies inside its 95 % interval means.
    static func marginText(_ row: MetricRow) -> String {
        "\(row.status == .fail ? "fails" : "passes"), but within the 95 % interval of the threshold: collect more samples"
    }

    /// A row's 95 % interval: an error bar (interval, value, threshold) and the interval in figures.
    func intervalCell(_ row: MetricRow) -> Body {
        guard let ci = row.ci, row.status != .notMeasured else { return .empty }
        let range = "\(ReportFormat.value(ci.low, unit: row.unit)) – \(ReportFormat.value(ci.high, unit: row.unit))"
        var label = "\(row.metric): \(ReportFormat.value(row.value, unit: row.unit)), 95 % interval \(range)"
        if let t = row.threshold, row.isChecked {
            label += ", threshold \(ReportFormat.threshold(row.comparator.rawValue, t, unit: row.unit))"
        }
        return .group(
            Charts.errorBar(
                value: row.value, low: ci.low, high: ci.high, threshold: row.isChecked ? row.threshold : nil,
                label: label),
            .span(.class("ci-text"), .text("95 % CI " + range)))
    }

    /// Requirement table of a one-case run.
    func requirementTable(_ r: ReportRun) -> Body {
        let checks = Dictionary(r.check.map { ("\($0.requirement)|\($0.metric)", $0) }, uniquingKeysWith: { a, _ in a })
        let hasCheck = !r.check.isEmpty
        let regressions = Self.regressions(r)
        var ids = Set<String>()
        let body: [Node<HTML.TableContext>] = r.rows.prefix(Self.maximumTableRows).map { row in
            let regression = Self.regression(of: row, in: regressions)
            let id = Self.rowID(scenario: r.scenario, key: Self.tableKey(row, runs: 1, cases: 1))
            return .tr(
                .if(ids.insert(id).inserted, .id(id)),
                .class(regression != nil && row.status != .fail ? "regression" : row.status.rawValue),
                .td(.class("req"), requirementLink(row.requirement)),
                .td(.class("metric"), metricName(row.metric)),
                .td(
                    .class("num value"),
                    .text(row.status == .notMeasured ? "—" : ReportFormat.value(row.value, unit: row.unit)),
                    intervalCell(row)),
                .td(
                    .class("num thr"),
                    .text(ReportFormat.threshold(row.comparator.rawValue, row.threshold, unit: row.unit))),
                .td(.class("num samples"), .text(String(row.samples))),
                .td(
                    .class("status"), statusBadges(row, regression), regressionNote(regression),
                    .if(!row.note.isEmpty, .span(.class("note"), .text(" " + row.note))),
                    .if(
                        row.margin == .withinInterval,
                        .span(.class("note margin"), .text(" " + Self.marginText(row))))),
                .if(hasCheck, .td(.class("num extra"), delta(checks["\(row.requirement)|\(row.metric)"]))))
        }
        return .group(
            .div(
                .class("scroll"),
                .table(
                    .class("requirements cards"),
                    .thead(
                        .tr(
                            .th("Requirement"), .th("Metric"), .th(.class("num"), .text("Value")),
                            .th(.class("num"), .text("Threshold")), .th(.class("num"), .text("Samples")),
                            .th("Status"), .if(hasCheck, .th(.class("num"), .text("vs baseline"))))),
                    .tbody(.group(body)))),
            moreRowsNote(shown: body.count, total: r.rows.count))
    }

    /// Requirement table of a sweep: per metric, how many cases pass and the range of values.
    func sweepTable(_ r: ReportRun) -> Body {
        let regressions = Self.regressions(r)
        var order: [String] = []
        var groups: [String: [MetricRow]] = [:]
        for row in r.rows {
            let k = row.requirement + "|" + row.metric
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(row)
        }
        let body: [Node<HTML.TableContext>] = order.prefix(Self.maximumTableRows).map { k in
            let g = groups[k]!
            let head = g[0]
            let fails = g.filter { $0.status == .fail }.count
            let passes = g.filter { $0.status == .pass }.count
            let unmeasured = g.filter { $0.status == .notMeasured }.count
            let finite = g.map(\.value).filter(\.isFinite)
            let lo = finite.min().map { ReportFormat.value($0, unit: head.unit) } ?? "n/a"
            let hi = finite.max().map { ReportFormat.value($0, unit: head.unit) } ?? "n/a"
            let status =
                fails > 0 ? "fail" : unmeasured > 0 ? "not_measured" : (passes > 0 ? "pass" : "info")
            let regressed = g.compactMap { Self.regression(of: $0, in: regressions) }
            return .tr(
                .id(Self.rowID(scenario: r.scenario, key: k)),
                .class(!regressed.isEmpty && status != "fail" ? "regression" : status),
                .td(.class("req"), requirementLink(head.requirement)),
                .td(.class("metric"), metricName(head.metric)),
                .td(.class("num value"), .text(lo == hi ? lo : "\(lo) – \(hi)")),
                .td(
                    .class("num thr"),
                    .text(ReportFormat.threshold(head.comparator.rawValue, head.threshold, unit: head.unit))),
                .td(.class("num extra"), .text(status == "info" ? "" : "\(passes)/\(g.count) cases pass")),
                .td(
                    .class("status"),
                    regressed.isEmpty || status == "fail" ? badge(status) : .empty,
                    .if(!regressed.isEmpty, .group(.text(status == "fail" ? " " : ""), badge("regression"))),
                    sweepRegressionNote(regressed, cases: g.count)))
        }
        return .group(
            .div(
                .class("scroll"),
                .table(
                    .class("requirements cards"),
                    .thead(
                        .tr(
                            .th("Requirement"), .th("Metric"), .th(.class("num"), .text("Values (min – max)")),
                            .th(.class("num"), .text("Threshold")), .th(.class("num"), .text("Cases passing")),
                            .th("Status"))),
                    .tbody(.group(body)))),
            moreRowsNote(shown: body.count, total: order.count))
    }

    /// "k of n cases regressed: baseline a – b → now c – d" of a sweep's metric.
    func sweepRegressionNote(_ regressed: [BaselineCheckCSV.Row], cases: Int) -> Body {
        guard let first = regressed.first else { return .empty }
        func range(_ values: [Double]) -> String {
            guard let lo = values.min(), let hi = values.max() else { return "—" }
            let a = ReportFormat.value(lo, unit: first.unit)
            let b = ReportFormat.value(hi, unit: first.unit)
            return a == b ? a : "\(a) – \(b)"
        }
        return .span(
            .class("note regressed"),
            .text(
                " \(regressed.count) of \(cases) cases regressed: baseline \(range(regressed.compactMap(\.baseline))) → now "
                    + range(regressed.compactMap(\.current))))
    }

    /// Several runs of one scenario (e.g. one per system under test): one value column each.
    func sideBySide(_ rs: [ReportRun]) -> Body {
        var order: [String] = []
        var cells: [String: [Int: MetricRow]] = [:]
        for (i, r) in rs.enumerated() {
            for row in r.rows {
                let k = "\(row.scenario)|\(row.requirement)|\(row.metric)"
                if cells[k] == nil { order.append(k) }
                cells[k, default: [:]][i] = row
            }
        }
        let several = Set(rs.flatMap { $0.rows.map(\.scenario) }).count > 1
        let regressions = rs.map { Self.regressions($0) }
        let scenario = rs[0].scenario
        let body: [Node<HTML.TableContext>] = order.prefix(Self.maximumTableRows).map { k in
            let byRun = cells[k]!
            let head = byRun.values.first!
            return .tr(
                .id(Self.rowID(scenario: scenario, key: k)),
                .td(requirementLink(head.requirement)), .td(.class("metric"), .text(head.metric)),
                .if(several, .td(.class("metric"), .text(head.scenario))),
                .td(
                    .class("num"),
                    .text(ReportFormat.threshold(head.comparator.rawValue, head.threshold, unit: head.unit))),
                .group(
                    rs.indices.map { i in
                        guard let row = byRun[i] else { return .td(.class("num muted"), .text("—")) }
                        let regression = Self.regression(of: row, in: regressions[i])
                        return .td(
                            .class(
                                "num " + (regression != nil && row.status != .fail ? "regression" : row.status.rawValue)
                            ),
                            .text(ReportFormat.value(row.value, unit: row.unit) + " "), statusBadges(row, regression),
                            regressionNote(regression))
                    }))
        }
        return .group(
            .div(
                .class("scroll"),
                .table(
                    .class("requirements side-by-side"),
                    .thead(
                        .tr(
                            .th("Requirement"), .th("Metric"), .if(several, .th("Case")),
                            .th(.class("num"), .text("Threshold")),
                            .group(rs.map { .th(.class("num"), .text($0.label)) }))),
                    .tbody(.group(body)))),
            moreRowsNote(shown: body.count, total: order.count))
    }

    /// The rows that moved against the baseline (sweeps; one-case runs show it in their table).
    func baselineChanges(_ rs: [ReportRun]) -> Body {
        let moved = rs.flatMap(\.check).filter { $0.verdict == .regression || $0.verdict == .improvement }
        guard rs.contains(where: { !$0.check.isEmpty }) else { return .empty }
        guard !moved.isEmpty else {
            return .p(.class("muted"), .text("Against the baseline: no regression, no improvement."))
        }
        let shown = moved.prefix(40)
        let body: [Node<HTML.TableContext>] = shown.map { c in
            .tr(
                .td(.class("metric"), .text(c.scenario)), .td(requirementLink(c.requirement)),
                .td(.class("metric"), .text(c.metric)),
                .td(.class("num"), .text(c.baseline.map { ReportFormat.value($0, unit: c.unit) } ?? "—")),
                .td(.class("num"), .text(c.current.map { ReportFormat.value($0, unit: c.unit) } ?? "—")),
                .td(.class("num"), delta(c)))
        }
        return .group(
            .h3("Against the baseline"),
            .div(
                .class("scroll"),
                .table(
                    .thead(
                        .tr(
                            .th("Case"), .th("Requirement"), .th("Metric"), .th(.class("num"), .text("Baseline")),
                            .th(.class("num"), .text("This run")), .th(.class("num"), .text("Change")))),
                    .tbody(.group(body)))),
            .if(moved.count > shown.count, .p(.class("muted"), .text("\(moved.count - shown.count) more not shown."))))
    }

    // MARK: Figures

    /// A figure: a chart, its caption, and an optional legend of series classes.
    func figure(_ chart: SVG.Node, caption: String, legend: [(cls: String, text: String)] = []) -> Body {
        .element(
            named: "figure",
            nodes: [
                chart,
                legend.isEmpty
                    ? .empty
                    : .ul(
                        .class("legend"),
                        .group(legend.map { .li(.span(.class("swatch " + $0.cls)), .text($0.text)) })),
                .element(named: "figcaption", nodes: [.text(caption)]),
            ])
    }

    /// Each metric of a sweep against its first swept parameter; with several runs of the sweep (e.g.
    /// one per system under test) each plot holds every run's lines, named by run.
    func sweepPlots(_ rs: [ReportRun]) -> Body {
        var plots: [SweepPlot] = []
        for r in rs {
            guard let sweep = r.sweep else { continue }
            for var p in SweepPlot.plots(rows: r.rows, sweep: sweep) {
                if rs.count > 1 {
                    p.series = p.series.map { ChartSeries(name: "\(r.label): \($0.name)", points: $0.points) }
                }
                if let i = plots.firstIndex(where: { $0.requirement == p.requirement && $0.metric == p.metric }) {
                    plots[i].series += p.series
                    plots[i].varies = plots[i].varies || p.varies
                } else {
                    plots.append(p)
                }
            }
        }
        guard !plots.isEmpty else { return .empty }
        let figures: [Body] = plots.map { p in
            let unit = p.unit
            let chart = Charts.lineChart(
                title: "\(p.requirement) \(p.metric) against \(p.parameter)", xLabel: p.parameter,
                categories: p.categories, yLabel: "\(p.metric) (\(unit))", series: p.series, threshold: p.threshold,
                thresholdLabel: "threshold " + ReportFormat.threshold(p.comparator.rawValue, p.threshold, unit: unit),
                format: { ReportFormat.value($0, unit: unit, digits: $1) })
            return figure(
                chart, caption: "\(p.requirement) · \(p.metric)" + (p.varies ? "" : " (the same in every case)"),
                legend: p.series.enumerated().map { ("s\($0.offset % 8)", $0.element.name) })
        }
        return .group(
            .h3(.text("Sweep: each metric against \(plots[0].parameter)")),
            .div(.class("figures"), .group(figures)))
    }

    /// Latency histograms with the p95 threshold of the series' row: from `latency-histogram.csv` (every
    /// sample), else, for folders written before it, from the samples `latency.csv` kept. The p95 marker
    /// is the type-7 quantile of what is drawn (`Quantiles`' definition, as the rows').
    func latencyFigures(_ rs: [ReportRun]) -> Body {
        var figures: [Body] = []
        for r in rs {
            let series = latencySeries(r)
            for s in series.prefix(8) {
                figures.append(latencyFigure(r, s, several: rs.count > 1))
            }
        }
        guard !figures.isEmpty else { return .empty }
        return .group(.h3("Latency"), .div(.class("figures"), .group(figures)))
    }

    /// One latency series of a run: its values (seconds, ascending) with their counts, and whether
    /// they are the whole histogram or the samples `latency.csv` kept.
    struct LatencySeries {
        var requirement: String, metric: String
        var seconds: [Double], counts: [Int]
        var complete: Bool
        var cases: Int
    }

    /// The run's latency series, in order of first appearance.
    func latencySeries(_ r: ReportRun) -> [LatencySeries] {
        var order: [String] = []
        var byValue: [String: [Double: Int]] = [:]
        var cases: [String: Set<String>] = [:]
        let complete = !r.latencyHistogram.isEmpty
        let points: [(String, String, String, Double, Int)] =
            complete
            ? r.latencyHistogram.map { ($0.caseLabel, $0.requirement, $0.metric, $0.seconds, $0.count) }
            : r.latency.map { ($0.caseLabel, $0.requirement, $0.metric, $0.seconds, 1) }
        for (label, requirement, metric, seconds, count) in points {
            let k = requirement + "|" + metric
            if byValue[k] == nil { order.append(k) }
            byValue[k, default: [:]][seconds, default: 0] += count
            cases[k, default: []].insert(label)
        }
        return order.map { k in
            let parts = k.split(separator: "|", maxSplits: 1).map(String.init)
            let sorted = byValue[k]!.sorted { $0.key < $1.key }
            return LatencySeries(
                requirement: parts[0], metric: parts[1], seconds: sorted.map(\.key), counts: sorted.map(\.value),
                complete: complete, cases: cases[k]!.count)
        }
    }

    /// The histogram figure of one latency series, its caption counting the calls drawn and run.
    func latencyFigure(_ r: ReportRun, _ s: LatencySeries, several: Bool) -> Body {
        let p95Rows = r.rows.filter { $0.requirement == s.requirement && $0.metric == s.metric + "_p95" }
        let scale = (s.seconds.last ?? 0) < 1 ? 1000.0 : 1.0
        let unit = scale == 1000 ? "ms" : "s"
        let drawn = s.counts.reduce(0, +)
        let ran = p95Rows.reduce(0) { $0 + $1.samples }
        let p95 = LatencyRecorder.quantile(s.seconds, weights: s.counts.map { UInt64($0) }, probability: 0.95)
        let threshold = p95Rows.first?.threshold
        let chart = Charts.histogram(
            title: "\(s.requirement) \(s.metric) latency histogram", values: s.seconds.map { $0 * scale },
            weights: s.counts, xLabel: "\(s.metric) (\(unit))", threshold: threshold.map { $0 * scale },
            thresholdLabel: threshold.map { "p95 ≤ " + ReportFormat.value($0, unit: "s") } ?? "",
            marker: p95.map { $0 * scale }, markerLabel: p95.map { "p95 " + ReportFormat.value($0, unit: "s") } ?? "",
            format: { ReportFormat.significant($0, $1) })
        var caption = "\(s.requirement) · \(s.metric): "
        if s.complete || ran <= drawn {
            caption += "\(drawn) call\(drawn == 1 ? "" : "s"), every one drawn"
        } else {
            caption += "\(drawn) of \(ran) calls drawn (latency.csv keeps a capped sample; the rows count all)"
        }
        caption +=
            (several ? " (\(r.label))" : "") + (s.cases > 1 ? ", all \(s.cases) cases" : "")
            + (p95Rows.count == 1 ? ", status " + p95Rows[0].status.rawValue : "")
        return figure(chart, caption: caption)
    }

    /// A map of the traces (the first case of each run: a sweep's cases share their campus).
    func mapFigure(_ rs: [ReportRun]) -> Body {
        var figures: [Body] = []
        for r in rs where !r.features.isEmpty {
            let firstCase = r.features.first { $0.texts["case"] != nil }?.texts["case"]
            let shown = r.features.filter { $0.texts["case"] == firstCase || $0.kind == "campus" }
            var caption = "Traces of \(firstCase ?? r.scenario): "
            caption += Charts.mapCounts(shown, dropped: firstCase.flatMap { r.droppedFeatures[$0] })
            if rs.count > 1 { caption += " (\(r.label))" }
            figures.append(
                figure(
                    Charts.map(title: "Map of \(r.scenario)", features: shown), caption: caption,
                    legend: Charts.mapLegend(for: shown)))
        }
        guard !figures.isEmpty else { return .empty }
        return .group(.h3("Map"), .div(.class("figures maps"), .group(figures)))
    }

    /// What `events.csv` holds, and its first failing events.
    func eventsDigest(_ rs: [ReportRun]) -> Body {
        let present = rs.filter(\.events.present)
        guard !present.isEmpty else { return .empty }
        var nodes: [Body] = [.h3("Events")]
        for r in present {
            let c = r.events.counts
            let total = c.values.reduce(0, +)
            nodes.append(
                .p(
                    .text(
                        "events.csv\(rs.count > 1 ? " (\(r.label))" : ""): \(total) rows — \(c["pass"] ?? 0) pass, "
                            + "\(c["fail"] ?? 0) fail, \(c["info"] ?? 0) info.")))
            if !r.events.failures.isEmpty {
                let body: [Node<HTML.TableContext>] = r.events.failures.map { f in
                    .tr(.group(f.enumerated().map { i, v in .td(.class(i == 0 || i == 4 ? "metric" : ""), .text(v)) }))
                }
                nodes.append(
                    .div(
                        .class("scroll"),
                        .table(
                            .thead(
                                .tr(
                                    .group(
                                        [
                                            "Case", "Time", "Device", "Requirement", "Metric", "Value", "Expected",
                                            "Unit",
                                        ]
                                        .map { .th(.text($0)) }))),
                            .tbody(.group(body)))))
            }
        }
        return .group(nodes)
    }

    // MARK: Requirements

    /// The text of every requirement the rows name, as the apps define it.
    func requirementSection() -> Body {
        var seen = Set<String>()
        let ids = runs.flatMap { $0.rows.map(\.requirement) }.filter { seen.insert($0).inserted }
        let entries: [Body] = ids.map { id in
            guard let d = requirements[id] else {
                return .div(
                    .class("req-text"), .id("req-" + ReportFormat.anchor(id)), .h3(.text(id)),
                    .p(.class("muted"), .text("Not a requirement of the bundled apps.")))
            }
            return .div(
                .class("req-text"), .id("req-" + ReportFormat.anchor(id)), .h3(.text("\(id) — \(d.summary)")),
                .dl(
                    .dt("Measured as"), .dd(.text(d.measuredAs)), .dt("Threshold"), .dd(.text(d.threshold)),
                    .dt("Source"), .dd(.text(d.source))))
        }
        return .section(.id("requirements"), .h2("Requirements"), .group(entries))
    }
}

extension HTMLReport {
    /// The page of the runs `inputs` name (run folders, folders of them, or `metrics.csv` files; see
    /// `ReportRun.locate`), with the text of `requirements`.
    public static func render(inputs: [String], requirements: [RequirementDefinition]) throws -> String {
        let runs = try ReportRun.locate(inputs).map { try ReportRun(metricsFile: $0) }
        let byID = Dictionary(requirements.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return HTMLReport(runs: runs, requirements: byID).render()
    }

    /// `fieldtest report` as one call: `render(inputs:requirements:)`, after refusing an `output` that
    /// names a file the report reads (any file inside the folders given counts).
    public static func render(inputs: [String], requirements: [RequirementDefinition], output: String) throws -> String
    {
        let read = inputs.flatMap { path in
            let url = URL(fileURLWithPath: path)
            let inside = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects
            // Beside a metrics file, its run.json and traces are read too.
            let beside = RunReport.fileNames.map { url.deletingLastPathComponent().appendingPathComponent($0) }
            return [url] + (inside?.compactMap { $0 as? URL } ?? beside)
        }
        try OutputPathCheck.refuseOverwritingInputs(read.map { .init(option: "", url: $0) }, output: output)
        return try render(inputs: inputs, requirements: requirements)
    }
}

extension HTMLReport {
    /// `fieldtest report`: the page of the runs `inputs` name, written to `output` (`-`: standard output).
    public struct Job: CommandJob {
        /// The `--help` description of the command.
        public static let discussion = """
            Give run folders (Results/runs/<scenario>/<run_id>, an --out DIR/<scenario>), folders holding them, \
            or metrics.csv files. Several runs of one scenario are shown side by side; runs of two or more tool \
            commits (run.json's tool_commit) add a History section drawing each metric over the commits, oldest \
            first, with its 95 % intervals. See docs/reports.md.
            """

        /// Run folders, folders of them, or metrics files.
        public var inputs: [String]
        /// The requirements whose text the page shows.
        public var requirements: [RequirementDefinition]
        /// The HTML file to write, `-` for standard output.
        public var output: String

        /// A job.
        public init(inputs: [String], requirements: [RequirementDefinition], output: String) {
            (self.inputs, self.requirements, self.output) = (inputs, requirements, output)
        }

        /// The inputs with every run file beside them, and the page.
        public var files: CommandFiles {
            var f = CommandFiles()
            f.runFiles(inputs, beside: RunReport.fileNames)
            f.output(output, option: "--output")
            return f
        }

        /// Writes the page.
        public func run() throws -> CommandJobOutcome {
            let html = try HTMLReport.render(inputs: inputs, requirements: requirements, output: output)
            try OutputText.write(html, to: output)
            return .success
        }
    }
}
