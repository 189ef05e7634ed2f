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
        m.exact("BTD-S1", "entries_lost", failures: lost, checks: savedOrder.count)
        m.exact("BTD-S1", "entries_duplicated", failures: duplicated, checks: savedOrder.count)
        var outbox = 0
        var crashes = 0
        var counts: [String: Int] = [:]
        for name in phones.keys.sorted() {
            guard let p = phones[name] else { continue }
            outbox += try p.store.outboxCount()
            crashes += p.crashes
            for (k, v) in p.transport.counts { counts[k, default: 0] += v }
        }
        m.expect("BTD-S1", "outbox_left", Double(outbox), samples: savedOrder.count)
        m.expect("BTD-S1", "resent_deliveries", Double(stats.deliveries - stats.distinctIDs), samples: stats.deliveries)
        m.expect("BTD-S1", "crashes_between_send_and_ack", Double(crashes), samples: stats.deliveries)
        for key in ["offline", "requestLost", "responseLost", "delivered"] {
            m.expect("BTD-S1", "pushes_\(key)", Double(counts[key, default: 0]), samples: counts.values.reduce(0, +))
        }
        // Sync latency: from the local save to the server's first receipt (virtual time).
        for id in savedOrder {
            guard let e = saved[id], let first = stats.firstReceived[id] else { continue }
            m.latency("BTD-J2", "sync_latency", seconds: max(0, first.timeIntervalSince(e.savedAt)))
        }
    }
}
