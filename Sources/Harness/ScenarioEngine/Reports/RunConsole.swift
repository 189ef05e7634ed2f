import Foundation
import MetricReports

/// How much `run` and `check` print.
public enum Verbosity: Sendable {
    /// Failing and regressed rows, and the closing line.
    case quiet
    /// Failing and regressed rows and a summary line per scenario (the default).
    case normal
    /// Every row, improvements too, and a summary line per scenario.
    case verbose
}

/// What `fieldtest run` prints on the terminal: per scenario the rows a person needs (every row
/// with `--verbose`), a summary line, progress lines for long scenarios, and the closing totals.
/// Values are shown with `ValueText` (`126 ms`, `0.97`); reports for machines keep full precision.
public enum RunConsole {
    /// The text printed when a scenario has finished: its summary line (not with `.quiet`), then
    /// its failing rows (every row with `.verbose`), then its regressions and the check's count line.
    public static func scenarioText(_ o: ScenarioOutcome, verbosity: Verbosity, style: TerminalStyle) -> String {
        var out = ""
        let regressions = o.check?.regressions.count ?? 0
        if verbosity != .quiet {
            var line = "\(o.scenario.name): \(o.passedCount) passed, \(o.failedCount) failed, "
            if o.notMeasuredCount > 0 { line += "\(o.notMeasuredCount) not measured, " }
            line += "\(o.record.informational) info"
            if o.withinIntervalCount > 0 {
                line += " (\(o.withinIntervalCount) within the 95 % interval of the threshold: collect more samples)"
            }
            if o.check != nil { line += ", \(regressions) regression\(regressions == 1 ? "" : "s")" }
            if let seconds = o.record.durationSeconds { line += " in \(ValueText.duration(seconds))" }
            line += "; reports in \(o.folder.path)"
            out += (o.failedCount > 0 || o.notMeasuredCount > 0 || regressions > 0 ? style.bad(line) : line) + "\n"
        }
        let shown = verbosity == .verbose ? o.rows : o.failingRows
        if !shown.isEmpty { out += rowsTable(shown, style: style) }
        if let check = o.check, verbosity != .quiet || regressions > 0 {
            out += check.rendered(quiet: verbosity != .verbose, style: style, countLine: verbosity != .quiet)
        }
        return out
    }

    /// Rows as an aligned table, values with units, their 95 % intervals (when any row has one) and
    /// samples (the status column coloured, `~` marking a threshold inside the interval, then the note,
    /// when any row has one or such a margin).
    public static func rowsTable(_ rows: [MetricRow], style: TerminalStyle) -> String {
        let notes = rows.contains { !$0.note.isEmpty || $0.margin == .withinInterval }
        let intervals = rows.contains { $0.ci != nil }
        let header =
            ["scenario", "requirement", "metric", "value"] + (intervals ? ["95 % CI"] : [])
            + ["threshold", "samples", "status"] + (notes ? ["note"] : [])
        let body = rows.map { r in
            [
                r.scenario, r.requirement, r.metric,
                r.status == .notMeasured ? "—" : ValueText.format(r.value, unit: r.unit),
            ] + (intervals ? [intervalText(r)] : []) + [
                r.threshold.map { "\(r.comparator.rawValue) \(ValueText.format($0, unit: r.unit))" } ?? "",
                String(r.samples), statusText(r.status, style: style) + (r.margin == .withinInterval ? " ~" : ""),
            ] + (notes ? [noteText(r)] : [])
        }
        return TextTableRenderer.render(header: header, rows: body)
    }

    /// `0.74–0.79`: the row's 95 % interval for a person, empty when it has none.
    static func intervalText(_ r: MetricRow) -> String {
        guard let ci = r.ci, r.status != .notMeasured else { return "" }
        return "\(ValueText.format(ci.low, unit: r.unit))–\(ValueText.format(ci.high, unit: r.unit))"
    }

    /// The row's note; for a threshold inside the interval, what that means (compactly).
    static func noteText(_ r: MetricRow) -> String {
        guard r.margin == .withinInterval else { return r.note }
        let margin = "\(r.status == .fail ? "fails" : "passes"), but within the 95 % CI: collect more samples"
        return r.note.isEmpty ? margin : r.note + "; " + margin
    }

    /// `PASS`, `FAIL` or `INFO`, coloured by `style`.
    static func statusText(_ status: MetricStatus, style: TerminalStyle) -> String {
        switch status {
        case .pass: style.good("PASS")
        case .fail: style.bad("FAIL")
        case .info: style.dim("INFO")
        case .notMeasured: style.bad("NOT MEASURED")
        }
    }

    /// A periodic progress line for a log (no line break): `fieldtest: skyscape-miami case 3/12, 41 s`,
    /// the case being the next to end (all done: `12/12 cases done`), the seconds since the scenario started.
    public static func heartbeatLine(scenario: String, done: Int, total: Int, seconds: Double) -> String {
        let position = done < total ? "case \(done + 1)/\(total)" : "\(done)/\(total) cases done"
        return "fieldtest: \(scenario) \(position), \(Int(seconds.rounded(.down))) s"
    }

    /// One progress line (no line break): `skyscape-lincoln-sweep: 5/12 cases, 1 failing row, about 14 s left`.
    public static func progressLine(_ p: CaseProgress) -> String {
        var line = "\(p.scenario): \(p.done)/\(p.total) cases"
        line += ", \(p.failedRows) failing row\(p.failedRows == 1 ? "" : "s")"
        if let left = p.secondsLeft, p.done < p.total {
            // An estimate: whole seconds are as precise as it is.
            line += ", about \(left < 60 ? "\(Int(left.rounded(.up))) s" : ValueText.duration(left)) left"
        }
        return line
    }
}

/// How `run` shows that it is working, on standard error.
public enum ProgressMode: Sendable, Equatable {
    /// One line that replaces itself, at most ten times a second (standard error is a terminal).
    case terminal
    /// A line of its own every `seconds` (standard error is a file or a pipe, as in CI, whose services
    /// stop a job that stays silent too long): `fieldtest: skyscape-miami case 3/12, 41 s`.
    case periodic(seconds: Double)
    /// Nothing (`--quiet`).
    case none

    /// The seconds between periodic lines.
    public static let defaultInterval = 10.0

    /// The variable that sets the seconds between periodic lines (0.01 to 3600; default 10).
    public static let intervalVariable = "FIELDTEST_PROGRESS_SECONDS"

    /// The seconds between periodic lines `environment` asks for, else `defaultInterval`.
    public static func interval(environment: [String: String]) -> Double {
        guard let text = environment[intervalVariable], let seconds = Double(text), (0.01...3600).contains(seconds)
        else { return defaultInterval }
        return seconds
    }

    /// The mode for a standard error that `isTerminal` or not; `quiet` shows none.
    public static func choose(isTerminal: Bool, quiet: Bool, interval: Double = defaultInterval) -> ProgressMode {
        quiet ? .none : isTerminal ? .terminal : .periodic(seconds: interval)
    }
}

/// Where `run` writes for a person: its text to standard output (to standard error when
/// standard output carries a machine-readable report), and progress to standard error: on a
/// terminal a transient line replacing the last, elsewhere (`ProgressMode.periodic`) a line every
/// 10 s while a scenario runs.
public final class TerminalConsole: @unchecked Sendable {
    /// Colour for the text stream.
    public let style: TerminalStyle
    /// Whether progress lines are shown (standard error is a terminal).
    public var progressLines: Bool { progressMode == .terminal }
    /// How progress is shown.
    public let progressMode: ProgressMode
    private let textDescriptor: Int32
    private let lock = NSLock()
    private var showing = false
    private var lastProgress = ContinuousClock.now - .seconds(1)
    private var heartbeat: Heartbeat?

    /// A console; `textToStandardError` sends the text to standard error (e.g. `--junit -`), `color`
    /// is `--color`, and `progress` how progress is shown (default: `ProgressMode.choose` for standard
    /// error, not quiet).
    public init(
        textToStandardError: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment,
        color: ColorMode = .auto, progress: ProgressMode? = nil
    ) {
        textDescriptor = textToStandardError ? STDERR_FILENO : STDOUT_FILENO
        style = TerminalStyle.detect(isTerminal: isatty(textDescriptor) == 1, environment: environment, mode: color)
        progressMode = progress ?? .choose(isTerminal: isatty(STDERR_FILENO) == 1, quiet: false)
        if case .periodic(let seconds) = progressMode {
            heartbeat = Heartbeat(interval: seconds) { line in
                try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
            }
        }
    }

    deinit { heartbeat?.stop() }

    /// A scenario of `cases` cases starts: periodic lines speak of it from now on.
    public func starting(_ scenario: String, cases: Int) {
        heartbeat?.update(scenario: scenario, done: 0, total: cases, restart: true)
        progress("running \(scenario): \(cases) case\(cases == 1 ? "" : "s")…", force: true)
    }

    /// A case of a scenario ended.
    public func progress(_ p: CaseProgress) {
        heartbeat?.update(scenario: p.scenario, done: p.done, total: p.total, restart: false)
        progress(RunConsole.progressLine(p))
    }

    /// The run is over: no more periodic lines.
    public func finish() { heartbeat?.stop() }

    /// Writes `text` to the text stream (after clearing a progress line from the terminal).
    public func write(_ text: String) {
        clearProgress()
        if textDescriptor == STDERR_FILENO {
            try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
        } else {
            Swift.print(text, terminator: "")
        }
    }

    /// Shows `line` in place of the previous progress line (at most ten a second; none off a terminal).
    public func progress(_ line: String, force: Bool = false) {
        guard progressLines else { return }
        lock.withLock {
            let now = ContinuousClock.now
            guard force || now - lastProgress >= .milliseconds(100) else { return }
            lastProgress = now
            fflush(nil)  // what was printed before stays above the progress line
            try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K\(line)".utf8))
            showing = true
        }
    }

    /// Removes the progress line, if one is shown.
    public func clearProgress() {
        lock.withLock {
            guard showing else { return }
            try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K".utf8))
            showing = false
        }
    }
}

/// Writes a progress line every `interval` seconds, on a thread of its own, while a scenario runs,
/// so that a log shows the run is alive even while one long case runs.
final class Heartbeat: @unchecked Sendable {
    private let condition = NSCondition()
    private var scenario: String?
    private var done = 0, total = 0
    private var started = ContinuousClock.now
    private var stopped = false

    init(interval: Double, write: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            condition.lock()
            defer { condition.unlock() }
            while !stopped {
                _ = condition.wait(until: Date(timeIntervalSinceNow: interval))
                if stopped { break }
                guard let scenario else { continue }
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                write(RunConsole.heartbeatLine(scenario: scenario, done: done, total: total, seconds: seconds))
            }
        }
        thread.start()
    }

    /// What the next line says; `restart` restarts its clock (a new scenario).
    func update(scenario: String, done: Int, total: Int, restart: Bool) {
        condition.withLock {
            (self.scenario, self.done, self.total) = (scenario, done, total)
            if restart { started = ContinuousClock.now }
        }
    }

    /// Ends the thread.
    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }
}
