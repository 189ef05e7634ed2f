import MetricReports

extension CheckReport {
    /// The regression/improvement table (only regressions when `quiet`) and a closing count line;
    /// regression lines in red when `style` colours. With `seconds` (what `fieldtest check` took),
    /// the totals line of the checked rows follows; `countLine` false leaves out the count line.
    public func rendered(
        quiet: Bool, style: TerminalStyle = TerminalStyle(colour: false), seconds: Double? = nil,
        countLine: Bool = true
    ) -> String {
        let shown = comparisons.filter {
            quiet ? $0.verdict == .regression : ($0.verdict == .regression || $0.verdict == .improvement)
        }
        var out = ""
        if !shown.isEmpty {
            let rows = shown.map { c -> [String] in
                let r = c.current ?? c.baseline
                let unit = r?.unit ?? ""
                return [
                    c.verdict.rawValue.uppercased(), r?.scenario ?? "", r?.requirement ?? "", r?.metric ?? "",
                    c.baseline.map { ValueText.format($0.value, unit: unit) } ?? "-",
                    c.current.map { ValueText.format($0.value, unit: unit) } ?? "-",
                    c.significance?.significant.rawValue ?? "",
                    c.reason + (c.significance.map { " — " + $0.basis } ?? ""),
                ]
            }
            let table = TextTableRenderer.render(
                header: ["verdict", "scenario", "requirement", "metric", "baseline", "current", "significant", "why"],
                rows: rows)
            // Colour whole lines: colour codes inside a cell would upset the column widths.
            out += table.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.hasPrefix("REGRESSION") ? style.bad(String($0)) : String($0)
            }.joined(separator: "\n")
        }
        guard countLine else { return out }
        if !regressions.isEmpty {
            let unknown = regressions.filter { $0.significance?.significant == .unknown }.count
            out +=
                "significant (α = 0.05): \(significantRegressions.count - unknown) of \(regressions.count) regressions"
                + (unknown > 0
                    ? ", \(unknown) unknown (no interval or paired items; counted by --fail-on significant)" : "")
                + "\n"
        }
        out +=
            "check: \(regressions.count) regressions, \(improvements.count) improvements, \(comparisons.filter { $0.verdict == .unchanged }.count) unchanged\n"
        if let seconds {
            var totals = self.totals
            totals.seconds = seconds
            out += totals.line + "\n"
        }
        return out
    }

    /// The totals of the checked run's rows, with this check's regressions (`seconds` left 0).
    public var totals: RunTotals {
        let rows = comparisons.compactMap(\.current)
        var totals = RunTotals()
        totals.add(scenario: rows, regressions: regressions.count)
        // Scenarios by name: the cases of one sweep (`name[...]`) count once.
        totals.scenarios = Set(rows.map { $0.scenario.split(separator: "[").first.map(String.init) ?? "" }).count
        return totals
    }
}
