import Foundation

/// Settings of a deterministic offline-sync run (BTD-S1).
public struct SyncHarnessConfiguration: Sendable, Equatable {
    /// Entries written on the device.
    public var entryCount: Int = 2_000
    /// Mean virtual seconds between local saves (exponential).
    public var meanSecondsBetweenSaves: Double = 20
    /// Probability that a save edits an earlier entry instead of writing a new one.
    public var editProbability: Double = 0.1
    /// Mean length of an online period, virtual seconds (exponential).
    public var meanOnlineSeconds: Double = 900
    /// Mean length of an offline period, virtual seconds (exponential).
    public var meanOfflineSeconds: Double = 600
    /// Probability that a request is lost.
    public var requestLossProbability: Double = 0.15
    /// Probability that a response is lost after the server stored the batch.
    public var responseLossProbability: Double = 0.15
    /// Probability of a crash between send and acknowledgement, per push.
    public var crashProbability: Double = 0.05
    /// Virtual seconds the app takes to relaunch after a crash.
    public var restartSeconds: Double = 5
    /// Entries per push.
    public var batchSize: Int = 50
    /// Give up draining after this many virtual seconds past the last save.
    public var drainLimitSeconds: Double = 7 * 86_400

    /// Defaults: 2,000 entries, 15 % request loss, 15 % response loss, 5 % crashes.
    public init() {}
}

/// The outcome of a run.
public struct SyncHarnessReport: Sendable, Equatable {
    /// Distinct entries written on the device.
    public let entriesCreated: Int
    /// Saves that edited an earlier entry.
    public let edits: Int
    /// Entries written on the device that never reached the server (must be 0).
    public let lost: Int
    /// Server rows beyond one per entry ID (must be 0).
    public let duplicated: Int
    /// Entries whose server copy differs from the device's latest revision (must be 0).
    public let stale: Int
    /// Pushes attempted.
    public let pushes: Int
    /// Entry deliveries the server received in total (≥ entries; more means retries happened).
    public let deliveries: Int
    /// Outcome counts of the transport: delivered, offline, requestLost, responseLost, crashedAfterSend.
    public let transportCounts: [String: Int]
    /// Emulated application restarts.
    public let restarts: Int
    /// Largest outbox seen.
    public let maxOutbox: Int
    /// Wall-clock duration of every local save (seconds, monotonic clock): BTD-J2.
    public let localCommitSeconds: [Double]
    /// Virtual seconds from a new entry's save to its first arrival at the server.
    public let syncDelaySeconds: [Double]
    /// Virtual seconds from the last save until the outbox was empty.
    public let drainSeconds: Double
}

/// A deterministic end-to-end run of the offline-first journal: a device store in `directory`,
/// an ``EmulatedJournalServer``, a ``FlakyTransport`` and emulated crashes that reopen the
/// store from its file. Same configuration and seed ⇒ same report, except
/// `localCommitSeconds`, which is measured on the real monotonic clock.
public enum SyncHarness {
    /// Runs the scenario. Virtual time starts at `start`.
    public static func run(
        _ config: SyncHarnessConfiguration, directory: URL, start: Date,
        using rng: inout some RandomNumberGenerator
    ) throws(AccountStoreError) -> SyncHarnessReport {
        let fileSeed = UInt64.random(in: 0...UInt64.max, using: &rng)
        let path = directory.appendingPathComponent("journal-\(fileSeed).sqlite").path
        // The journal's key and nonces come from the file's seed (seeded: a harness, not real data).
        var keyRNG = SeededGenerator(seed: fileSeed ^ 0x6B65_795F_6A6F_7572)
        let keys = try KeyProvider(keyBytes: AccountRandomness.bytes(32, using: &keyRNG))
        // Each opening of the store gets its own nonce sequence (never the same one again).
        var nonceSeeds = SeededGenerator(seed: fileSeed ^ 0x6E6F_6E63_6573_5F6A)
        let server = try EmulatedJournalServer()
        var transport = FlakyTransport(
            server: server, isOnline: true, requestLossProbability: config.requestLossProbability,
            responseLossProbability: config.responseLossProbability, crashProbability: config.crashProbability,
            rng: SeededGenerator(seed: rng.next()))
        var client: JournalSyncClient? = try JournalSyncClient(store: JournalStore(path: path, keys: keys, randomness: SeededGenerator(seed: nonceSeeds.next())), now: start, batchSize: config.batchSize)
        var restartAt: Date?
        var latest: [UUID: JournalEntry] = [:]
        var order: [UUID] = []
        var firstSaved: [UUID: Date] = [:]
        var commitSeconds: [Double] = []
        var edits = 0, pushes = 0, restarts = 0, maxOutbox = 0
        let clock = ContinuousClock()
        let catalogue = PromptCatalogue.bundled

        func exponential(_ mean: Double) -> Double {
            -mean * log(1 - Double.random(in: 0..<1, using: &rng))
        }
        var now = start
        var nextSave = start.addingTimeInterval(exponential(config.meanSecondsBetweenSaves))
        var nextToggle = start.addingTimeInterval(exponential(config.meanOnlineSeconds))
        var saves = 0
        var lastSaveAt = start
        var drainedAt: Date?

        while true {
            let savesDone = latest.count >= config.entryCount
            if savesDone {
                if restartAt == nil, let device = client, try device.store.outboxCount() == 0 { drainedAt = now; break }
                if now.timeIntervalSince(lastSaveAt) > config.drainLimitSeconds { break }
            }
            var candidates: [Date] = [nextToggle]
            if !savesDone { candidates.append(nextSave) }
            if let r = restartAt { candidates.append(r) }
            if let due = client?.nextAttemptAt { candidates.append(max(due, now)) }
            guard let next = candidates.min() else { break }
            now = max(now, next)

            if let r = restartAt, r <= now {
                // Relaunch: reopen the store from its file, as a fresh process would.
                client = try JournalSyncClient(store: JournalStore(path: path, keys: keys, randomness: SeededGenerator(seed: nonceSeeds.next())), now: now, batchSize: config.batchSize)
                restartAt = nil
                restarts += 1
                continue
            }
            if nextToggle <= now {
                transport.isOnline.toggle()
                nextToggle = now.addingTimeInterval(exponential(transport.isOnline ? config.meanOnlineSeconds : config.meanOfflineSeconds))
                if transport.isOnline { client?.connectivityRestored(now: now) }
                continue
            }
            if !savesDone, nextSave <= now, var device = client {
                let isEdit = !order.isEmpty && Double.random(in: 0..<1, using: &rng) < config.editProbability
                var entry: JournalEntry
                if isEdit, let id = order.randomElement(using: &rng), let old = latest[id] {
                    entry = old
                    entry.body += "\nEdited at \(now.timeIntervalSince1970)."
                    edits += 1
                } else {
                    let category = catalogue.categories.randomElement(using: &rng) ?? "Reflection"
                    entry = JournalEntry(
                        id: AccountRandomness.uuid(using: &rng), userID: "user-\(saves % 7)",
                        title: "Entry \(saves) \u{1F305}", body: "Body of entry \(saves): 'quoted' \"double\"; DROP TABLE entries;--",
                        savedAt: now, category: category, prompt: catalogue.prompts(in: category).first,
                        type: saves % 3 == 0 ? .pictureDiary : .journal,
                        photoReference: saves % 3 == 0 ? "photo-\(saves).heic" : nil)
                }
                let began = clock.now
                let stored = try device.store.save(entry)
                let elapsed = clock.now - began
                commitSeconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
                if latest[stored.id] == nil { order.append(stored.id); firstSaved[stored.id] = now }
                latest[stored.id] = stored
                device.noteLocalChange(now: now)
                client = device
                saves += 1
                lastSaveAt = now
                maxOutbox = max(maxOutbox, try device.store.outboxCount())
                nextSave = now.addingTimeInterval(exponential(config.meanSecondsBetweenSaves))
                continue
            }
            if var device = client, let due = device.nextAttemptAt, due <= now {
                pushes += 1
                let outcome = try device.step(now: now, transport: &transport, using: &rng)
                if outcome == .crashed {
                    client = nil
                    restartAt = now.addingTimeInterval(config.restartSeconds)
                } else {
                    client = device
                }
                continue
            }
            // Nothing was due at `now` (e.g. the client is waiting for a restart); move on.
            now = now.addingTimeInterval(1)
        }

        let onServer = try server.allEntries()
        let stats = try server.statistics()
        var serverByID: [UUID: JournalEntry] = [:]
        for e in onServer { serverByID[e.id] = e }
        let lost = latest.keys.filter { serverByID[$0] == nil }.count
        let stale = latest.values.filter { entry in serverByID[entry.id].map { $0 != entry } ?? false }.count
        let delays = order.compactMap { id -> Double? in
            guard let saved = firstSaved[id], let arrived = stats.firstReceived[id] else { return nil }
            return arrived.timeIntervalSince(saved)
        }
        return SyncHarnessReport(
            entriesCreated: latest.count, edits: edits, lost: lost, duplicated: stats.rows - stats.distinctIDs,
            stale: stale, pushes: pushes, deliveries: stats.deliveries, transportCounts: transport.counts,
            restarts: restarts, maxOutbox: maxOutbox, localCommitSeconds: commitSeconds, syncDelaySeconds: delays,
            drainSeconds: (drainedAt ?? now).timeIntervalSince(lastSaveAt))
    }
}
