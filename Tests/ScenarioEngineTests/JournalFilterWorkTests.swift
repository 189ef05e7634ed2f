import FieldtestData
import Foundation
import Testing

@testable import ScenarioEngine

/// A journal filter scans every entry posted before it, so the loader weighs it by them.
@Suite("Journal filter work")
struct JournalFilterWorkTests {
    let limits = ScenarioLimitsTests()

    /// One actor posting `batches` × `entries` entries, then filtering `filters` times, every second.
    func journal(batches: Int, entries: Int, filters: Int) -> String {
        """
        version: 1
        name: journal-big
        app: journal
        seed: 515
        time: {start: 2024-06-01T08:00:00+02:00, duration: 24h, timezone: Europe/Berlin}
        datasets: [sentiment140-positive]
        devices:
          - {name: phone, gps: urban, network: wifi}
        actors:
          - name: ana
            device: phone
            actions:
              - {at: 1m, do: sign-up, username: ana, email: ana@example.org, password: "Hiking-2024 fjords"}
              - {at: 6m, do: login, username: ana@example.org, password: "Hiking-2024 fjords"}
              - {at: 10m, every: 1m, count: \(batches), do: post-entries, entries: \(entries)}
              - {at: 2h, every: 1s, count: \(filters), do: filter-entries, category: Travel}
        feeds:
          - {kind: sync, every: 1m}
        requirements: [BTD-A1, BTD-J1, BTD-S1]

        """
    }

    @Test("N20: filters over 400,000 stored entries, planned for hours, are refused at the filter action")
    func n20FiltersAreWeighedByTheEntriesTheyScan() {
        let errors = limits.errors(journal(batches: 40, entries: 10_000, filters: 15_000))
        #expect(errors.count == 1, "\(errors)")
        #expect(
            errors.first?.hasPrefix(
                "x.yaml:16:9: error: the scenario's 'filter-entries' actions scan 6000000000 stored entries") == true,
            "\(errors)")
        #expect(errors.first?.contains("the most is 1000000") == true)
        // The same filters over fewer entries fit: 500 filters × 400,000 entries is 1,000,000 units.
        #expect(limits.errors(journal(batches: 40, entries: 10_000, filters: 500)) == [])
        #expect(limits.errors(journal(batches: 40, entries: 10_000, filters: 501)).count == 1)
        // Entries posted after the filters do not count.
        #expect(
            limits.errors(
                journal(batches: 40, entries: 10_000, filters: 15_000).replacingOccurrences(
                    of: "{at: 10m, every: 1m, count: 40", with: "{at: 23h, every: 1m, count: 40")) == [])
    }
}
