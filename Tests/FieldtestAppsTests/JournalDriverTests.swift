import FieldtestData
import Foundation
import MetricReports
import ScenarioEngine
import Testing

@testable import FieldtestApps

@Suite("Journal driver")
struct JournalDriverTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The committed scenario with `entries` per writing session instead of 250 (the
    /// sign-ups and logins stay: each costs a real 600k-iteration PBKDF2).
    func scenario(entries: Int) throws -> Scenario {
        let url = Self.repo.appendingPathComponent("Scenarios/beentheredonethat-offline-sync.yaml")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("entries: 250"))
        return try ScenarioLoader(datasetNames: nil).parse(
            text.replacingOccurrences(of: "entries: 250", with: "entries: \(entries)"),
            file: "beentheredonethat-offline-sync.yaml")
    }

    func run(_ s: Scenario) throws -> [MetricRow] {
        let store = DatasetStore(manifest: try DatasetManifest(root: Self.repo.appendingPathComponent("Datasets")))
        return try ScenarioRunner.run(
            ScenarioRunner.cases(of: s), jobs: 1, runID: "t", datasets: store,
            apps: .bundled
        ).flatMap(\.rows)
    }

    func row(_ rows: [MetricRow], _ req: String, _ metric: String) -> MetricRow? {
        rows.first { $0.requirement == req && $0.metric == metric }
    }

    @Test func flakySyncWithCrashesLosesAndDuplicatesNothing() throws {
        let rows = try run(try scenario(entries: 20))
        // 12 sessions × 20 entries, all saved, read back and on the server exactly once.
        let lost = try #require(row(rows, "BTD-S1", "entries_lost"))
        #expect(lost.value == 0 && lost.samples == 240)
        #expect(row(rows, "BTD-S1", "entries_duplicated")?.value == 0)
        #expect(row(rows, "BTD-S1", "outbox_left")?.value == 0)
        // The four armed crashes all happened, and some batches were resent.
        #expect(row(rows, "BTD-S1", "crashes_between_send_and_ack")?.value == 4)
        #expect((row(rows, "BTD-S1", "resent_deliveries")?.value ?? 0) >= 4)
        #expect((row(rows, "BTD-S1", "pushes_offline")?.value ?? 0) > 0)
        for (req, metric, checks) in [
            ("BTD-A1", "account_record_mismatches", 5), ("BTD-A2", "login_outcome_mismatches", 4),
            ("BTD-J1", "entry_record_mismatches", 240), ("BTD-J3", "filter_result_mismatches", 4),
            ("BTD-P1", "prompt_group_mismatches", 14),
        ] {
            let r = try #require(row(rows, req, metric))
            #expect(r.value == 0, "\(req)")
            #expect(r.samples == checks, "\(req)")
        }
        #expect(row(rows, "BTD-J2", "local_commit_p95")?.samples == 240)
        #expect(row(rows, "BTD-A2", "login_verification_p95")?.samples == 4)
    }

    @Test func sameSeedGivesIdenticalNonLatencyRows() throws {
        let s = try scenario(entries: 5)
        let a = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        let b = MetricsCSV.render(try run(s).filter { $0.kind != .latency })
        #expect(a == b)
        #expect(a.contains("BTD-S1,entries_lost"))
    }
}
