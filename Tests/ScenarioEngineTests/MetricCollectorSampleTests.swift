import MetricReports
import Testing

@testable import ScenarioEngine

/// The collector's sample API: checks recorded where they are made become rows in the order the
/// requirement declares its metrics, each summarised as asked, with the definition's fields.
@Suite("Metric collector: samples recorded as the run goes")
struct MetricCollectorSampleTests {
    static let requirement = RequirementDefinition(
        id: "T-1", source: "test", summary: "a requirement", measuredAs: "samples", threshold: "see metrics",
        metrics: [
            .mismatches("wrong_answers"),
            .atMost("error_p95", 2, kind: .accuracy, unit: "m").over(.quantile(0.95)),
            .info("error_mean", kind: .accuracy, unit: "m").over(.mean),
            .info("error_max", kind: .accuracy, unit: "m").over(.max),
            .atLeast("agreement", 0.5, kind: .accuracy, unit: "r").over(.correlation),
            .info("answers", kind: .count, unit: "count").over(.sum),
            MetricDefinition("denied", kind: .count, unit: "count", comparator: .equal).over(.sum),
        ])

    static func rows(_ m: MetricCollector) -> [MetricRow] {
        m.rows(
            template: MetricRow.Template(scenario: "s", runID: "r", seed: 1, requirement: ""),
            requirements: [RequirementSpec(id: "T-1")])
    }

    @Test func rowsFollowTheDefinitionWhateverTheRecordingOrder() throws {
        let m = MetricCollector(requirements: [Self.requirement])
        for (k, error) in [4.0, 1, 3, 2].enumerated() {
            m.add("T-1", "answers")
            m.sample("T-1", "error_max", error)
            m.sample("T-1", "error_mean", error)
            m.sample("T-1", "error_p95", error)
            m.check("T-1", "wrong_answers", k != 2)
            m.sample("T-1", "agreement", pair: Double(k), 2 * Double(k) + 1)
        }
        let rows = Self.rows(m)
        #expect(
            rows.map(\.metric) == ["wrong_answers", "error_p95", "error_mean", "error_max", "agreement", "answers"])
        let byName = Dictionary(uniqueKeysWithValues: rows.map { ($0.metric, $0) })
        #expect(byName["wrong_answers"]?.value == 1 && byName["wrong_answers"]?.samples == 4)
        #expect(byName["wrong_answers"]?.status == .fail)
        // Type-7 quantile of 1, 2, 3, 4 at 0.95: 3 + 0.85 × (4 − 3).
        #expect(abs((byName["error_p95"]?.value ?? 0) - 3.85) < 1e-12)
        #expect(byName["error_p95"]?.status == .fail && byName["error_p95"]?.threshold == 2)
        #expect(byName["error_mean"]?.value == 2.5 && byName["error_max"]?.value == 4)
        #expect(byName["error_mean"]?.unit == "m" && byName["error_mean"]?.comparator == ThresholdComparator.none)
        // y = 2x + 1 exactly: r = 1 (to rounding).
        #expect(abs((byName["agreement"]?.value ?? 0) - 1) < 1e-12 && byName["agreement"]?.status == .pass)
        #expect(byName["answers"]?.value == 4 && byName["answers"]?.samples == 4)
    }

    @Test func aThresholdDerivedFromTheRunReplacesTheDefinitionsNone() throws {
        let m = MetricCollector(requirements: [Self.requirement])
        m.add("T-1", "denied", 1, threshold: 1)
        m.add("T-1", "denied", 0, threshold: 2)
        let row = try #require(Self.rows(m).first)
        #expect(row.value == 1 && row.threshold == 2 && row.status == .fail)
    }

    /// A metric added with nothing checked still has its row; a checked one with no samples is
    /// `not_measured` with a note, as every row with no evidence is.
    @Test func aMetricTouchedWithoutSamplesIsReportedAndCannotPass() throws {
        let m = MetricCollector(requirements: [Self.requirement])
        m.add("T-1", "answers", 0, samples: 0)
        m.add("T-1", "wrong_answers", 0, samples: 0)
        let rows = Self.rows(m)
        #expect(rows.map(\.metric) == ["wrong_answers", "answers"])
        #expect(rows[0].status == .notMeasured && !rows[0].note.isEmpty && rows[1].status == .info)
    }

    @Test func correlationIsZeroWhenUndefined() {
        #expect(MetricCollector.SampleSeries.correlation([1], [2]) == 0)
        #expect(MetricCollector.SampleSeries.correlation([1, 2, 3], [5, 5, 5]) == 0)
        #expect(abs(MetricCollector.SampleSeries.correlation([1, 2, 3], [3, 2, 1]) + 1) < 1e-12)
    }
}
