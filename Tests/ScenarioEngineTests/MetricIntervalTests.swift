import FieldtestGSL
import Foundation
import MetricReports
import Testing

@testable import ScenarioEngine

/// The 95 % interval each kind of row gets from the collector: Wilson for shares, a seeded bootstrap
/// for means and quantiles, Fisher's z for a correlation, none for extremes and sums.
@Suite("Metric collector: intervals on every row")
struct MetricIntervalTests {
    static let requirement = RequirementDefinition(
        id: "T-1", source: "test", summary: "a requirement", measuredAs: "samples", threshold: "see metrics",
        metrics: [
            .atLeast("hit_rate", 0.25, kind: .accuracy, unit: "ratio").over(.mean),
            .info("error_mean", kind: .accuracy, unit: "m").over(.mean),
            .atMost("error_p95", 40, kind: .accuracy, unit: "m").over(.quantile(0.95)),
            .info("error_max", kind: .accuracy, unit: "m").over(.max),
            .info("answers", kind: .count, unit: "count").over(.sum),
            .info("agreement", kind: .accuracy, unit: "r").over(.correlation),
            .info("accuracy", kind: .accuracy, unit: "ratio"),
            .info("macro_f1", kind: .accuracy, unit: "ratio").withoutInterval(),
            .latency("answer_time"),
        ])

    /// A collector fed the same samples every time (81 hits of 263; errors 0…262 m scrambled).
    static func collector() -> MetricCollector {
        let m = MetricCollector(requirements: [requirement])
        for k in 0..<263 {
            let error = Double((k * 97) % 263)
            m.sample("T-1", "hit_rate", k < 81 ? 1 : 0)
            m.sample("T-1", "error_mean", error)
            m.sample("T-1", "error_p95", error)
            m.sample("T-1", "error_max", error)
            m.add("T-1", "answers")
            m.sample("T-1", "agreement", pair: Double(k), Double(k) + error)
        }
        m.expect("T-1", "accuracy", 81.0 / 263, samples: 263)
        m.expect("T-1", "macro_f1", 0.4, samples: 263)
        return m
    }

    static func rows(_ m: MetricCollector, seed: UInt64 = 7) -> [String: MetricRow] {
        let rows = m.rows(
            template: MetricRow.Template(scenario: "s", runID: "r", seed: seed, requirement: ""),
            requirements: [RequirementSpec(id: "T-1")])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.metric, $0) })
    }

    /// Wilson by the textbook formula: centre (p + z²/2n)/(1 + z²/n), half-width
    /// z/(1 + z²/n)·√(p(1 − p)/n + z²/4n²).
    static func textbookWilson(_ k: Int, _ n: Int) -> (Double, Double) {
        let z = 1.959963984540054
        let p = Double(k) / Double(n)
        let d = 1 + z * z / Double(n)
        let centre = (p + z * z / (2 * Double(n))) / d
        let half = z / d * (p * (1 - p) / Double(n) + z * z / (4 * Double(n) * Double(n))).squareRoot()
        return (centre - half, centre + half)
    }

    @Test func aShareRowCarriesTheTextbookWilsonInterval() throws {
        let rows = Self.rows(Self.collector())
        let (low, high) = Self.textbookWilson(81, 263)
        // 81 of 263: [0.2553, 0.3662] (Newcombe 1998's worked figures, to four places).
        #expect(abs(low - 0.2553) < 5e-5 && abs(high - 0.3662) < 5e-5)
        for metric in ["hit_rate", "accuracy"] {
            let ci = try #require(rows[metric]?.ci, "\(metric)")
            #expect(abs(ci.low - low) < 1e-12 && abs(ci.high - high) < 1e-12, "\(metric): \(ci)")
        }
        // The threshold 0.25 lies below 0.2553: the pass is clear.
        #expect(rows["hit_rate"]?.status == .pass && rows["hit_rate"]?.margin == .clear)
    }

    @Test func meanAndQuantileRowsCarryADeterministicBootstrapIntervalAroundTheirValue() throws {
        let first = Self.rows(Self.collector())
        let second = Self.rows(Self.collector())
        for metric in ["error_mean", "error_p95"] {
            let row = try #require(first[metric])
            let ci = try #require(row.ci, "\(metric)")
            #expect(ci.low < row.value && row.value < ci.high, "\(metric): \(row.value) in \(ci)")
            #expect(ci == second[metric]?.ci, "\(metric): the same samples and seed give the same bits")
        }
        // Another seed draws other resamples.
        #expect(Self.rows(Self.collector(), seed: 8)["error_mean"]?.ci != first["error_mean"]?.ci)
    }

    @Test func extremesSumsAndNonSharesHaveNoInterval() throws {
        let rows = Self.rows(Self.collector())
        for metric in ["error_max", "answers", "macro_f1"] {
            #expect(rows[metric] != nil && rows[metric]?.ci == nil, "\(metric)")
            #expect(rows[metric]?.margin == nil, "\(metric)")
        }
    }

    @Test func aCorrelationCarriesFishersZInterval() throws {
        let row = try #require(Self.rows(Self.collector())["agreement"])
        let ci = try #require(row.ci)
        let half = 1.959963984540054 / (263.0 - 3).squareRoot()
        #expect(abs(ci.low - tanh(atanh(row.value) - half)) < 1e-12)
        #expect(abs(ci.high - tanh(atanh(row.value) + half)) < 1e-12)
    }

    @Test func latencyPercentilesCarryABootstrapIntervalAndTheMaximumNone() throws {
        let m = MetricCollector(requirements: [Self.requirement])
        for k in 0..<500 { m.latency("T-1", "answer_time", seconds: 0.001 * Double((k * 37) % 500 + 1)) }
        let rows = Self.rows(m)
        for p in ["p50", "p95", "p99"] {
            let row = try #require(rows["answer_time_\(p)"])
            let ci = try #require(row.ci, "\(p)")
            #expect(ci.low <= row.value && row.value <= ci.high, "\(p): \(row.value) in \(ci)")
            #expect(ci == Self.rows(m)["answer_time_\(p)"]?.ci)
        }
        #expect(rows["answer_time_max"]?.ci == nil && rows["answer_time_max"]?.value == 0.5)
    }

    @Test func aThresholdOverrideKeepsTheIntervalAndJudgesTheMarginAgain() throws {
        let m = Self.collector()
        let rows = m.rows(
            template: MetricRow.Template(scenario: "s", runID: "r", seed: 7, requirement: ""),
            requirements: [RequirementSpec(id: "T-1", threshold: 0.3, metric: "hit_rate")])
        let row = try #require(rows.first { $0.metric == "hit_rate" })
        // 0.308 passes 0.3, but 0.3 lies inside [0.2553, 0.3662].
        #expect(row.ci != nil && row.threshold == 0.3 && row.status == .pass && row.margin == .withinInterval)
    }
}
