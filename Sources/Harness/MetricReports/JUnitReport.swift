/// Renders metric rows as JUnit XML for CI systems: one test suite per
/// scenario, one test case per requirement row; a failing row's message names
/// the value, comparator and threshold.
public enum JUnitReport {
    /// The XML document for `rows`.
    public static func render(_ rows: [MetricRow]) -> String {
        var scenarios: [String] = []
        var byScenario: [String: [MetricRow]] = [:]
        for r in rows {
            if byScenario[r.scenario] == nil { scenarios.append(r.scenario) }
            byScenario[r.scenario, default: []].append(r)
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = rows.filter { $0.status == .fail }.count
        out += "<testsuites name=\"fieldtest\" tests=\"\(rows.count)\" failures=\"\(failures)\">\n"
        for s in scenarios {
            let rs = byScenario[s] ?? []
            let f = rs.filter { $0.status == .fail }.count
            out += "  <testsuite name=\"\(escape(s))\" tests=\"\(rs.count)\" failures=\"\(f)\" skipped=\"0\">\n"
            for r in rs {
                let name = escape("\(r.requirement) \(r.metric)")
                out += "    <testcase classname=\"\(escape(s)).\(escape(r.requirement))\" name=\"\(name)\">"
                let value = "\(number(r.value)) \(r.unit)"
                switch r.status {
                case .fail:
                    let message =
                        "\(r.requirement) \(r.metric) = \(value), required \(r.comparator.rawValue) \(r.threshold.map(number) ?? "") \(r.unit)"
                    out +=
                        "\n      <failure message=\"\(escape(message))\" type=\"threshold\">\(escape(message))</failure>\n    "
                case .info:
                    out +=
                        "<system-out>\(escape("\(r.metric) = \(value) (informational, \(r.samples) samples)"))</system-out>"
                case .pass:
                    out +=
                        "<system-out>\(escape("\(r.metric) = \(value) \(r.comparator.rawValue) \(r.threshold.map(number) ?? "")"))</system-out>"
                }
                out += "</testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    static func number(_ v: Double) -> String { FieldtestNumber.format(v) }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters.
                if c.value < 0x20 && c != "\n" && c != "\t" && c != "\r" {
                    out += "?"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }
}
