import AccountStore
import Foundation
import ScenarioEngine

extension JournalDriver {
    /// Compares the server with what the phones saved (BTD-S1) and records the exact checks.
    public func finish(_ run: RunContext) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        if let failure { throw failure }
        let m = run.metrics
        guard let server else { return }
        let onServer = try server.allEntries()
        let stats = try server.statistics()
        var byID: [UUID: JournalEntry] = [:]
        for e in onServer { byID[e.id] = e }
        // Lost: saved on a phone but absent from the server, or arrived altered.
        let lost = savedOrder.filter { id in byID[id] != saved[id] }.count
        // Duplicated: extra rows for one ID, or the same entry stored under two IDs.
        var seen: [String: Int] = [:]
        for e in onServer {
            seen["\(e.userID)\u{1F}\(e.savedAt.timeIntervalSince1970)\u{1F}\(e.title)\u{1F}\(e.body)", default: 0] += 1
        }
        let duplicated =
            (stats.rows - stats.distinctIDs) + seen.values.reduce(0) { $0 + max(0, $1 - 1) }
            + max(0, onServer.count - savedOrder.count)
        m.exact(Metric.entriesLost, failures: lost, checks: savedOrder.count)
        m.exact(Metric.entriesDuplicated, failures: duplicated, checks: savedOrder.count)
        var outbox = 0
        var crashes = 0
        var counts: [String: Int] = [:]
        for name in phones.keys.sorted() {
            guard let p = phones[name] else { continue }
            outbox += try p.store.outboxCount()
            crashes += p.crashes
            for (k, v) in p.transport.counts { counts[k, default: 0] += v }
        }
        m.expect(Metric.outboxLeft, Double(outbox), samples: savedOrder.count)
        m.expect(Metric.resentDeliveries, Double(stats.deliveries - stats.distinctIDs), samples: stats.deliveries)
        m.expect(Metric.crashesBetweenSendAndAck, Double(crashes), samples: stats.deliveries)
        for (key, metric) in [
            ("offline", Metric.pushesOffline), ("requestLost", Metric.pushesRequestLost),
            ("responseLost", Metric.pushesResponseLost), ("delivered", Metric.pushesDelivered),
        ] {
            m.expect(metric, Double(counts[key, default: 0]), samples: counts.values.reduce(0, +))
        }
        // Sync latency: from the local save to the server's first receipt (virtual time).
        for id in savedOrder {
            guard let e = saved[id], let first = stats.firstReceived[id] else { continue }
            m.latency(Metric.syncLatency, seconds: max(0, first.timeIntervalSince(e.savedAt)))
        }
    }
}
