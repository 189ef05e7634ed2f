import MetricReports
import Testing

@testable import ScenarioEngine

/// `compare`'s table for a terminal: aligned as plain text, its verdicts coloured only when the style says so.
@Suite("compare's terminal table")
struct ComparisonTableTests {
    func row(_ system: String, _ value: Double, _ verdict: PairedVerdict) -> ComparedRow {
        ComparedRow(
            scenario: "s", requirement: "MIC-14", metric: "macro_recall", system: system, unit: "ratio", value: value,
            samples: 100, status: .info, ci: nil, delta: verdict == .reference ? 0 : value - 0.6, deltaCI: nil,
            pValue: verdict == .reference ? nil : 0.01, method: .none, verdict: verdict, pairs: 100)
    }

    var comparison: SystemComparison {
        SystemComparison(
            systems: ["builtin", "good", "bad", "same"],
            rows: [
                row("builtin", 0.6, .reference), row("good", 0.7, .better), row("bad", 0.5, .worse),
                row("same", 0.61, .noSignificantDifference),
            ])
    }

    @Test func plainWithoutColourAndVerdictsColouredWithIt() {
        let plain = comparison.terminalTable(style: TerminalStyle(colour: false))
        #expect(plain == comparison.terminalTable)
        #expect(!plain.contains("\u{1B}["))
        let coloured = comparison.terminalTable(style: TerminalStyle(colour: true))
        #expect(coloured.contains("\u{1B}[32mbetter\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[1;31mworse\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[2mno_significant_difference\u{1B}[0m"))
        // Without the codes it is the plain table, line for line: colour never shifts a column.
        let stripped = coloured.replacing(/\u{1B}\[[0-9;]*m/, with: "")
        #expect(stripped == plain)
    }
}
