import FieldtestGSL
import FieldtestTestSupport
import Foundation
import Testing

@testable import MetricReports

/// Whether a regression against a baseline is significant: paired tests on items, else the MOVER
/// interval of the two rows' intervals, else unknown; and which regressions `--fail-on` counts.
@Suite("Baseline check: significance of regressions")
struct SignificanceTests {
    static func row(_ value: Double, samples: Int = 1000, ci: ConfidenceInterval? = nil, metric: String = "accuracy")
        -> MetricRow
    {
        MetricRow(
            scenario: "s", runID: "r", seed: 1, requirement: "R-1", metric: metric, kind: .accuracy, value: value,
            unit: "ratio", threshold: nil, comparator: .none, samples: samples, ci: ci)
    }

    /// `n` right/wrong items: the first `right` right.
    static func items(_ n: Int, right: Int) -> [String: ItemPoint] {
        Dictionary(uniqueKeysWithValues: (0..<n).map { ("\($0)", ItemPoint(correct: $0 < right, error: nil)) })
    }

    @Test func aTinyChangeOnManyPairedItemsIsNotSignificantAndALargeOneIs() {
        // 1000 items: 800 right in the baseline; 797 (3 fewer) or 700 (100 fewer) now.
        let tiny = ChangeSignificance.judge(
            baseline: Self.row(0.8), current: Self.row(0.797), baselineItems: Self.items(1000, right: 800),
            currentItems: Self.items(1000, right: 797))
        #expect(tiny.significant == .no && tiny.basis.hasPrefix("McNemar exact p = "), "\(tiny.basis)")
        let large = ChangeSignificance.judge(
            baseline: Self.row(0.8), current: Self.row(0.7), baselineItems: Self.items(1000, right: 800),
            currentItems: Self.items(1000, right: 700))
        #expect(large.significant == .yes, "\(large.basis)")
        // b = 0, c = 100 discordant pairs: p = 2 · 0.5¹⁰⁰.
        #expect(large.basis.contains("(100 right only in the baseline, 0 only in this run)"), "\(large.basis)")
    }

    @Test func numericItemsAreJudgedByWilcoxon() {
        let base = Dictionary(
            uniqueKeysWithValues: (0..<40).map { ("\($0)", ItemPoint(correct: nil, error: Double($0))) })
        let shifted = base.mapValues { ItemPoint(correct: nil, error: $0.error! + 5) }
        let judged = ChangeSignificance.judge(
            baseline: Self.row(20, metric: "error_mean"), current: Self.row(25, metric: "error_mean"),
            baselineItems: base, currentItems: shifted)
        #expect(judged.significant == .yes && judged.basis.hasPrefix("Wilcoxon"), "\(judged.basis)")
        let same = ChangeSignificance.judge(
            baseline: Self.row(20, metric: "error_mean"), current: Self.row(20, metric: "error_mean"),
            baselineItems: base, currentItems: base)
        #expect(same.significant == .no)
    }

    @Test func withoutItemsTheIntervalsDecideAndAnOldBaselineGetsWilson() throws {
        // This run's row has the Wilson interval of its value and samples: the baseline (no interval,
        // recorded before intervals) gets its own Wilson interval.
        let current = try #require(Intervals.wilson(proportion: 0.797, trials: 1000))
        let small = ChangeSignificance.judge(
            baseline: Self.row(0.8), current: Self.row(0.797, ci: current), baselineItems: nil, currentItems: nil)
        #expect(small.significant == .no && small.basis.contains("MOVER"), "\(small.basis)")
        let big = ChangeSignificance.judge(
            baseline: Self.row(0.9), current: Self.row(0.797, ci: current), baselineItems: nil, currentItems: nil)
        #expect(big.significant == .yes, "\(big.basis)")
        let none = ChangeSignificance.judge(
            baseline: Self.row(0.9), current: Self.row(0.797), baselineItems: nil, currentItems: nil)
        #expect(none.significant == .unknown)
    }

    @Test func failOnSignificantCountsSignificantAndUnknownRegressionsOnly() throws {
        let base = [Self.row(0.8), Self.row(0.5, metric: "share")]
        let ci = try #require(Intervals.wilson(proportion: 0.797, trials: 1000))
        let noisy = BaselineCheck.compare(
            current: [Self.row(0.797, ci: ci), Self.row(0.5, metric: "share")], baseline: base)
        #expect(noisy.regressions.count == 1 && noisy.regressions[0].significance?.significant == .no)
        #expect(noisy.fails(on: .any) && !noisy.fails(on: .significant))
        // No interval on either side: unknown, which `significant` counts.
        let unjudged = BaselineCheck.compare(
            current: [Self.row(0.797), Self.row(0.5, metric: "share")], baseline: base)
        #expect(unjudged.regressions.first?.significance?.significant == .unknown)
        #expect(unjudged.fails(on: .significant))
        // A missing checked row is no sampling question.
        var checked = Self.row(0.8)
        checked.threshold = 0.5
        checked.comparator = .greaterOrEqual
        checked.reevaluateStatus()
        let lost = BaselineCheck.compare(current: [], baseline: [checked])
        #expect(lost.regressions.first?.significance?.significant == .yes && lost.fails(on: .significant))
    }

    @Test func pairedItemsAreReadFromItemsCSVFilesForTheRegressionsOnly() throws {
        let dir = TemporaryFiles.url("sig")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func write(_ name: String, right: Int) throws -> URL {
            var text = ItemsCSV.header
            for k in 0..<1000 {
                text += "s,R-1,accuracy,\(k),positive,\(k < right ? "positive" : "negative"),\(k < right),\n"
            }
            text += "s,R-1,other,0,a,b,true,\n"
            let url = dir.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
        let ci = try #require(Intervals.wilson(proportion: 0.797, trials: 1000))
        let report = BaselineCheck.compare(current: [Self.row(0.797, ci: ci)], baseline: [Self.row(0.8)])
        let judged = try report.judgingPairedItems(
            baselineItems: try write("base.items.csv", right: 800), currentItems: try write("items.csv", right: 797))
        let s = try #require(judged.regressions.first?.significance)
        #expect(s.significant == .no && s.basis.contains("on 1000 paired items"), "\(s.basis)")
    }

    @Test func latencyQuantilesOfTheHistogramAreType7OfEverySample() {
        var recorder = LatencyRecorder()
        var samples: [Double] = []
        for k in 0..<2000 {
            let s = 0.0001 * Double((k * 7919) % 1999 + 1)
            recorder.record(seconds: s)
            samples.append(s)
        }
        let b = recorder.buckets
        #expect(b.counts.reduce(0, +) == 2000)
        // The same definition as `Quantiles` on the bucket values repeated by their counts.
        let expanded = zip(b.seconds, b.counts).flatMap { Array(repeating: $0.0, count: Int($0.1)) }
        for p in [0.5, 0.95, 0.99] {
            let q = Quantiles.quantile(sorted: expanded, probability: p)
            #expect(recorder.seconds(atPercentile: p * 100) == q)
            // Within the histogram's 0.1 % of the exact sample quantile.
            let exact = Quantiles.quantile(sorted: samples.sorted(), probability: p)!
            #expect(abs(q! - exact) <= exact * 0.002, "\(p): \(q!) vs \(exact)")
        }
    }
}
