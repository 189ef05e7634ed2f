import Foundation

/// Renders metric rows as JUnit XML for CI systems (Jenkins, GitLab, GitHub test reporters).
///
/// The layout, documented in `docs/outputs.md`:
/// - one `<testsuites>` root holding the totals of every scenario of the run;
/// - one `<testsuite>` per scenario case (a plain scenario is one case; a sweep has one per
///   parameter combination and seed), named by its label, with its wall-clock `time`;
/// - one `<testcase>` per row; a row that fails its threshold, or regresses against the baseline,
///   carries a `<failure>` (with the baseline and current values); a row of no sample carries a
///   `<skipped message=…>` with its note; a checked baseline row the run no longer reports is a
///   failing test case too;
/// - informational rows (no threshold) are passing test cases whose `<system-out>` carries their
///   value, so CI pages show the headline figures;
/// - a run that could not be made (an invalid scenario, a system that fails its handshake) is an
///   `<error>` test case (`errors` counts them), so CI always has a report to show;
/// - `classname` is the case label with every character but ASCII letters, digits and `-_=,[]`
///   replaced by `_` (see `className(_:)`): Jenkins and GitLab read dots in a classname as
///   package separators, so a parameter value such as `0.5` would split one case into packages.
public enum JUnitReport {
    /// The rows of one scenario case and what the run knows about them.
    public struct Suite: Sendable {
        /// The case label (`MetricRow.scenario`), e.g. `skyscape-lincoln-sweep[network=lte,seed=2]`.
        public var name: String
        /// The case's metric rows, in report order.
        public var rows: [MetricRow]
        /// Row key (`MetricRow.key`) → why the row regressed against the baseline.
        public var regressions: [String: String]
        /// Checked baseline rows of this case that the run no longer reports, with the reason.
        public var missing: [(row: MetricRow, reason: String)]
        /// Wall-clock seconds the case took to run.
        public var seconds: Double
        /// When the case started (ISO 8601, UTC), if known.
        public var timestamp: String?
        /// Facts about the run shown as properties (e.g. the scenario file, seed and run ID).
        public var properties: [(name: String, value: String)]
        /// Errors that stopped the case (or the whole run) before it gave rows: name and message.
        public var errors: [(name: String, message: String)] = []

        /// A suite; see the properties.
        public init(
            name: String, rows: [MetricRow], regressions: [String: String] = [:],
            missing: [(row: MetricRow, reason: String)] = [], seconds: Double = 0, timestamp: String? = nil,
            properties: [(name: String, value: String)] = []
        ) {
            self.name = name
            self.rows = rows
            self.regressions = regressions
            self.missing = missing
            self.seconds = seconds
            self.timestamp = timestamp
            self.properties = properties
        }

        /// The number of test cases: every row, missing rows and errors.
        public var tests: Int { rows.count + missing.count + errors.count }
        /// The number of failing test cases.
        public var failures: Int {
            rows.filter { $0.status == .fail || regressions[$0.key] != nil }.count + missing.count
        }
        /// The number of skipped test cases: rows of no sample that did not regress.
        public var skipped: Int { rows.filter { $0.status == .notMeasured && regressions[$0.key] == nil }.count }
    }

    /// A suite of one `<error>` test case: what stopped `name` (a scenario file, or the run) from
    /// giving rows, e.g. an invalid scenario or a system that failed its handshake.
    public static func errorSuite(name: String, message: String) -> Suite {
        var s = Suite(name: name, rows: [])
        s.errors = [(name: "run", message: message)]
        return s
    }

    /// One suite per case label in `rows` (in order of first appearance), with the regressions of
    /// `check` (a comparison of these rows with a baseline) attached to their rows, `seconds` the
    /// wall-clock time of each case label and `properties` shown on every suite.
    public static func suites(
        rows: [MetricRow], check: CheckReport? = nil, seconds: [String: Double] = [:], timestamp: String? = nil,
        properties: [(name: String, value: String)] = []
    ) -> [Suite] {
        var order: [String] = []
        var byLabel: [String: Suite] = [:]
        func suite(_ label: String) {
            if byLabel[label] == nil {
                order.append(label)
                byLabel[label] = Suite(
                    name: label, rows: [], seconds: seconds[label] ?? 0, timestamp: timestamp, properties: properties)
            }
        }
        for r in rows {
            suite(r.scenario)
            byLabel[r.scenario]?.rows.append(r)
        }
        for c in check?.regressions ?? [] {
            if let current = c.current {
                byLabel[current.scenario]?.regressions[current.key] = c.reason
            } else if let base = c.baseline {
                suite(base.scenario)
                byLabel[base.scenario]?.missing.append((base, c.reason))
            }
        }
        return order.compactMap { byLabel[$0] }
    }

    /// The XML document of `rows` alone (no baseline, no times): one suite per case label.
    public static func render(_ rows: [MetricRow]) -> String { render(suites(rows: rows)) }

    /// The XML document of `suites` under one `<testsuites>` root named `name`.
    public static func render(_ suites: [Suite], name: String = "fieldtest") -> String {
        let tests = suites.reduce(0) { $0 + $1.tests }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors.count }
        let seconds = suites.reduce(0.0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuites name=\"\(escape(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(time(seconds))\">\n"
        for s in suites { out += render(s) }
        out += "</testsuites>\n"
        return out
    }

    /// One `<testsuite>` element.
    static func render(_ s: Suite) -> String {
        let classname = escape(className(s.name))
        var out =
            "  <testsuite name=\"\(escape(s.name))\" tests=\"\(s.tests)\" failures=\"\(s.failures)\" errors=\"\(s.errors.count)\" skipped=\"\(s.skipped)\" time=\"\(time(s.seconds))\""
        if let timestamp = s.timestamp { out += " timestamp=\"\(escape(timestamp))\"" }
        out += ">\n"
        if !s.properties.isEmpty {
            out += "    <properties>\n"
            for p in s.properties {
                out += "      <property name=\"\(escape(p.name))\" value=\"\(escape(p.value))\"/>\n"
            }
            out += "    </properties>\n"
        }
        for e in s.errors {
            out += "    <testcase classname=\"\(classname)\" name=\"\(escape(e.name))\" time=\"0\">"
            out += "\n      <error message=\"\(escape(e.message))\" type=\"error\">\(escape(e.message))</error>\n"
            out += "    </testcase>\n"
        }
        for r in s.rows { out += testCase(r, classname: classname, regression: s.regressions[r.key]) }
        for (r, reason) in s.missing {
            let message = "\(r.requirement) \(r.metric): \(reason) (the baseline checks \(describeCheck(r)))"
            out +=
                "    <testcase classname=\"\(classname)\" name=\"\(escape("\(r.requirement) \(r.metric)"))\" time=\"0\">"
            out += "\n      <failure message=\"\(escape(message))\" type=\"regression\">\(escape(message))</failure>\n"
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n"
        return out
    }

    /// The `<testcase>` of one row: a failure (threshold or regression), a skip (no sample), or a
    /// pass whose output carries the value.
    static func testCase(_ r: MetricRow, classname: String, regression: String?) -> String {
        var out =
            "    <testcase classname=\"\(classname)\" name=\"\(escape("\(r.requirement) \(r.metric)"))\" time=\"0\">"
        var failure: (type: String, message: String)?
        if r.status == .fail {
            failure = (
                "threshold",
                "\(r.requirement) \(r.metric) = \(describe(r)), required \(describeCheck(r)) (\(r.samples) samples)"
            )
        }
        if let regression {
            let text = "\(r.requirement) \(r.metric) regressed against the baseline: \(regression)"
            failure = failure.map { ($0.type, "\($0.message); \(text)") } ?? ("regression", text)
        }
        if let failure {
            out += "\n      <failure message=\"\(escape(failure.message))\" type=\"\(failure.type)\">"
            out += "\(escape(failure.message))</failure>\n    </testcase>\n"
        } else if r.status == .notMeasured {
            let message = "not measured (0 samples): \(r.note.isEmpty ? "no sample" : r.note)"
            out += "\n      <skipped message=\"\(escape(message))\"/>\n    </testcase>\n"
        } else {
            let text =
                r.status == .info
                ? "\(r.metric) = \(describe(r)) (informational, \(r.samples) samples)"
                : "\(r.metric) = \(describe(r)) \(describeCheck(r)) (\(r.samples) samples)"
            out += "<system-out>\(escape(text))</system-out></testcase>\n"
        }
        return out
    }

    /// The `classname` of a case's test cases: `label` with every character other than ASCII
    /// letters, digits and `-_=,[]` replaced by `_`, so no dot splits it into Java-style packages.
    public static func className(_ label: String) -> String {
        let kept = Set("-_=,[]".unicodeScalars)
        var out = String.UnicodeScalarView()
        for c in label.unicodeScalars {
            let ascii = c.isASCII && (CharacterSet.alphanumerics.contains(c) || kept.contains(c))
            out.append(ascii ? c : "_")
        }
        return String(out)
    }

    /// The value with its unit, e.g. `301 s`.
    static func describe(_ r: MetricRow) -> String { "\(number(r.value)) \(r.unit)" }

    /// The row's check with its unit, e.g. `<= 300 s`.
    static func describeCheck(_ r: MetricRow) -> String {
        guard let t = r.threshold, r.comparator != .none else { return "no threshold" }
        return "\(r.comparator.rawValue) \(number(t)) \(r.unit)"
    }

    /// Seconds as JUnit's `time` wants them: plain decimal, no exponent, millisecond precision.
    static func time(_ seconds: Double) -> String {
        seconds.isFinite && seconds > 0 ? String(format: "%.3f", seconds) : "0"
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
