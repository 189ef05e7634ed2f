import AccountStore
import DeviceEmulation
import FieldtestData
import FieldtestGSL
import Foundation
import MetricReports
import ScenarioEngine

/// Drives BeenThereDoneThat (beentheredonethat-srs.txt) through a scenario:
/// accounts in an encrypted SQLite registry with the real PBKDF2 cost, journal
/// entries committed to the phone's encrypted SQLite store at once and synchronised
/// to an emulated server over the phone's flaky link, with crashes between send and
/// acknowledgement. The key, salts and nonces come from the scenario seed's named
/// streams so that runs repeat exactly: an emulation, not protection for real data.
///
/// Entry bodies are real recorded texts (Sentiment140 tweets: emoji, quotes,
/// HTML entities), titles their first words, categories and prompts from the
/// bundled prompt catalogue. Reports BTD-A1, BTD-A2, BTD-J1, BTD-J2, BTD-J3,
/// BTD-P1 and BTD-S1.
public final class JournalDriver: AppDriver, EventErrorKeeping {
    /// The app's metric keys (`JournalDefinition.Metric`), as the driver records them.
    typealias Metric = JournalDefinition.Metric

    /// Login failure message of the specifications (SkyScape LOG1, BTD 5.2.2.5).
    static let loginFailureMessage = "Incorrect username or password. Please try again."
    /// Entries per sync push.
    static let syncBatch = 50

    struct Phone {
        var device: Device
        var path: String
        var store: JournalStore
        var client: JournalSyncClient
        var transport: DeviceJournalTransport
        var crashes = 0
    }

    var folder = EmulatedDevices.temporaryFolder()
    var registry: AccountRegistry?
    var server: EmulatedJournalServer?
    var phones: [String: Phone] = [:]
    var accountRNG: RandomStream?
    /// The journal key (seeded from the scenario: an emulation, never real data).
    var keys: KeyProvider?
    /// Per device, where each opening of its journal draws the seed of its AES-GCM nonces.
    var nonceStreams: [String: RandomStream] = [:]
    var entryRNG: RandomStream?
    var backoffRNG: RandomStream?
    var bodies: [String] = []
    var failure: (any Error)?

    /// Where the checks go (set in `start`).
    var metrics = MetricCollector()
    /// The app's "Recommended Prompts" screen: the bundled collection grouped by category (a test
    /// may give a wrongly grouped one to see BTD-P1 fail).
    var prompts = PromptCatalogue.bundled
    /// Users by username: (id, email).
    var users: [String: (id: String, email: String?)] = [:]
    var userIDs = Set<String>()
    var currentUser: [String: String] = [:]  // device → user ID
    /// Every entry saved, by ID, as the app saved it.
    var saved: [UUID: JournalEntry] = [:]
    var savedOrder: [UUID] = []

    public init() {}

    public func start(_ run: RunContext) throws {
        metrics = run.metrics
        let s = run.scenario
        let devices = try EmulatedDevices.make(for: run, cacheFolder: folder)
        let keyStream = run.stream("journal-key")
        var keyBytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: keyStream.next().littleEndian) { keyBytes += $0 } }
        let iterations = Int(
            run.number("kdf_iterations", default: Double(PasswordHashingParameters.productionMinimumIterations)))
        let keys = try KeyProvider(keyBytes: keyBytes)
        self.keys = keys
        registry = try AccountRegistry(
            path: folder.appendingPathComponent("accounts.sqlite").path, keys: keys,
            configuration: AccountRegistryConfiguration(
                policy: .beenThereDoneThat,
                hashing: try PasswordHashingParameters(iterations: iterations)),
            durability: .emulated)
        let server = try EmulatedJournalServer()
        self.server = server
        accountRNG = run.stream("journal-accounts")
        entryRNG = run.stream("journal-entries")
        backoffRNG = run.stream("journal-backoff")
        let bodyDataset = try run.dataset(
            parameter: nil, formats: [.tweetLines], what: "file of texts for journal entries (one per line)")
        let bodyURL = try run.datasets.url(bodyDataset)
        bodies = try run.datasets.cached("journal-bodies-" + bodyDataset) {
            try Sentiment140Loader.load(url: bodyURL, label: .positive, displayName: DatasetManifest.display(bodyURL))
                .records.map(\.text)
        }
        for spec in s.devices {
            guard let device = devices[spec.name] else { continue }
            let path = folder.appendingPathComponent("\(spec.name)-journal.sqlite").path
            nonceStreams[spec.name] = run.stream("journal-nonces-\(spec.name)")
            let store = try JournalStore(
                path: path, keys: keys, randomness: nonceGenerator(spec.name), durability: .emulated)
            let now = Date(timeIntervalSince1970: s.start)
            phones[spec.name] = Phone(
                device: device, path: path, store: store,
                client: try JournalSyncClient(store: store, now: now, batchSize: Self.syncBatch),
                transport: DeviceJournalTransport(
                    server: server, device: device, rng: run.stream("journal-transport-\(spec.name)")))
        }
        for actor in s.actors where phones[actor.device] == nil {
            throw EmulatedDevices.BuildError(
                description: "\(s.file): error: actor '\(actor.name)' uses unknown device '\(actor.device)'")
        }
    }

    // MARK: Timeline (scheduled by the engine)

    public func restart(device: String, at time: Double, _ run: RunContext) {
        guarded { try reopen(device, at: time, crash: false) }
    }

    /// Connectivity returning cuts the back-off short.
    public func connectivityChanged(device: String, to state: String, at time: Double, _ run: RunContext) {
        guard state != "offline" else { return }
        guarded {
            phones[device]?.client.connectivityRestored(now: Date(timeIntervalSince1970: time))
            try sync(device, run: run, at: time)
        }
    }

    public func deliver(_ feed: FeedSpec, at time: Double, _ run: RunContext) {
        guard feed.kind == "sync" else { return }
        guarded { for name in phones.keys.sorted() { try sync(name, run: run, at: time) } }
    }

    public func perform(_ action: ActionSpec, actor: Int, at time: Double, _ run: RunContext) {
        let device = run.scenario.actors[actor].device
        guarded { try perform(action, run: run, device: device, at: time) }
    }

    /// A fresh nonce sequence for an opening of `device`'s journal (seeded: an emulation).
    func nonceGenerator(_ device: String) -> SeededGenerator {
        SeededGenerator(seed: nonceStreams[device]?.next() ?? 0)
    }

    /// Emulated app death (or reboot): the store is reopened from its file and a new sync client made.
    func reopen(_ name: String, at time: Double, crash: Bool) throws {
        guard var phone = phones[name] else { return }
        guard let keys else { return }
        phone.store = try JournalStore(
            path: phone.path, keys: keys, randomness: nonceGenerator(name), durability: .emulated)
        phone.client = try JournalSyncClient(
            store: phone.store, now: Date(timeIntervalSince1970: time), batchSize: Self.syncBatch)
        if crash { phone.crashes += 1 }
        phones[name] = phone
    }

    /// Pushes due batches (at most 100 per call) until the outbox is empty or a push fails.
    func sync(_ name: String, run: RunContext, at time: Double) throws {
        guard var rng = backoffRNG else { return }
        let now = Date(timeIntervalSince1970: time)
        for _ in 0..<100 {
            guard var phone = phones[name] else { return }
            let outcome = try phone.client.step(now: now, transport: &phone.transport, using: &rng)
            phones[name] = phone
            switch outcome {
            case .idle:
                return
            case .acknowledged(_, let remaining):
                if remaining == 0 { return }
            case .failed(_, let retryAt):
                run.simulation.schedule(at: retryAt.timeIntervalSince1970) { [unowned self] sim in
                    self.guarded { try self.sync(name, run: run, at: sim.now) }
                }
                return
            case .crashed:
                try reopen(name, at: time, crash: true)
                // The restarted app finds its outbox non-empty and pushes again a few seconds later.
                run.simulation.schedule(at: time + 5) { [unowned self] sim in
                    self.guarded { try self.sync(name, run: run, at: sim.now) }
                }
                return
            }
        }
    }
}
