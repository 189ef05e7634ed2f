import FieldtestTestSupport
import Foundation
import Testing

@testable import MetricReports

private func metric(
    _ scenario: String, _ metric: String, _ kind: MetricKind, _ value: Double, threshold: Double? = nil,
    _ comparator: ThresholdComparator = .none, requirement: String = "SKY-P2", unit: String = "s"
) -> MetricRow {
    MetricRow(
        scenario: scenario, runID: "r", seed: 1, requirement: requirement, metric: metric, kind: kind, value: value,
        unit: unit, threshold: threshold, comparator: comparator, samples: 10)
}

/// The JUnit schema of the Jenkins xUnit plugin (a fixture), and `xmllint` to validate against it.
enum JUnitSchema {
    static let xsd = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/junit-10.xsd")

    /// `xmllint`, or nil when it is not installed (`make deps` installs it: Debian's libxml2-utils).
    static var xmllint: String? {
        ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/opt/homebrew/bin/xmllint"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Whether the validation runs: always in CI (where a missing xmllint is a failure), elsewhere when installed.
    static var available: Bool { xmllint != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    /// xmllint's verdict on `xml`: its exit status and messages.
    static func validate(_ xml: String) throws -> (status: Int32, messages: String) {
        let tool = try #require(xmllint, "xmllint is missing: install libxml2-utils (make deps)")
        let file = TemporaryFiles.url("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = ["--noout", "--schema", xsd.path, file.path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let messages = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, messages)
    }
}

@Suite("JUnit report")
struct JUnitReportTests {
    let rows = [
        metric("sweep[network=lte,factor=0.5]", "err_max", .accuracy, 301, threshold: 300, .lessOrEqual),
        metric("sweep[network=lte,factor=0.5]", "hit_rate", .accuracy, 0.97, threshold: 0.9, .greaterOrEqual),
        metric("sweep[network=lte,factor=0.5]", "events", .count, 12, requirement: "SKY-D1", unit: "count"),
        metric("sweep[network=3g,factor=0.5]", "err_max", .accuracy, 12, threshold: 300, .lessOrEqual),
    ]

    @Test func oneSuitePerCaseWithTotalsOnTheRoot() throws {
        let suites = JUnitReport.suites(rows: rows, seconds: ["sweep[network=lte,factor=0.5]": 1.25])
        #expect(suites.map(\.name) == ["sweep[network=lte,factor=0.5]", "sweep[network=3g,factor=0.5]"])
        let xml = JUnitReport.render(suites)
        #expect(xml.contains("<testsuites name=\"fieldtest\" tests=\"4\" failures=\"1\" errors=\"0\" time=\"1.250\">"))
        #expect(xml.contains("name=\"sweep[network=lte,factor=0.5]\" tests=\"3\" failures=\"1\" errors=\"0\""))
        #expect(xml.contains("time=\"1.250\""))
    }

    /// Informational rows are passing test cases carrying their value, so CI pages show them.
    @Test func informationalRowsArePassingTestCases() {
        let xml = JUnitReport.render(rows)
        #expect(
            xml.contains(
                "name=\"SKY-D1 events\" time=\"0\"><system-out>events = 12 count (informational, 10 samples)</system-out>"
            ))
    }

    /// A row of no sample is skipped with its note; a run that could not be made is an error.
    @Test func notMeasuredRowsAreSkippedAndErrorsCounted() {
        var unmeasured = metric("s", "wrong_no_route", .count, 0, threshold: 0, .lessOrEqual)
        unmeasured.samples = 0
        unmeasured.reevaluateStatus()
        unmeasured.note = "no query had no route"
        #expect(unmeasured.status == .notMeasured)
        let xml = JUnitReport.render(
            JUnitReport.suites(rows: [unmeasured])
                + [JUnitReport.errorSuite(name: "x.yaml", message: "x.yaml:3:1: unknown key 'sensrs'")])
        #expect(xml.contains("<testsuites name=\"fieldtest\" tests=\"2\" failures=\"0\" errors=\"1\""))
        #expect(xml.contains("skipped=\"1\""))
        #expect(xml.contains("<skipped message=\"not measured (0 samples): no query had no route\"/>"))
        #expect(xml.contains("<error message=\"x.yaml:3:1: unknown key &apos;sensrs&apos;\" type=\"error\">"))
    }

    @Test func classNamesHaveNoDots() {
        #expect(JUnitReport.className("sweep[network=lte,factor=0.5]") == "sweep[network=lte,factor=0_5]")
        #expect(JUnitReport.className("a b/c:d.é") == "a_b_c_d__")
        let xml = JUnitReport.render(rows)
        let classnames = xml.components(separatedBy: "classname=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(!classnames.isEmpty)
        #expect(classnames.allSatisfy { !$0.contains(".") })
    }

    /// A row that passes its threshold but regressed against the baseline is a failing test case,
    /// an informational row that regressed becomes one, and a checked row missing from the run too.
    @Test func regressionsAreFailures() {
        var current = rows
        current.removeLast()
        var baseline = rows
        baseline[1].value = 0.99  // hit rate higher is better: 0.97 now is worse
        baseline[2].value = 11  // informational count changed
        let check = BaselineCheck.compare(current: current, baseline: baseline)
        // The three above, and the row that fails its threshold in both (a failure whatever the baseline).
        #expect(check.regressions.count == 4)
        let suites = JUnitReport.suites(rows: current, check: check)
        let xml = JUnitReport.render(suites)
        #expect(xml.contains("<testsuites name=\"fieldtest\" tests=\"4\" failures=\"4\""))
        #expect(xml.contains("type=\"regression\""))
        #expect(xml.contains("SKY-P2 hit_rate regressed against the baseline: lower by 0.02"))
        #expect(xml.contains("SKY-P2 err_max: checked metric missing from this run"))
        #expect(!xml.contains("<property name=\"SKY-D1 events\""))
    }

    @Test func validAgainstTheJenkinsSchema() throws {
        guard JUnitSchema.available else {
            print("skipped: xmllint is not installed (Debian: apt-get install libxml2-utils, or make deps)")
            return
        }
        var baseline = rows
        baseline[1].value = 0.99
        let check = BaselineCheck.compare(current: Array(rows.dropLast()), baseline: baseline)
        let xml = JUnitReport.render(
            JUnitReport.suites(
                rows: Array(rows.dropLast()), check: check, seconds: ["sweep[network=lte,factor=0.5]": 75.5],
                timestamp: "2026-11-25T20:00:00Z", properties: [("scenario_file", "a/<b>.yaml")]))
        let verdict = try JUnitSchema.validate(xml)
        #expect(verdict.status == 0, "\(verdict.messages)\n\(xml)")
        // The schema is not a formality: a suite without its required attributes is refused.
        let broken = try JUnitSchema.validate(xml.replacingOccurrences(of: " errors=\"0\" skipped", with: " skipped"))
        #expect(broken.status != 0)
    }
}

@Suite("Values for a person")
struct ValueTextTests {
    @Test(arguments: [
        (0.126, "s", "126 ms"), (2.1e-05, "s", "21 µs"), (0.1505210014, "s", "151 ms"), (11.8, "s", "11.8 s"),
        (300, "s", "300 s"), (4e-10, "s", "0.4 ns"), (0, "s", "0 s"), (0.97, "ratio", "0.97"),
        (0.9712, "ratio", "0.971"), (3.2, "m", "3.2 m"), (1234.5, "m", "1.23 km"), (12345, "count", "12345"),
        (97.14, "%", "97.1 %"), (0.5, "persons/m2", "0.5 persons/m2"), (-0.0042, "r", "-0.0042 r"),
        (Double.nan, "s", "nan"), (0.001, "s", "1 ms"), (0.0009996, "s", "1000 µs"),
    ])
    func formats(value: Double, unit: String, text: String) {
        #expect(ValueText.format(value, unit: unit) == text)
    }

    @Test(arguments: [(0.85, "850 ms"), (11.84, "11.8 s"), (245.2, "4 min 05 s"), (3725, "1 h 02 min")])
    func durations(seconds: Double, text: String) {
        #expect(ValueText.duration(seconds) == text)
    }

    @Test func closingLine() {
        var totals = RunTotals()
        totals.add(
            scenario: [
                metric("a", "x", .accuracy, 1, threshold: 2, .lessOrEqual),
                metric("a", "y", .accuracy, 3, threshold: 2, .lessOrEqual), metric("a", "z", .count, 1),
            ], regressions: 1)
        totals.add(scenario: [metric("b", "x", .accuracy, 1, threshold: 2, .lessOrEqual)], regressions: 0)
        totals.seconds = 11.84
        #expect(
            totals.line == "2 scenarios, 4 rows: 2 passed, 1 failed, 0 not measured, 1 info, 1 regression in 11.8 s")
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(TerminalStyle.detect(isTerminal: true, environment: [:]).colour)
        #expect(!TerminalStyle.detect(isTerminal: true, environment: ["NO_COLOR": "1"]).colour)
        #expect(TerminalStyle.detect(isTerminal: true, environment: ["NO_COLOR": ""]).colour)
        #expect(!TerminalStyle.detect(isTerminal: false, environment: [:]).colour)
        #expect(!TerminalStyle.detect(isTerminal: true, environment: ["TERM": "dumb"]).colour)
        #expect(TerminalStyle.detect(isTerminal: true, environment: ["TERM": "xterm-256color"]).colour)
        // --color always and never override the terminal test, NO_COLOR and TERM.
        #expect(
            TerminalStyle.detect(isTerminal: false, environment: ["NO_COLOR": "1", "TERM": "dumb"], mode: .always)
                .colour)
        #expect(!TerminalStyle.detect(isTerminal: true, environment: [:], mode: .never).colour)
        #expect(TerminalStyle(colour: false).bad("FAIL") == "FAIL")
        #expect(TerminalStyle(colour: true).bad("FAIL") == "\u{1B}[1;31mFAIL\u{1B}[0m")
    }
}

@Suite("Git revision")
struct GitRevisionTests {
    let sha = String(repeating: "ab12", count: 10)
    let other = String(repeating: "cd34", count: 10)

    func checkout() throws -> URL {
        let root = TemporaryFiles.url("git")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources/M"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(".git/refs/heads"), withIntermediateDirectories: true)
        return root
    }

    @Test func branchRefLooseThenPacked() throws {
        let root = try checkout()
        let source = root.appendingPathComponent("Sources/M/File.swift").path
        try "ref: refs/heads/main\n".write(
            to: root.appendingPathComponent(".git/HEAD"), atomically: true, encoding: .utf8)
        #expect(GitRevision.current(sourceFile: source, environment: [:]) == nil)
        try "# pack-refs\n\(other) refs/heads/dev\n\(sha) refs/heads/main\n".write(
            to: root.appendingPathComponent(".git/packed-refs"), atomically: true, encoding: .utf8)
        #expect(GitRevision.current(sourceFile: source, environment: [:]) == sha)
        try "\(other)\n".write(
            to: root.appendingPathComponent(".git/refs/heads/main"), atomically: true, encoding: .utf8)
        #expect(GitRevision.current(sourceFile: source, environment: [:]) == other)
        #expect(GitRevision.current(sourceFile: source, environment: ["FIELDTEST_COMMIT": "v1"]) == "v1")
    }

    @Test func detachedHeadAndLinkedWorktree() throws {
        let main = try checkout()
        try "\(sha)\n".write(
            to: main.appendingPathComponent(".git/refs/heads/topic"), atomically: true, encoding: .utf8)
        let admin = main.appendingPathComponent(".git/worktrees/wt")
        try FileManager.default.createDirectory(at: admin, withIntermediateDirectories: true)
        try "ref: refs/heads/topic\n".write(to: admin.appendingPathComponent("HEAD"), atomically: true, encoding: .utf8)
        try "../..\n".write(to: admin.appendingPathComponent("commondir"), atomically: true, encoding: .utf8)
        let tree = TemporaryFiles.url("wt")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try "gitdir: \(admin.path)\n".write(to: tree.appendingPathComponent(".git"), atomically: true, encoding: .utf8)
        #expect(GitRevision.commit(gitEntry: tree.appendingPathComponent(".git")) == sha)
        try "\(other)\n".write(to: admin.appendingPathComponent("HEAD"), atomically: true, encoding: .utf8)
        #expect(GitRevision.commit(gitEntry: tree.appendingPathComponent(".git")) == other)
    }

    @Test func anInstalledExecutableReportsTheCommitMakeInstallRecorded() throws {
        let root = try checkout()
        let source = root.appendingPathComponent("Sources/M/File.swift").path
        try "\(other)\n".write(to: root.appendingPathComponent(".git/HEAD"), atomically: true, encoding: .utf8)
        let prefix = TemporaryFiles.url("prefix")
        let share = prefix.appendingPathComponent("share/fieldtest")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let executable = prefix.appendingPathComponent("bin/fieldtest")
        // No COMMIT file: the checkout's.
        #expect(GitRevision.current(sourceFile: source, environment: [:], executable: executable) == other)
        try "\(sha)\n".write(to: share.appendingPathComponent("COMMIT"), atomically: true, encoding: .utf8)
        #expect(GitRevision.current(sourceFile: source, environment: [:], executable: executable) == sha)
        #expect(
            GitRevision.current(sourceFile: source, environment: ["FIELDTEST_COMMIT": "v1"], executable: executable)
                == "v1")
        try "not a commit\n".write(to: share.appendingPathComponent("COMMIT"), atomically: true, encoding: .utf8)
        #expect(GitRevision.current(sourceFile: source, environment: [:], executable: executable) == other)
    }
}
