import FieldtestGSL
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// `compare`'s statistics (`PairedComparison`), each figure checked against a value computed here by hand.
@Suite("paired comparison of systems")
struct PairedComparisonTests {
    func row(
        _ metric: String, _ value: Double, samples: Int, unit: String = "ratio",
        comparator: ThresholdComparator = .none,
        threshold: Double? = nil, scenario: String = "s"
    ) -> MetricRow {
        MetricRow(
            scenario: scenario, runID: "r", seed: 7, requirement: "REQ-1", metric: metric, kind: .accuracy,
            value: value, unit: unit, threshold: threshold, comparator: comparator, samples: samples)
    }

    func items(_ metric: String, _ outcomes: [ItemOutcome], scenario: String = "s") -> ItemIndex {
        ItemIndex(
            outcomes.enumerated().map {
                ItemsCSVRow(
                    caseLabel: scenario, record: ItemRecord(requirement: "REQ-1", metric: metric, outcome: $0.element),
                    line: $0.offset + 2)
            })
    }

    func right(_ right: [Bool]) -> [ItemOutcome] {
        right.enumerated().map {
            ItemOutcome(item: "t\($0.offset)", expected: "a", answer: $0.element ? "a" : "b", correct: $0.element)
        }
    }

    /// The two-sided exact binomial p of McNemar, by summing the binomial terms here.
    func mcNemar(_ b: Int, _ c: Int) -> Double {
        let n = b + c
        guard n > 0 else { return 1 }
        var tail = 0.0
        var term = pow(0.5, Double(n))  // C(n, 0) / 2^n
        for k in 0...min(b, c) {
            tail += term
            term *= Double(n - k) / Double(k + 1)
        }
        return min(1, 2 * tail)
    }

    @Test func rightAndWrongItemsAreTestedWithMcNemarOnTheDiscordantPairs() throws {
        // Reference right on items 0–14; candidate on 0–8 and 17–19: b = 6 (9–14), c = 3 (17–19).
        let ref = (0..<20).map { $0 < 15 }
        let cand = (0..<20).map { $0 < 9 || $0 >= 17 }
        let runs = [
            PairedComparison.Run(
                system: "a", rows: [row("accuracy", 0.75, samples: 20)], items: items("accuracy", right(ref))),
            PairedComparison.Run(
                system: "b", rows: [row("accuracy", 0.6, samples: 20)], items: items("accuracy", right(cand))),
        ]
        let rows = PairedComparison.compare(runs) { _, _ in nil }
        #expect(rows.count == 2)
        #expect(rows[0].verdict == .reference && rows[0].delta == 0)
        let b = rows[1]
        #expect(b.method == .mcNemarExact && b.pairs == 20)
        #expect(abs(try #require(b.delta) - -0.15) < 1e-12)
        #expect(abs(try #require(b.pValue) - mcNemar(6, 3)) < 1e-12)
        #expect(abs(mcNemar(6, 3) - 0.5078125) < 1e-12)
        #expect(b.verdict == .noSignificantDifference)
        let ci = try #require(b.deltaCI)
        #expect(ci.low <= -0.15 && -0.15 <= ci.high)
        // Wilson from value and samples where the row has no interval of its own.
        #expect(b.ci == Intervals.wilson(successes: 12, trials: 20))
    }

    @Test func aCandidateWrongWhereTheReferenceIsRightIsWorse() throws {
        let runs = [
            PairedComparison.Run(
                system: "a", rows: [row("accuracy", 1, samples: 30)],
                items: items("accuracy", right(Array(repeating: true, count: 30)))),
            PairedComparison.Run(
                system: "b", rows: [row("accuracy", 1.0 / 3, samples: 30)],
                items: items("accuracy", right((0..<30).map { $0 < 10 }))),
        ]
        let b = PairedComparison.compare(runs) { _, _ in nil }[1]
        #expect(abs(try #require(b.pValue) - mcNemar(20, 0)) < 1e-15)
        // An accuracy row without threshold: its right/wrong items say more right is better.
        #expect(b.verdict == .worse)
    }

    @Test func aMismatchCountComparesTheWrongItems() throws {
        let ref = (0..<10).map { $0 != 3 }  // 1 wrong
        let cand = (0..<10).map { $0 > 4 }  // 5 wrong: b = 4 (0,1,2,4), c = 0
        let runs = [
            PairedComparison.Run(
                system: "a", rows: [row("m", 1, samples: 10, unit: "count", comparator: .equal, threshold: 0)],
                items: items("m", right(ref))),
            PairedComparison.Run(
                system: "b", rows: [row("m", 5, samples: 10, unit: "count", comparator: .equal, threshold: 0)],
                items: items("m", right(cand))),
        ]
        let b = PairedComparison.compare(runs) { _, _ in nil }[1]
        #expect(b.delta == 4)
        #expect(abs(try #require(b.pValue) - mcNemar(4, 0)) < 1e-12)
        #expect(b.verdict == .noSignificantDifference)  // p = 0.125
    }

    @Test func numericErrorsAreTestedWithWilcoxonAndAPairedBootstrapOfTheMean() throws {
        let errors = (1...12).map(Double.init)
        func outcomes(_ e: [Double]) -> [ItemOutcome] {
            e.enumerated().map { ItemOutcome(item: "q\($0.offset)", expected: "", answer: "", error: $0.element) }
        }
        let runs = [
            PairedComparison.Run(
                system: "a", rows: [row("e_mean", 6.5, samples: 12, unit: "s")],
                items: items("e_mean", outcomes(errors))),
            PairedComparison.Run(
                system: "b", rows: [row("e_mean", 7.5 + 1.0 / 12, samples: 12, unit: "s")],
                items: items("e_mean", outcomes(errors.enumerated().map { $0.element + 1 + ($0.offset == 0 ? 1 : 0) }))),
        ]
        let rows = PairedComparison.compare(runs) { _, _ in .mean }
        let b = rows[1]
        #expect(b.method == .wilcoxonSignedRank)
        #expect(abs(try #require(b.delta) - (1 + 1.0 / 12)) < 1e-12)
        let expected = try #require(PairedTests.wilcoxonSignedRank(Array(repeating: 1.0, count: 11) + [2]))
        #expect(abs(try #require(b.pValue) - expected) < 1e-12)
        #expect(expected < 0.05)
        #expect(b.verdict == .worse)  // larger errors
        let ci = try #require(b.deltaCI)
        #expect(ci.low >= 1 - 1e-12 && ci.high <= 2 + 1e-12)
        // The value interval is the bootstrap of the case's named stream.
        let stream = RandomStream(seed: 7).substream(named: "bootstrap/REQ-1/e_mean")
        #expect(rows[0].ci == Bootstrap.interval(.mean, of: errors, stream: stream))
    }

    @Test func rowsWithoutItemsUseTheMoverIntervalAndAnInfoRowIsOnlyDifferent() throws {
        let runs = [
            PairedComparison.Run(system: "a", rows: [row("share", 0.5, samples: 100)], items: ItemIndex([])),
            PairedComparison.Run(system: "b", rows: [row("share", 0.7, samples: 100)], items: ItemIndex([])),
        ]
        let b = PairedComparison.compare(runs) { _, _ in nil }[1]
        let a = try #require(Intervals.wilson(successes: 50, trials: 100))
        let c = try #require(Intervals.wilson(successes: 70, trials: 100))
        #expect(b.method == .mover && b.pValue == nil)
        #expect(b.deltaCI == Intervals.difference(reference: 0.5, a, candidate: 0.7, c))
        #expect(b.verdict == .different)
    }

    @Test func aRowWithoutAReferenceRowOrIntervalIsUntested() {
        let runs = [
            PairedComparison.Run(system: "a", rows: [row("x", 3, samples: 2, unit: "count")], items: ItemIndex([])),
            PairedComparison.Run(
                system: "b",
                rows: [row("x", 4, samples: 2, unit: "count"), row("only_b", 1, samples: 1, unit: "count")],
                items: ItemIndex([])),
        ]
        let rows = PairedComparison.compare(runs) { _, _ in nil }
        #expect(rows.map(\.verdict) == [.reference, .untested, .untested])
        #expect(rows[1].delta == 1 && rows[2].delta == nil)
    }

    @Test func itemsArePairedByNameOccurrenceByOccurrence() {
        func o(_ item: String, _ answer: String) -> ItemOutcome {
            ItemOutcome(item: item, expected: "", answer: answer)
        }
        let pairs = ItemIndex.pairs(
            [o("x", "1"), o("y", "1"), o("x", "2"), o("z", "1")], [o("x", "a"), o("z", "b"), o("x", "c")])
        #expect(pairs.map { "\($0.0.item)\($0.0.answer)\($0.1.answer)" } == ["x1a", "x2c", "z1b"])
    }

    @Test func seedsAreTakenOffCaseLabels() {
        #expect(SeedSummary.labelWithoutSeed("s[a=1,seed=2]") == "s[a=1]")
        #expect(SeedSummary.labelWithoutSeed("s[seed=12]") == "s")
        #expect(SeedSummary.labelWithoutSeed("s[a=1]") == nil)
        #expect(SeedSummary.labelWithoutSeed("s") == nil)
        #expect(SeedSummary.labelWithoutSeed("s[a=seed=x]") == nil)
    }

    @Test func theSeedSummaryIsTheMeanWithItsStudentTInterval() throws {
        let rows =
            [1.0, 2, 4].enumerated().map { i, v in row("m", v, samples: 5, scenario: "s[a=1,seed=\(i + 1)]") }
            + [row("m", 9, samples: 0, scenario: "s[a=1,seed=4]")]  // no sample: left out
        let summary = SeedSummary.summarise(rows)
        let s = try #require(summary.first)
        #expect(summary.count == 1 && s.scenario == "s[a=1]" && s.seeds == 3)
        #expect(abs(s.mean - 7.0 / 3) < 1e-12)
        let sd = (42.0 / 18).squareRoot()
        #expect(abs(try #require(s.sd) - sd) < 1e-12)
        // t(0.975, 2) = 4.302652729911275
        let half = 4.302652729911275 * sd / 3.0.squareRoot()
        let ci = try #require(s.ci)
        #expect(abs(ci.low - (7.0 / 3 - half)) < 1e-9 && abs(ci.high - (7.0 / 3 + half)) < 1e-9)
        #expect(
            SeedSummary.render(summary).hasPrefix(
                "scenario,requirement,metric,unit,seeds,mean,sd,ci_low,ci_high\ns[a=1],REQ-1,m,ratio,3,"))
    }
}
