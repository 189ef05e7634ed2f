import Foundation
import MetricReports
import Plot
import ScenarioEngine

/// The failures-first list and the regression marks: every failing, regressed and not-measured row,
/// each linking to its row in its scenario's table.
extension HTMLReport {
    /// Entries the failures list shows at most; the rest are counted under it.
    public static let maximumFailureEntries = 500

    /// One row the failures list names.
    struct FailureEntry {
        var scenario: String
        var run: ReportRun
        var row: MetricRow
        var regression: BaselineCheckCSV.Row?
        /// The id of the row in its scenario's table (nil when the table does not show it).
        var anchor: String?
    }

    /// The key of `row` in its scenario's table, which shows one row per key: a case, requirement and
    /// metric side by side; a requirement and metric in a sweep; a row of metrics.csv otherwise.
    static func tableKey(_ row: MetricRow, runs: Int, cases: Int) -> String {
        if runs > 1 { return "\(row.scenario)|\(row.requirement)|\(row.metric)" }
        if cases > 1 { return "\(row.requirement)|\(row.metric)" }
        return "\(row.scenario)|\(row.seed)|\(row.requirement)|\(row.metric)"
    }

    /// The cases of a scenario's runs, counted as its section does (the first run's).
    static func caseCount(_ rs: [ReportRun]) -> Int { Set(rs[0].rows.map(\.scenario)).count }

    /// The stable `id` of the table row with `key` in `scenario`'s section: readable, with a hash of the
    /// whole key so keys that differ only in punctuation stay distinct.
    static func rowID(scenario: String, key: String) -> String {
        let parts = key.split(separator: "|", omittingEmptySubsequences: false).suffix(2).joined(separator: "-")
        var hash: UInt32 = 2_166_136_261
        for byte in (scenario + "\u{0}" + key).utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return "row-" + ReportFormat.anchor(scenario) + "-" + ReportFormat.anchor(parts) + "-"
            + String(hash, radix: 16)
    }

    /// The regressions of `r` by row identity (case, seed, requirement, metric).
    static func regressions(_ r: ReportRun) -> [String: BaselineCheckCSV.Row] {
        Dictionary(
            r.check.filter { $0.verdict == .regression }.map {
                ("\($0.scenario)|\($0.seed)|\($0.requirement)|\($0.metric)", $0)
            },
            uniquingKeysWith: { a, _ in a })
    }

    /// The regression of `row` in `regressions`, if it regressed.
    static func regression(of row: MetricRow, in regressions: [String: BaselineCheckCSV.Row]) -> BaselineCheckCSV.Row? {
        regressions.isEmpty ? nil : regressions["\(row.scenario)|\(row.seed)|\(row.requirement)|\(row.metric)"]
    }

    /// The keys a scenario's table shows (it shows at most `maximumTableRows`).
    static func shownKeys(_ rs: [ReportRun]) -> Set<String> {
        let cases = caseCount(rs)
        var seen = Set<String>()
        var order: [String] = []
        for r in rs {
            for row in r.rows {
                let k = tableKey(row, runs: rs.count, cases: cases)
                if rs.count == 1 && cases == 1 {
                    order.append(k)
                } else if seen.insert(k).inserted {
                    order.append(k)
                }
                if order.count >= maximumTableRows { return Set(order) }
            }
        }
        return Set(order)
    }

    /// Every failing, regressed and not-measured row, scenario by scenario in page order.
    /// Only the first `maximumFailureEntries` are kept (a million failing rows would otherwise cost
    /// hundreds of MB); `total` counts them all.
    var failureEntries: (entries: [FailureEntry], total: Int) {
        var entries: [FailureEntry] = []
        var total = 0
        for (name, rs) in scenarios {
            let shown = Self.shownKeys(rs)
            let cases = Self.caseCount(rs)
            for r in rs {
                let regressions = Self.regressions(r)
                for row in r.rows {
                    let regression = Self.regression(of: row, in: regressions)
                    guard row.status == .fail || row.status == .notMeasured || regression != nil else { continue }
                    total += 1
                    guard entries.count < Self.maximumFailureEntries else { continue }
                    let key = Self.tableKey(row, runs: rs.count, cases: cases)
                    entries.append(
                        FailureEntry(
                            scenario: name, run: r, row: row, regression: regression,
                            anchor: shown.contains(key) ? Self.rowID(scenario: name, key: key) : nil))
                }
            }
        }
        return (entries, total)
    }

    /// The failures list, right after the summary.
    func failures() -> Body {
        let (entries, count) = failureEntries
        guard !entries.isEmpty else {
            return .section(
                .id("failures"), .h2("What failed"),
                .p(.class("all-clear"), .text("No failing, regressed or not-measured rows.")))
        }
        let several = runs.count > scenarios.count
        let shown = entries
        let body: [Node<HTML.TableContext>] = shown.map { e in
            let row = e.row
            let metric: Body =
                e.anchor.map { .a(.href("#" + $0), .text(row.metric)) } ?? metricName(row.metric)
            return .tr(
                .class(e.regression != nil && row.status != .fail ? "regression" : row.status.rawValue),
                .td(.class("where"), .text(place(e, several: several))),
                .td(.class("req"), requirementLink(row.requirement)), .td(.class("metric"), metric),
                .td(
                    .class("num value"),
                    .text(row.status == .notMeasured ? "—" : ReportFormat.value(row.value, unit: row.unit))),
                .td(
                    .class("num thr"),
                    .text(ReportFormat.threshold(row.comparator.rawValue, row.threshold, unit: row.unit))),
                .td(
                    .class("num base"),
                    .if(
                        e.regression?.baseline != nil,
                        .group(
                            .span(.class("narrow-only"), .text("baseline ")),
                            .text(e.regression?.baseline.map { ReportFormat.value($0, unit: row.unit) } ?? "")))),
                .td(.class("status"), statusBadges(row, e.regression)))
        }
        return .section(
            .id("failures"), .h2("What failed"),
            .p(
                .text(
                    "\(count) row\(count == 1 ? "" : "s") failed, regressed or went unmeasured; each links to its row below."
                )),
            .div(
                .class("scroll"),
                .table(
                    .class("failures"),
                    .thead(
                        .tr(
                            .th("Scenario · case"), .th("Requirement"), .th("Metric"),
                            .th(.class("num"), .text("Value")), .th(.class("num"), .text("Threshold")),
                            .th(.class("num"), .text("Baseline")), .th("Status"))),
                    .tbody(.group(body)))),
            .if(
                count > shown.count,
                .p(
                    .class("muted"),
                    .text(
                        "\(count - shown.count) more not shown (the list shows at most \(Self.maximumFailureEntries)).")
                )))
    }

    /// The scenario of an entry, and its case when that is not the scenario itself (a sweep's), and
    /// its run's label when several runs of the scenario are shown.
    func place(_ e: FailureEntry, several: Bool) -> String {
        (e.row.scenario == e.scenario ? e.scenario : e.scenario + " · " + e.row.scenario)
            + (several ? " (\(e.run.label))" : "")
    }

    /// A row's status badge, REGRESSION in place of PASS when it regressed (beside FAIL when it also fails).
    func statusBadges(_ row: MetricRow, _ regression: BaselineCheckCSV.Row?) -> Body {
        guard regression != nil else { return badge(row.status.rawValue) }
        return row.status == .pass || row.status == .info
            ? badge("regression") : .group(badge(row.status.rawValue), .text(" "), badge("regression"))
    }

    /// "baseline X → now Y" of a regressed row.
    func regressionNote(_ c: BaselineCheckCSV.Row?) -> Body {
        guard let c else { return .empty }
        let b = c.baseline.map { ReportFormat.value($0, unit: c.unit) } ?? "—"
        let n = c.current.map { ReportFormat.value($0, unit: c.unit) } ?? "—"
        return .span(.class("note regressed"), .text(" baseline \(b) → now \(n)"))
    }
}
