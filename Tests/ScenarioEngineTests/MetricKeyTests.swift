import MetricReports
import ScenarioEngine
import Testing

/// Typed metric keys: an app records only metrics its requirements list, through the keys it
/// declares; a key its requirement does not list is refused, never turned into a row.
@Suite("Metric keys: only declared metrics are recorded")
struct MetricKeyTests {
    static let answered = MetricKey("K-1", .atLeast("answered", 3, kind: .count, unit: "count"))
    static let wrong = MetricKey("K-1", .mismatches("wrong_answers"))
    static let requirement = RequirementDefinition(
        id: "K-1", source: "test", summary: "answers", measuredAs: "count", threshold: "≥ 3",
        metrics: [answered, wrong])

    static func rows(_ m: MetricCollector) -> [MetricRow] {
        m.rows(
            template: MetricRow.Template(scenario: "s", runID: "r", seed: 1, requirement: ""),
            requirements: [RequirementSpec(id: "K-1")])
    }

    @Test func aListedKeyRecordsWithItsDefinition() {
        let m = MetricCollector(requirements: [Self.requirement])
        #expect(m.declares(Self.answered) && m.undeclaredProblem(Self.answered) == nil)
        m.expect(Self.answered, 4, samples: 4)
        m.check(Self.wrong, true)
        m.check(Self.wrong, false)
        let rows = Self.rows(m)
        #expect(rows.map(\.metric) == ["wrong_answers", "answered"])
        #expect(rows[0].value == 1 && rows[0].samples == 2 && rows[0].status == .fail)
        #expect(rows[1].threshold == 3 && rows[1].comparator == .greaterOrEqual && rows[1].status == .pass)
        #expect(Self.requirement.metrics.map(\.name) == ["answered", "wrong_answers"])
    }

    @Test func aKeyItsRequirementDoesNotListIsRefusedWithAReason() throws {
        let m = MetricCollector(requirements: [Self.requirement])
        let unlisted = MetricKey("K-1", .mismatches("wrong_answer"))
        #expect(!m.declares(unlisted))
        let problem = try #require(m.undeclaredProblem(unlisted))
        #expect(problem.contains("K-1 does not list metric 'wrong_answer'") && problem.contains("add its key"))
        // Same name, another definition (a threshold changed at the call site): not the declared metric.
        let changed = MetricKey("K-1", .atLeast("answered", 5, kind: .count, unit: "count"))
        #expect(!m.declares(changed))
        #expect(m.undeclaredProblem(changed)?.contains("differs from the definition") == true)
        let elsewhere = MetricKey("K-2", .mismatches("wrong_answers"))
        #expect(m.undeclaredProblem(elsewhere)?.contains("requirement K-2, which the app does not define") == true)
    }

    /// Recording through a key the requirement does not list stops the run (a programming error in
    /// the app), before any row is made of it.
    @Test func recordingAnUnlistedKeyStops() async {
        await #expect(processExitsWith: .failure) {
            let m = MetricCollector(requirements: [MetricKeyTests.requirement])
            m.check(MetricKey("K-1", .mismatches("wrong_answer")), true)
        }
    }

    /// A key listed under another requirement's ID is a mistake in the app's definition.
    @Test func aKeyListedUnderAnotherRequirementStops() async {
        await #expect(processExitsWith: .failure) {
            _ = RequirementDefinition(
                id: "K-2", source: "test", summary: "s", measuredAs: "m", threshold: "t",
                metrics: [MetricKeyTests.wrong])
        }
    }

    /// `exact` records a count made at the end of the run with its key's fields, even for a name
    /// made at run time that the catalogue cannot list.
    @Test func anExactCountTakesItsKeysFields() throws {
        let m = MetricCollector(requirements: [Self.requirement])
        m.exact(MetricKey("K-1", .mismatches("batches_not_100")), failures: 2, checks: 7)
        let row = try #require(Self.rows(m).first { $0.metric == "batches_not_100" })
        #expect(row.value == 2 && row.samples == 7 && row.unit == "count" && row.threshold == 0)
        #expect(row.comparator == .lessOrEqual && row.status == .fail)
    }
}
