import MetricReports

extension CheckReport {
    /// The regression/improvement table (only regressions when `quiet`) and a closing count line.
    public func rendered(quiet: Bool) -> String {
        let shown = comparisons.filter {
            quiet ? $0.verdict == .regression : ($0.verdict == .regression || $0.verdict == .improvement)
        }
        var out = ""
        if !shown.isEmpty {
            let rows = shown.map { c -> [String] in
                let r = c.current ?? c.baseline
                return [
                    c.verdict.rawValue.uppercased(), r?.scenario ?? "", r?.requirement ?? "", r?.metric ?? "",
                    c.baseline.map { FieldtestNumber.format($0.value) } ?? "-",
                    c.current.map { FieldtestNumber.format($0.value) } ?? "-", c.reason,
                ]
            }
            out += TextTableRenderer.render(
                header: ["verdict", "scenario", "requirement", "metric", "baseline", "current", "why"], rows: rows)
        }
        out +=
            "check: \(regressions.count) regressions, \(improvements.count) improvements, \(comparisons.filter { $0.verdict == .unchanged }.count) unchanged\n"
        return out
    }
}
