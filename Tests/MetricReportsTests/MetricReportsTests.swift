import FieldtestData
import FieldtestGSL
import FieldtestTestSupport
import Foundation
import Testing

@testable import MetricReports

func row(
    _ metric: String, _ kind: MetricKind, _ value: Double, threshold: Double? = nil,
    _ comparator: ThresholdComparator = .none, scenario: String = "s", requirement: String = "SKY-P2"
) -> MetricRow {
    MetricRow(
        scenario: scenario, runID: "r1", seed: 1, requirement: requirement, metric: metric, kind: kind, value: value,
        unit: "s", threshold: threshold, comparator: comparator, samples: 10)
}

@Suite("metrics.csv")
struct MetricsCSVTests {
    @Test func quotesFieldsAndRoundTrips() throws {
        let rows = [
            row("plain", .accuracy, 12.5, threshold: 300, .lessOrEqual),
            row("with,comma", .count, 3, scenario: "a \"quoted\" name"),
            row("multi\nline", .rate, 0.000123456789012),
        ]
        let text = MetricsCSV.render(rows)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines[0]
                == "scenario,run_id,seed,requirement,metric,kind,value,unit,threshold,comparator,status,samples,note,"
                + "ci_low,ci_high,margin")
        #expect(lines[1] == "s,r1,1,SKY-P2,plain,accuracy,12.5,s,300,<=,pass,10,,,,")
        #expect(lines[2] == "\"a \"\"quoted\"\" name\",r1,1,SKY-P2,\"with,comma\",count,3,s,,,info,10,,,,")
        #expect(text.contains("\"multi\nline\",rate,0.000123456789012,s,,,info,10,,,,"))
        // Values read back bit for bit, so a baseline comparison is exact.
        let back = try MetricsCSV.parse(bytes: Array(text.utf8), file: "m.csv")
        #expect(back == rows)
    }

    /// The interval columns round-trip; the margin column is recomputed from the interval and the
    /// threshold and refused when it disagrees; files of the note-but-no-interval layout still read.
    @Test func intervalColumnsRoundTripAndMarginIsChecked() throws {
        let header = MetricsCSV.columns.joined(separator: ",")
        var r = row("accuracy", .accuracy, 0.62, threshold: 0.6, .greaterOrEqual)
        r.unit = "ratio"
        r.ci = ConfidenceInterval(low: 0.58, high: 0.66)
        r.reevaluateStatus()
        #expect(r.margin == .withinInterval)
        let back = try MetricsCSV.parse(bytes: Array(MetricsCSV.render([r]).utf8), file: "m.csv")
        #expect(back == [r])
        let forged = header + "\ns,r1,1,MIC-14,accuracy,accuracy,0.62,ratio,0.6,>=,pass,10,,0.58,0.66,clear\n"
        #expect {
            try MetricsCSV.parse(bytes: Array(forged.utf8), file: "m.csv")
        } throws: { "\($0)".contains("margin") && "\($0)".contains("within_interval") }
        let halfInterval = header + "\ns,r1,1,MIC-14,accuracy,accuracy,0.62,ratio,0.6,>=,pass,10,,0.58,,\n"
        #expect(throws: (any Error).self) { try MetricsCSV.parse(bytes: Array(halfInterval.utf8), file: "m.csv") }
        let older =
            MetricsCSV.columnsWithoutInterval.joined(separator: ",")
            + "\ns,r1,1,MIC-14,accuracy,accuracy,0.62,ratio,0.6,>=,pass,10,\n"
        let read = try MetricsCSV.parse(bytes: Array(older.utf8), file: "m.csv")
        #expect(read.first?.ci == nil && read.first?.margin == nil)
    }

    @Test func statusFollowsComparator() {
        #expect(row("a", .accuracy, 301, threshold: 300, .lessOrEqual).status == .fail)
        #expect(row("a", .accuracy, 300, threshold: 300, .lessOrEqual).status == .pass)
        #expect(row("a", .accuracy, 0.94, threshold: 0.95, .greaterOrEqual).status == .fail)
        #expect(row("a", .count, 0, threshold: 0, .equal).status == .pass)
        #expect(row("a", .accuracy, .nan, threshold: 1, .lessOrEqual).status == .fail)
        #expect(row("a", .accuracy, 5).status == .info)
    }

    @Test func badFilesGiveLocatedErrors() {
        let wrongHeader = "scenario,run_id\ns,r\n"
        #expect(
            throws: DataError.badLayout(
                file: "m.csv", line: 1, reason: "header must be exactly '\(MetricsCSV.columns.joined(separator: ","))'")
        ) {
            try MetricsCSV.parse(bytes: Array(wrongHeader.utf8), file: "m.csv")
        }
        let badKind = MetricsCSV.columns.joined(separator: ",") + "\ns,r,1,SKY-P2,m,speed,1,s,,,info,1,,,,\n"
        #expect(
            throws: DataError.invalidField(
                file: "m.csv", line: 2, field: "kind", value: "speed",
                reason: "expected one of accuracy, latency, count, rate")
        ) {
            try MetricsCSV.parse(bytes: Array(badKind.utf8), file: "m.csv")
        }
    }

    /// Two rows with one key would make a baseline comparison depend on row order: an
    /// error naming the file and both lines.
    @Test func duplicateKeysNameBothLines() throws {
        let text = MetricsCSV.render([row("a", .accuracy, 1), row("b", .accuracy, 2), row("a", .accuracy, 3)])
        #expect(
            throws: DataError.badLayout(
                file: "base.csv", line: 4,
                reason: "duplicate row: requirement SKY-P2 metric a of scenario s seed 1 is also on line 2; "
                    + "keep one row per scenario, seed, requirement and metric")
        ) {
            try MetricsCSV.parse(bytes: Array(text.utf8), file: "base.csv")
        }
        // The same metric under another requirement, seed or scenario is a different row.
        let distinct = [
            row("a", .accuracy, 1), row("a", .accuracy, 1, requirement: "SKY-P1"),
            row("a", .accuracy, 1, scenario: "t"),
        ]
        let back = try MetricsCSV.parseLocated(bytes: Array(MetricsCSV.render(distinct).utf8), file: "m.csv")
        #expect(back.map(\.line) == [2, 3, 4])
        #expect(back.map(\.row) == distinct)
    }

    @Test func latencyPercentilesFromHistogram() {
        var rec = LatencyRecorder()
        for i in 1...1000 { rec.record(seconds: Double(i) / 1000) }
        // HDR histogram with 3 significant digits: within 0.1 % of the exact type-7 quantile
        // (h = p·999: 0.5005, 0.95005, 0.99001).
        #expect(abs(rec.seconds(atPercentile: 50) - 0.5005) <= 0.0005)
        #expect(abs(rec.seconds(atPercentile: 95) - 0.95005) <= 0.00095)
        #expect(abs(rec.seconds(atPercentile: 99) - 0.99001) <= 0.00099)
        #expect(rec.maximumSeconds == 1.0)
        let rows = rec.rows(
            base: .init(scenario: "s", runID: "r", seed: 1, requirement: "SKY-P1"), metric: "q", threshold: 0.9)
        #expect(rows.map(\.metric) == ["q_p50", "q_p95", "q_p99", "q_max"])
        #expect(rows.map(\.status) == [.info, .fail, .info, .info])
    }

    @Test func junitNamesValueAndThreshold() {
        let xml = JUnitReport.render([
            row("err<max>", .accuracy, 301, threshold: 300, .lessOrEqual), row("ok", .count, 1),
        ])
        // The informational row is a passing test whose output carries its value.
        #expect(xml.contains("<testsuite name=\"s\" tests=\"2\" failures=\"1\""))
        #expect(xml.contains("message=\"SKY-P2 err&lt;max&gt; = 301 s, required &lt;= 300 s (10 samples)\""))
        #expect(xml.contains("<system-out>ok = 1 s (informational, 10 samples)</system-out>"))
    }
}

@Suite("Baseline check")
struct BaselineCheckTests {
    let baseline = [
        row("sunrise_error_max", .accuracy, 12, threshold: 300, .lessOrEqual),
        row("hit_rate", .accuracy, 0.97, threshold: 0.95, .greaterOrEqual, requirement: "WXC-D1"),
        row("query_p95", .latency, 0.100, threshold: 5, .lessOrEqual, requirement: "SKY-P1"),
        row("lost", .count, 0, threshold: 0, .lessOrEqual, requirement: "BTD-S1"),
    ]

    @Test func equalRunPasses() {
        let report = BaselineCheck.compare(current: baseline, baseline: baseline)
        #expect(!report.hasRegression)
        #expect(report.comparisons.allSatisfy { $0.verdict == .unchanged })
    }

    @Test func worseRunIsARegressionInEachDirection() {
        var cur = baseline
        cur[0].value = 13  // lower is better
        cur[1].value = 0.96  // higher is better
        cur[2].value = 0.2  // latency +100 %
        let report = BaselineCheck.compare(current: cur, baseline: baseline)
        #expect(report.regressions.map { $0.current?.metric } == ["sunrise_error_max", "hit_rate", "query_p95"])
    }

    @Test func toleranceAndImprovements() throws {
        var cur = baseline
        cur[2].value = 0.140  // +40 %: inside the default 50 %
        cur[0].value = 10  // better
        var report = BaselineCheck.compare(current: cur, baseline: baseline)
        #expect(!report.hasRegression)
        #expect(report.improvements.map { $0.current?.metric } == ["sunrise_error_max"])
        var tight = Tolerances()
        try tight.apply("latency=0.1")
        report = BaselineCheck.compare(current: cur, baseline: baseline, tolerances: tight)
        #expect(report.regressions.map { $0.current?.metric } == ["query_p95"])
        var loose = Tolerances()
        try loose.apply("SKY-P2=2")
        cur[0].value = 13.5
        #expect(!BaselineCheck.compare(current: cur, baseline: baseline, tolerances: loose).hasRegression)
        #expect(throws: CheckError.badTolerance("latency")) { try loose.apply("latency") }
    }

    /// A tolerance NAME must be a kind, a requirement of the catalogue given or a compared metric; a typo is
    /// an error with the closest name, never a setting with no effect.
    @Test func toleranceNamesMustBeKnown() throws {
        let metrics = Set(baseline.map(\.metric))
        let requirements: Set<String> = ["SKY-P1", "SKY-P2", "NAV-L1", "MIC-12"]
        var typo = Tolerances()
        try typo.apply("acuracy=1")
        #expect(throws: CheckError.unknownToleranceName("acuracy", suggestion: "accuracy")) {
            try typo.checkOverrideNames(metrics: metrics, requirements: requirements)
        }
        var metricTypo = Tolerances()
        try metricTypo.apply("sunrise_eror_max=2")
        #expect(throws: CheckError.unknownToleranceName("sunrise_eror_max", suggestion: "sunrise_error_max")) {
            try metricTypo.checkOverrideNames(metrics: metrics, requirements: requirements)
        }
        var unrelated = Tolerances()
        try unrelated.apply("zzzzzzzz=2")
        #expect(throws: CheckError.unknownToleranceName("zzzzzzzz", suggestion: nil)) {
            try unrelated.checkOverrideNames(metrics: metrics, requirements: requirements)
        }
        var known = Tolerances()
        for setting in ["accuracy=1", "rate=0.1", "latency-floor=0.01", "SKY-P2=2", "NAV-L1=0.01", "hit_rate=0.01"] {
            try known.apply(setting)
        }
        try known.checkOverrideNames(metrics: metrics, requirements: requirements)
        #expect(known.accuracyAbsolute == 1 && known.overrides == ["SKY-P2": 2, "NAV-L1": 0.01, "hit_rate": 0.01])
    }

    /// With a baseline from another machine, latency movement is not compared, but a latency
    /// row that starts failing its own threshold still regresses; accuracy is always compared.
    @Test func latencyFromAnotherMachineIsCheckedByThresholdOnly() {
        var cur = baseline
        cur[2].value = 0.9  // 9× slower, still under its 5 s threshold
        var other = Tolerances()
        other.comparesLatency = false
        #expect(!BaselineCheck.compare(current: cur, baseline: baseline, tolerances: other).hasRegression)
        #expect(
            BaselineCheck.compare(current: cur, baseline: baseline).regressions.map { $0.current?.metric } == [
                "query_p95"
            ])
        cur[2] = row("query_p95", .latency, 6, threshold: 5, .lessOrEqual, requirement: "SKY-P1")
        cur[0].value = 13  // accuracy worse
        let report = BaselineCheck.compare(current: cur, baseline: baseline, tolerances: other)
        #expect(report.regressions.map { $0.current?.metric } == ["sunrise_error_max", "query_p95"])
    }

    /// A latency series on the virtual clock is deterministic: its rows are compared on any machine,
    /// exactly (a slower value regresses, a faster one improves), while host latency is not.
    @Test func virtualClockLatencyIsComparedOnAnyMachine() {
        var cur = baseline
        cur[2].value = 0.100001  // a microsecond slower, far within host latency's 50 %
        var other = Tolerances()
        other.comparesLatency = false
        #expect(!BaselineCheck.compare(current: cur, baseline: baseline, tolerances: other).hasRegression)
        other.virtualClockLatency = ["SKY-P1 query"]
        #expect(other.isOnVirtualClock(baseline[2]) && !other.isOnVirtualClock(baseline[0]))
        #expect(
            BaselineCheck.compare(current: cur, baseline: baseline, tolerances: other).regressions.map {
                $0.current?.metric
            } == ["query_p95"])
        cur[2].value = 0.099
        let faster = BaselineCheck.compare(current: cur, baseline: baseline, tolerances: other)
        #expect(!faster.hasRegression && faster.comparisons[2].verdict == .improvement)
        cur[2].value = 0.1
        cur[2].samples = baseline[2].samples + 1
        #expect(BaselineCheck.compare(current: cur, baseline: baseline, tolerances: other).hasRegression)
    }

    /// `machine.json` round-trips, and only an identical machine compares latency by default.
    @Test func machineIdentityDecidesLatencyComparison() throws {
        let folder = TemporaryFiles.url("fieldtest-machine")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(MachineIdentity.recorded(in: folder) == nil)
        let here = MachineIdentity(host: "ci-1", machineID: "0f3a", cpu: "Example CPU @ 3.0GHz", cores: 2)
        try here.write(into: folder)
        #expect(MachineIdentity.recorded(in: folder) == here)
        let elsewhere = MachineIdentity(host: "ci-1", machineID: "77c1", cpu: "Example CPU @ 3.0GHz", cores: 2)
        #expect(LatencyComparison.sameMachine.compares(baseline: here, current: here))
        #expect(!LatencyComparison.sameMachine.compares(baseline: here, current: elsewhere))
        #expect(!LatencyComparison.sameMachine.compares(baseline: nil, current: here))
        #expect(LatencyComparison.always.compares(baseline: nil, current: here))
        #expect(!LatencyComparison.never.compares(baseline: here, current: here))
        #expect(MachineIdentity.current().cores >= 1)
    }

    @Test func passToFailAndMissingRowsRegress() {
        var cur = Array(baseline.dropLast())
        cur[0] = row("sunrise_error_max", .accuracy, 400, threshold: 300, .lessOrEqual)
        let report = BaselineCheck.compare(current: cur, baseline: baseline)
        #expect(
            report.regressions.map(\.reason) == [
                "now fails its threshold <= 300: baseline 12 s, this run 400 s", "checked metric missing from this run",
            ])
    }

    /// A failing row fails the check whatever the baseline says: one the baseline lacks, and one
    /// the baseline failed too. Deleting a row from a baseline cannot turn its check off.
    @Test func failingRowsRegressWhateverTheBaseline() {
        let failing = row("sunrise_error_max", .accuracy, 400, threshold: 300, .lessOrEqual)
        var report = BaselineCheck.compare(current: [failing], baseline: [row("other", .count, 1)])
        #expect(
            report.regressions.map(\.reason) == ["fails its threshold <= 300 (not in the baseline): this run 400 s"])
        report = BaselineCheck.compare(current: [failing], baseline: [failing])
        #expect(
            report.regressions.map(\.reason) == [
                "fails its threshold <= 300 (the baseline failed it too): baseline 400 s, this run 400 s"
            ])
        #expect(report.hasRegression)
    }

    /// The status column is recomputed from the row: a p95 of 1000 s against `<= 5` marked pass is
    /// refused with its file, line and field, and so is a checked row with no samples marked pass.
    @Test func statusColumnIsNotTrusted() throws {
        let header = MetricsCSV.columns.joined(separator: ",")
        let forged = header + "\ns,r1,1,SKY-P3,latency_p95,latency,1000,s,5,<=,pass,20,,,,\n"
        #expect {
            try MetricsCSV.parse(bytes: Array(forged.utf8), file: "b.csv")
        } throws: { error in
            "\(error)".hasPrefix("b.csv:2:") && "\(error)".contains("status") && "\(error)".contains("gives fail")
        }
        let unmeasured = header + "\ns,r1,1,SKY-P2,err_max,accuracy,0,s,120,<=,pass,0,,,,\n"
        #expect(throws: (any Error).self) { try MetricsCSV.parse(bytes: Array(unmeasured.utf8), file: "b.csv") }
        let honest = header + "\ns,r1,1,SKY-P3,latency_p95,latency,1000,s,5,<=,fail,20,,,,\n"
        #expect(try MetricsCSV.parse(bytes: Array(honest.utf8), file: "b.csv").first?.status == .fail)
        let noSample = header + "\ns,r1,1,SKY-P2,err_max,accuracy,0,s,120,<=,not_measured,0,no sunrise,,,\n"
        let read = try MetricsCSV.parse(bytes: Array(noSample.utf8), file: "b.csv").first
        #expect(read?.status == .notMeasured && read?.note == "no sunrise")
        // A file written before the note column: its checked row of no sample said fail.
        let older =
            MetricsCSV.columnsWithoutNote.joined(separator: ",")
            + "\ns,r1,1,SKY-P2,err_max,accuracy,0,s,120,<=,fail,0\n"
        #expect(try MetricsCSV.parse(bytes: Array(older.utf8), file: "b.csv").first?.status == .notMeasured)
    }

    /// A checked baseline row that loses its threshold (or changes it) is judged by the
    /// baseline's check: dropping or loosening the check is a regression, not "unchanged".
    @Test func droppedOrChangedChecksRegress() {
        var cur = baseline
        cur[3] = row("lost", .count, 7, requirement: "BTD-S1")  // was <= 0, now unchecked
        cur[0] = row("sunrise_error_max", .accuracy, 12, threshold: 600, .lessOrEqual)  // threshold loosened
        let report = BaselineCheck.compare(current: cur, baseline: baseline)
        #expect(report.regressions.map { $0.current?.metric } == ["sunrise_error_max", "lost"])
        #expect(
            report.regressions.map(\.reason) == [
                "the baseline checks <= 300, this run <= 600; restore the check, or re-record the baseline if the change is intended",
                "the baseline checks <= 0, this run no threshold; restore the check, or re-record the baseline if the change is intended",
            ])
    }

    /// Informational accuracy, count and rate rows are deterministic and compared (counts exactly,
    /// rates within 5 %); informational latency rows regress only by getting slower.
    @Test func informationalRowsAreCompared() throws {
        let base = [
            row("no_route", .count, 89), row("mean_error", .accuracy, 2.5), row("per_hour", .rate, 100),
            row("tap_mean", .latency, 0.1),
        ]
        var cur = base
        cur[0].value = 105
        cur[1].value = 2.4
        cur[2].value = 104  // +4 %: within the rate tolerance
        cur[3].value = 0.05  // faster
        var report = BaselineCheck.compare(current: cur, baseline: base)
        #expect(report.regressions.map { $0.current?.metric } == ["no_route", "mean_error"])
        #expect(
            report.regressions.first?.reason
                == "changed by 16 s: baseline 89 s, this run 105 s, allowed ±0 s; informational count rows are compared too"
        )
        cur[2].value = 106  // +6 %
        cur[3].value = 0.2  // 2× slower
        report = BaselineCheck.compare(current: cur, baseline: base)
        #expect(report.regressions.map { $0.current?.metric } == ["no_route", "mean_error", "per_hour", "tap_mean"])
        var loose = Tolerances()
        try loose.apply("count=20")
        try loose.apply("accuracy=0.5")
        cur[2].value = 100
        cur[3].value = 0.1
        #expect(!BaselineCheck.compare(current: cur, baseline: base, tolerances: loose).hasRegression)
    }

    /// The samples a deterministic row summarises are compared: a check over fewer (or no)
    /// samples is not the same check. Latency regresses only when its samples drop to 0.
    @Test func sampleCountsAreCompared() {
        var cur = baseline
        cur[3].samples = 0
        cur[0].samples = 9
        cur[2].samples = 12
        var report = BaselineCheck.compare(current: cur, baseline: baseline)
        #expect(report.regressions.map { $0.current?.metric } == ["sunrise_error_max", "lost"])
        #expect(
            report.regressions.last?.reason == "summarises 0 samples, the baseline 10; count rows are deterministic")
        cur = baseline
        cur[2].samples = 0
        report = BaselineCheck.compare(current: cur, baseline: baseline)
        #expect(report.regressions.map(\.reason) == ["summarises 0 samples, the baseline 10"])
    }
}
